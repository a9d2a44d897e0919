import AudioSession

/// Turns a loaded policy into what `sessionctl policy show` and `policy table` print.
struct PolicyRenderer {
  let policy: Policy

  var table: PolicyTable { policy.table }

  /// The readable summary of every table and the profile's switches (`policy show`).
  func summary(directory: String) -> String {
    var lines = ["Policy directory: \(directory)"]
    let profile = policy.profile
    let isDefault = profile.name == table.defaultProfile ? " (the default)" : ""
    let inherits =
      profile.inherits.map { " (inherits \($0); the switches below are resolved)" } ?? ""
    lines.append("Profile: \(profile.name)\(isDefault)\(inherits): \(profile.description)")
    lines.append("Profiles: \(table.profileOrder.joined(separator: ", "))")
    lines += section("Switches", switchLines())
    lines += section("Categories (spec §2, §4.1)", categoryLines())
    lines += section("Modes (spec §3)", modeLines())
    lines += section("Options (spec §4.1, §4.2)", optionLines())
    lines += section("Interactions (spec §5.1; the first matching rule wins)", interactionLines())
    lines += section("Routes (spec §7)", routeLines())
    lines += section("Device presets (for 'simulate plug')", deviceLines())
    lines += section(
      "Other programs' streams (apps.json; the first matching rule wins)", appLines())
    return lines.joined(separator: "\n")
  }

  private func section(_ title: String, _ body: [String]) -> [String] {
    ["", "\(title):"] + body.map { "  " + $0 }
  }

  // MARK: Switches

  /// Every cell that names a switch, as `categories.ambient.options.duckOthers`.
  var switchReferences: [(name: String, cell: String)] {
    var references: [(name: String, cell: String)] = []
    for category in Category.allCases {
      for option in CategoryOption.allCases {
        if case .profileSwitch(let name) = policy.rules(for: category).options[option] {
          references.append((name, "categories.\(category.name).options.\(option.name)"))
        }
      }
    }
    for mode in Mode.allCases {
      for category in Category.allCases {
        if case .profileSwitch(let name) = policy.rules(for: mode).categories[category] {
          references.append((name, "modes.\(mode.name).categories.\(category.name)"))
        }
      }
    }
    return references
  }

  /// Cell switch names in the order the tables first use them.
  var cellSwitchNames: [String] {
    var names: [String] = []
    for reference in switchReferences where !names.contains(reference.name) {
      names.append(reference.name)
    }
    return names
  }

  private func switchLines() -> [String] {
    var rows = PolicyLoader.FixedSwitch.allCases.map {
      [$0.name, $0.value(in: policy.switches), $0.specReference]
    }
    let override = PolicyLoader.OverrideSwitch.vanishedApp
    let origin =
      policy.switches.vanishedApp == nil
      ? "from \(override.file)" : "this profile's override of \(override.file)"
    rows.append([override.name, policy.vanishedApp.name, "\(origin) (\(override.specReference))"])
    let references = switchReferences
    for name in cellSwitchNames {
      let cells = references.filter { $0.name == name }.map(\.cell)
      rows.append([
        name, "\(policy.switches.cellSwitches[name] ?? false)",
        "cell switch: \(cells.joined(separator: ", "))",
      ])
    }
    return aligned(rows)
  }

  // MARK: Tables

  private func categoryLines() -> [String] {
    Category.allCases.flatMap { category -> [String] in
      let rules = policy.rules(for: category)
      guard rules.supported else {
        return ["\(category.name): not supported (setting it fails)", "  source: \(rules.source)"]
      }
      let carries = [rules.hasInput ? "input" : nil, rules.hasOutput ? "output" : nil]
        .compactMap { $0 }.joined(separator: " + ")
      var parts = ["\(category.name): \(carries)"]
      let accepted = CategoryOption.allCases.filter { policy.optionCell($0, category) == .allowed }
      let implied = CategoryOption.allCases.filter { policy.optionCell($0, category) == .implied }
      parts.append("  accepts: \(list(accepted.map { marked($0, category) }))")
      if !implied.isEmpty {
        parts.append("  implicitly on: \(list(implied.map { marked($0, category) }))")
      }
      if !rules.impliedOptions.isEmpty {
        parts.append("  read back as set: \(list(optionNames(rules.impliedOptions)))")
      }
      parts.append("  source: \(rules.source)")
      return parts
    }
  }

  private func marked(_ option: CategoryOption, _ category: Category) -> String {
    if case .profileSwitch = policy.rules(for: category).options[option] {
      return option.name + "*"
    }
    return option.name
  }

