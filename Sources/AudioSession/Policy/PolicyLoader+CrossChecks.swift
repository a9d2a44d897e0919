// Checks that span files: switch references against profiles, routes against what a category
// carries, modes that no category could accept.

extension PolicyLoader {
  /// Everything read so far; parts with problems are missing or partial.
  struct TableDraft {
    var categories: [Category: CategoryRules] = [:]
    var modes: [Mode: ModeRules] = [:]
    var options: [CategoryOption: OptionRules] = [:]
    var interactions: InteractionRules?
    var routes: RouteRules?
    var devices: DeviceCatalog?
    var profiles: ProfilesDraft?
    var finishedProfiles: [Profile] = []
    var apps: AppRules?

    /// The table; only called when no problem was found.
    func table() -> PolicyTable {
      guard categories.count == Category.allCases.count, modes.count == Mode.allCases.count,
        options.count == CategoryOption.allCases.count, let interactions, let routes, let devices,
        let profiles, let defaultProfile = profiles.defaultProfile,
        finishedProfiles.count == profiles.profiles.count, !finishedProfiles.isEmpty
      else {
        preconditionFailure("policy loader bug: a part is missing although no problem was reported")
      }
      return PolicyTable(
        categories: categories, modes: modes, options: options, interactions: interactions,
        routes: routes, devices: devices,
        profiles: Dictionary(uniqueKeysWithValues: finishedProfiles.map { ($0.name, $0) }),
        profileOrder: finishedProfiles.map(\.name), defaultProfile: defaultProfile,
        apps: apps ?? AppRules([]))
    }
  }

  /// A `switch:<name>` cell: where it is and what it names.
  struct SwitchReference {
    var name: String
    var node: Node
    var location: String { "\(node.diagnostics.file) \(node.path)" }
  }

  static func crossCheck(_ draft: inout TableDraft, nodes: [String: Node]) {
    checkSwitches(&draft, nodes: nodes)
    checkRoutes(draft, log: nodes["routes.json"]?.diagnostics)
    checkInteractions(draft, log: nodes["interactions.json"]?.diagnostics)
    checkModes(draft, log: nodes["modes.json"]?.diagnostics)
  }

  // MARK: Switches

  /// Every switch a cell names must be a boolean in every profile; a switch no profile sets is
  /// reported at its cells, one some profiles lack at those profiles. Keys that are neither fixed
  /// switches nor named by a cell are unknown (checked only when both tables read cleanly).
  private static func checkSwitches(_ draft: inout TableDraft, nodes: [String: Node]) {
    let categoryNode = nodes["categories.json"]
    let modeNode = nodes["modes.json"]
    let references =
      (categoryNode.map { switchReferences($0, table: "categories", cells: "options") } ?? [])
      + (modeNode.map { switchReferences($0, table: "modes", cells: "categories") } ?? [])
    let tablesAreClean =
      categoryNode?.diagnostics.problems.isEmpty == true
      && modeNode?.diagnostics.problems.isEmpty == true
    guard var profiles = draft.profiles else { return }
    let referenced = references.map(\.name)
    var reportedDangling: Set<String> = []
    for reference in references {
      let setters = profiles.profiles.filter { profile in
        profile.cellSwitches.contains { $0.name == reference.name }
          || profile.invalidKeys.contains(reference.name)
      }
      guard setters.isEmpty, !profiles.profiles.isEmpty else { continue }
      reference.node.report(
        """
        switch '\(reference.name)' is not set by any profile; add \"\(reference.name)\": true or \
        false to the switches of every profile in profiles.json that inherits from none
        """
      )
      reportedDangling.insert(reference.name)
    }
    for index in profiles.profiles.indices {
      var profile = profiles.profiles[index]
      guard let switchesNode = profile.switchesNode, case .object = switchesNode.value else {
        continue
      }
      var seen: Set<String> = []
      for reference in references where !seen.contains(reference.name) {
        seen.insert(reference.name)
        let isSet =
          profile.cellSwitches.contains { $0.name == reference.name }
          || profile.invalidKeys.contains(reference.name)
        guard !isSet, !reportedDangling.contains(reference.name) else { continue }
        switchesNode.diagnostics.report(
          switchesNode.childPath(reference.name),
          """
          missing switch '\(reference.name)', which \(reference.location) refers to; set it to \
          true or false
          """
        )
        profile.complete = false
      }
      if tablesAreClean {
        let valid = reservedSwitchNames + Array(Set(referenced)).sorted()
        for entry in profile.cellSwitches where !referenced.contains(entry.name) {
          entry.node.report(
            """
            unknown switch '\(entry.name)'; no table cell refers to it; valid: \
            \(valid.joined(separator: ", "))
            """
          )
          profile.complete = false
        }
      }
      profiles.profiles[index] = profile
    }
    draft.profiles = profiles
    draft.finishedProfiles = profiles.profiles.compactMap(makeProfile)
  }

