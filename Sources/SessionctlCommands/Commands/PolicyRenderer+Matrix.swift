import AudioSession

extension PolicyRenderer {
  static let legend = [
    "✓ accepted",
    "I implicitly on; setting it explicitly is accepted",
    "I! implicitly on; this profile rejects setting it explicitly (§12 D8)",
    "✗ rejected (modes: badParam; options: the profile's invalidOptionError, §12 D5)",
    "advisory: documented restriction that iOS does not enforce; accepted with a warning (§12 D4)",
    "advisory! documented restriction that this profile enforces: rejected (§12 D4)",
    "* disputed cell, decided by a switch of the profile",
  ]

  /// The category × option and category × mode matrices (`policy table`).
  func matrices(markdown: Bool) -> String {
    let categories = Category.allCases
    let optionRows = CategoryOption.allCases.map { option in
      [option.name] + categories.map { optionSymbol(option, $0) }
    }
    let modeRows = Mode.allCases.map { mode in
      [mode.name] + categories.map { modeSymbol(mode, $0) }
    }
    let profile = "profile '\(policy.profile.name)'"
    var lines: [String] = []
    lines += heading("Category options (spec §4.1), \(profile)", markdown: markdown)
    lines += grid(header: ["Option"] + categories.map(\.name), rows: optionRows, markdown: markdown)
    lines += [""] + heading("Modes (spec §3), \(profile)", markdown: markdown)
    lines += grid(header: ["Mode"] + categories.map(\.name), rows: modeRows, markdown: markdown)
    if !table.apps.rules.isEmpty {
      lines +=
        [""]
        + heading(
          "Other programs' streams (apps.json; the first matching rule wins)", markdown: markdown)
      lines += grid(
        header: ["Rule", "Matches", "Category", "Mode", "Options"], rows: appRows,
        markdown: markdown)
    }
    lines += [""] + heading("Legend", markdown: markdown)
    lines += Self.legend.map { markdown ? "- \($0)" : "  \($0)" }
    let switches = cellSwitchNames.map { "\($0) = \(policy.switches.cellSwitches[$0] ?? false)" }
    if !switches.isEmpty {
      lines.append("")
      lines.append("Switches of \(profile): \(switches.joined(separator: ", ")).")
    }
    let unsupported = categories.filter { !policy.rules(for: $0).supported }.map(\.name)
    if !unsupported.isEmpty {
      lines.append(
        """
        No longer supported, so setting it fails whatever its cells say: \
        \(unsupported.joined(separator: ", ")).
        """
      )
    }
    return lines.joined(separator: "\n")
  }

  /// The symbol for an option in a category, resolved for the profile.
  func optionSymbol(_ option: CategoryOption, _ category: Category) -> String {
    var symbol: String
    switch policy.optionCell(option, category) {
    case .allowed: symbol = "✓"
    case .implied: symbol = policy.switches.rejectExplicitImpliedOptions ? "I!" : "I"
    case .forbidden, .profileSwitch: symbol = "✗"
    }
    if case .profileSwitch = policy.rules(for: category).options[option] { symbol += "*" }
    return symbol
  }

  /// The symbol for a mode with a category, resolved for the profile.
  func modeSymbol(_ mode: Mode, _ category: Category) -> String {
    var symbol: String
    switch policy.modeCell(mode, category) {
    case .allowed: symbol = "✓"
    case .advisory: symbol = policy.switches.enforceAdvisoryModes ? "advisory!" : "advisory"
    case .forbidden, .profileSwitch: symbol = "✗"
    }
    if case .profileSwitch = policy.rules(for: mode).categories[category] { symbol += "*" }
    return symbol
  }

  /// One row per rule of `apps.json`.
  private var appRows: [[String]] {
    table.apps.rules.map { rule in
      let match = rule.match.sorted { $0.key < $1.key }.map { key, glob in
        glob.map { "\(key)=\($0)" } ?? "no \(key)"
      }.joined(separator: ", ")
      switch rule.outcome {
      case .ignore:
        return [rule.name, match, "ignored", "", ""]
      case .session(let category, let mode, let options, let policy, let call):
        let named = optionNames(options)
        return [
          rule.name, match, category.name,
          mode.name + (policy == .default ? "" : " (\(policy.name))")
            + (call ? " (makes the call)" : ""),
          named.isEmpty ? "-" : list(named),
        ]
      }
    }
  }

  private func heading(_ title: String, markdown: Bool) -> [String] {
    markdown ? ["## \(title)", ""] : [title, ""]
  }

  private func grid(header: [String], rows: [[String]], markdown: Bool) -> [String] {
    guard markdown else { return aligned([header] + rows) }
    let line = { (cells: [String]) in "| " + cells.joined(separator: " | ") + " |" }
    return [line(header), "|" + String(repeating: "---|", count: header.count)] + rows.map(line)
  }
}