  private func modeLines() -> [String] {
    Mode.allCases.flatMap { mode -> [String] in
      let rules = policy.rules(for: mode)
      let supported = Category.allCases.filter { policy.rules(for: $0).supported }
      let allowed = supported.filter { policy.modeCell(mode, $0) == .allowed }
      let advisory = supported.filter { policy.modeCell(mode, $0) == .advisory }
      var text = "\(mode.name): "
      text += allowed.count == supported.count ? "every category" : list(allowed.map(\.name))
      if !advisory.isEmpty {
        let verb = policy.switches.enforceAdvisoryModes ? "rejected" : "accepted with a warning"
        text += "; documented only, \(verb): \(list(advisory.map(\.name)))"
      }
      if !rules.impliedOptions.isEmpty {
        text += "; implies \(list(optionNames(rules.impliedOptions)))"
      }
      if !rules.requiredOptions.isEmpty {
        text += "; requires \(list(optionNames(rules.requiredOptions)))"
      }
      return [text, "  source: \(rules.source)"]
    }
  }

  private func optionLines() -> [String] {
    CategoryOption.allCases.flatMap { option -> [String] in
      let rules = policy.rules(for: option)
      var facts: [String] = []
      if !rules.implies.isEmpty { facts.append("implies \(list(optionNames(rules.implies)))") }
      if !rules.requires.isEmpty { facts.append("requires \(list(optionNames(rules.requires)))") }
      if let modes = rules.modes {
        facts.append("only with mode \(list(Mode.allCases.filter(modes.contains).map(\.name)))")
      }
      for category in Category.allCases {
        guard let modes = rules.categoryModes[category] else { continue }
        let names = list(Mode.allCases.filter(modes.contains).map(\.name))
        facts.append("with \(category.name) only in mode \(names)")
      }
      let accepting = Category.allCases.filter {
        let cell = policy.optionCell(option, $0)
        return cell == .allowed || cell == .implied
      }
      facts.append("categories: \(list(accepting.map(\.name)))")
      return ["\(option.name): \(facts.joined(separator: "; "))", "  source: \(rules.source)"]
    }
  }

  private func interactionLines() -> [String] {
    let interactions = table.interactions
    var lines: [String] = []
    for (index, rule) in interactions.rules.enumerated() {
      lines.append(
        """
        \(index + 1). \(rule.name): incoming \(describe(rule.incoming)), holder \
        \(describe(rule.holder)) → \(rule.action.rawValue)
        """
      )
      lines.append("   source: \(rule.source)")
    }
    lines.append("A call blocks activating: \(names(interactions.callBlocksActivation))")
    lines.append("A call blocks setCategory to: \(names(interactions.callBlocksSetCategory))")
    for (reason, label) in [
      (MuteReason.silentSwitch, "silent switch"), (.screenLock, "screen lock"),
    ] {
      lines.append("The \(label) silences: \(names(interactions.silencedBy[reason] ?? []))")
    }
    lines.append(
      """
      Muting the built-in mic interrupts: \(names(interactions.micMuteInterrupts)), unless \
      \(list(optionNames(interactions.micMuteExemptOption)))
      """
    )
    let overridden = policy.switches.vanishedApp == nil ? "" : ", the profile's override"
    lines.append(
      """
      When an app vanishes (vanishedApp: \(policy.vanishedApp.name)\(overridden)): its ducking \
      and muting end; the sessions it interrupted get \(policy.vanishedApp.summary)
      """
    )
    return lines
  }

  /// `{mixable: false, options: [duckOthers]}`, or `any`.
  func describe(_ matcher: SessionMatcher) -> String {
    var parts: [String] = []
    if let categories = matcher.categories { parts.append("categories: [\(names(categories))]") }
    if let modes = matcher.modes {
      parts.append("modes: [\(list(Mode.allCases.filter(modes.contains).map(\.name)))]")
    }
    if let mixable = matcher.mixable { parts.append("mixable: \(mixable)") }
    if let options = matcher.options { parts.append("options: [\(list(optionNames(options)))]") }
    if let hasInput = matcher.hasInput { parts.append("hasInput: \(hasInput)") }
    if let hasOutput = matcher.hasOutput { parts.append("hasOutput: \(hasOutput)") }
    if let playing = matcher.playing { parts.append("playing: \(playing)") }
    return parts.isEmpty ? "any" : "{\(parts.joined(separator: ", "))}"
  }