  /// The `switch:<name>` cells of a table file, read from the raw JSON so that rows with other
  /// problems still count.
  private static func switchReferences(
    _ root: Node, table: String, cells: String
  ) -> [SwitchReference] {
    guard case .object(let top) = root.value,
      case .object(let rows)? = top[table]
    else { return [] }
    var references: [SwitchReference] = []
    for row in rows.members {
      guard case .object(let fields) = row.value, case .object(let cellMembers)? = fields[cells]
      else { continue }
      for cell in cellMembers.members {
        guard case .string(let text) = cell.value, text.hasPrefix("switch:") else { continue }
        let name = String(text.dropFirst("switch:".count))
        guard Node.isIdentifier(name), !reservedSwitchNames.contains(name) else { continue }
        let path = "\(table).\(row.key).\(cells).\(cell.key)"
        references.append(
          SwitchReference(
            name: name, node: Node(value: cell.value, path: path, diagnostics: root.diagnostics)))
      }
    }
    return references
  }

  // MARK: Routes and interactions against categories

  /// A category has an output route exactly when it has output (and likewise for input).
  private static func checkRoutes(_ draft: TableDraft, log: Diagnostics?) {
    guard let routes = draft.routes, let log else { return }
    for category in Category.allCases {
      guard let rules = draft.categories[category] else { continue }
      for (direction, has, route) in [
        ("outputs", rules.hasOutput, routes.outputs[category]),
        ("inputs", rules.hasInput, routes.inputs[category]),
      ] {
        let wanted = rules.supported && has
        if wanted, route == nil {
          log.report(
            "categories.\(category.name)",
            """
            category '\(category.name)' has \(direction == "outputs" ? "output" : "input") \
            (categories.json), so it needs \"\(direction)\"
            """
          )
        } else if !wanted, route != nil {
          let why =
            rules.supported
            ? "has no \(direction == "outputs" ? "output" : "input")" : "is not supported"
          log.report(
            "categories.\(category.name).\(direction)",
            "category '\(category.name)' \(why) (categories.json); remove \"\(direction)\"")
        }
      }
    }
    for category in Category.allCases where routes.overrideCategories.contains(category) {
      if let rules = draft.categories[category], !rules.hasOutput {
        log.report(
          "overrideCategories",
          "category '\(category.name)' has no output (categories.json), so it cannot override it")
      }
    }
  }

  /// Silencing needs output; the mic-mute interruption needs input.
  private static func checkInteractions(_ draft: TableDraft, log: Diagnostics?) {
    guard let interactions = draft.interactions, let log else { return }
    for (reason, key) in [(MuteReason.silentSwitch, "silentSwitch"), (.screenLock, "screenLock")] {
      for category in Category.allCases
      where interactions.silencedBy[reason]?.contains(category) == true {
        if let rules = draft.categories[category], !rules.hasOutput {
          log.report(
            "silencedBy.\(key)",
            "category '\(category.name)' has no output (categories.json), so nothing can silence it"
          )
        }
      }
    }
    for category in Category.allCases where interactions.micMuteInterrupts.contains(category) {
      if let rules = draft.categories[category], !rules.hasInput {
        log.report(
          "micMute.interrupts",
          """
          category '\(category.name)' has no input (categories.json), so muting the microphone \
          cannot interrupt it
          """
        )
      }
    }
  }

  /// Every mode is accepted by some supported category, and its required options are possible.
  private static func checkModes(_ draft: TableDraft, log: Diagnostics?) {
    guard draft.categories.count == Category.allCases.count, let log else {
      return
    }
    for mode in Mode.allCases {
      guard let rules = draft.modes[mode] else { continue }
      let accepting = Category.allCases.filter { category in
        draft.categories[category]?.supported == true && rules.categories[category] != .forbidden
      }
      guard !accepting.isEmpty else {
        log.report(
          "modes.\(mode.name).categories", "no supported category accepts mode '\(mode.name)'")
        continue
      }
      for option in rules.requiredOptions.named {
        let possible = accepting.contains { draft.categories[$0]?.options[option] != .forbidden }
        if !possible {
          log.report(
            "modes.\(mode.name).requiredOptions",
            """
            option '\(option.name)' is forbidden with every category that accepts mode \
            '\(mode.name)', so the mode can never be set
            """
          )
        }
      }
    }
  }
}