  private func routeLines() -> [String] {
    let routes = table.routes
    var lines: [String] = []
    for category in Category.allCases {
      let directions = [("out", routes.outputs[category]), ("in", routes.inputs[category])]
        .compactMap { label, route in route.map { (label, $0) } }
      guard !directions.isEmpty else {
        lines.append("\(category.name): no route")
        continue
      }
      for (index, (label, route)) in directions.enumerated() {
        let lead =
          index == 0 ? "\(category.name): " : String(repeating: " ", count: category.name.count + 2)
        lines.append(
          lead + "\(label)\(route.all ? " (every eligible port at once)" : ""): \(describe(route))")
      }
    }
    lines.append(
      "Port preference within one device: \(list(routes.devicePortPreference.map(\.name)))")
    lines.append("Input and output on the same device: \(list(ordered(routes.coupledPorts)))")
    lines.append("Speaker override allowed for: \(names(routes.overrideCategories))")
    lines.append(
      """
      Losing these ports pauses playback: \(list(ordered(routes.privateListeningPorts))); only \
      when falling back to a built-in port: \(routes.pauseOnlyOnFallbackToBuiltIn); for \
      categories: \(names(routes.pauseCategories))
      """
    )
    for mode in Mode.allCases {
      guard let route = routes.modeRoutes[mode] else { continue }
      lines.append(
        """
        Mode \(mode.name): out \(route.output.name) and in \(route.input.name) always, plus a second \
        route on the last device with both directions among \(list(route.secondary.map(\.name)))
        """
      )
    }
    return lines
  }

  private func describe(_ route: DirectionRoute) -> String {
    var text = list(route.ports.map(\.name))
    for option in CategoryOption.allCases {
      if let extra = route.portsWithOption[option] {
        text += "; \(list(extra.map(\.name))) with \(option.name)"
      }
    }
    if let builtIn = route.builtIn { text += "; else \(builtIn.name)" }
    for option in CategoryOption.allCases {
      if let port = route.builtInWithOption[option] {
        text += " (\(port.name) with \(option.name))"
      }
    }
    return text
  }

  private func deviceLines() -> [String] {
    let devices = table.devices
    var rows: [[String]] = []
    for name in devices.presetOrder {
      guard let preset = devices.presets[name] else { continue }
      let ports = preset.ports.map { "\($0.direction == .output ? "out" : "in") \($0.type.name)" }
      let uid = preset.uid.map { "uid \($0)" } ?? ""
      rows.append([name, "\"\(preset.displayName)\"", uid, list(ports)])
    }
    return aligned(rows) + ["Present at start: \(list(devices.defaultDevices))"]
  }

  private func appLines() -> [String] {
    guard !table.apps.rules.isEmpty else {
      return ["none: no apps.json, so other programs' streams are not arbitrated"]
    }
    let rows = table.apps.rules.map { rule -> [String] in
      let match = rule.match.sorted { $0.key < $1.key }.map { key, glob in
        glob.map { "\(key)=\($0)" } ?? "no \(key)"
      }
      let outcome: String
      switch rule.outcome {
      case .ignore:
        outcome = "ignored"
      case .session(let category, let mode, let options, let policy, let call):
        let named = optionNames(options)
        outcome =
          "\(category.name), mode \(mode.name)" + (named.isEmpty ? "" : ", \(list(named))")
          + (policy == .default ? "" : ", policy \(policy.name)")
          + (call ? ", makes the call" : "") + (rule.app.map { ", one app '\($0)'" } ?? "")
          + (rule.inactiveAfterSilence.map { ", paused after \($0) ms of silence" } ?? "")
          + (rule.heldAfterLastStream.map { ", held \($0) ms after its last stream" } ?? "")
      }
      return [rule.name, match.joined(separator: " "), outcome]
    }
    return aligned(rows)
  }

  // MARK: Helpers

  /// The named options of a set, without the bits a larger option includes
  /// (interruptSpokenAudioAndMixWithOthers, not also mixWithOthers).
  func optionNames(_ options: CategoryOptions) -> [String] {
    Policy.explicitNames(options).named.map(\.name)
  }

  func list(_ items: [String]) -> String {
    items.isEmpty ? "none" : items.joined(separator: ", ")
  }

  private func names(_ categories: Set<Category>) -> String {
    list(Category.allCases.filter(categories.contains).map(\.name))
  }

  private func ordered(_ ports: Set<PortType>) -> [String] {
    PortType.allCases.filter(ports.contains).map(\.name)
  }

  /// Rows with every column but the last padded to its widest cell.
  func aligned(_ rows: [[String]], separator: String = "  ") -> [String] {
    let columns = rows.map(\.count).max() ?? 0
    let widths = (0..<columns).map { column in
      rows.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0
    }
    return rows.map { row in
      row.enumerated().map { column, cell in
        column == row.count - 1
          ? cell : cell + String(repeating: " ", count: widths[column] - cell.count)
      }.joined(separator: separator).withoutTrailingSpaces
    }
  }

}

extension String {
  /// The string without trailing spaces (aligned rows whose last cells are empty).
  fileprivate var withoutTrailingSpaces: String {
    var text = self
    while text.last == " " { text.removeLast() }
    return text
  }
}
