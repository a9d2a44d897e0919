// categories.json, modes.json and options.json: the compatibility tables
// (docs/avaudiosession.md §2–§4).

extension PolicyLoader {
  static let optionCellVocabulary = "allowed, implied, forbidden, switch:<name>"
  static let modeCellVocabulary = "allowed, advisory, forbidden, switch:<name>"

  /// Reads `categories.json`; rows that have problems are left out.
  static func readCategories(_ root: Node) -> [Category: CategoryRules] {
    guard let top = topLevel(root, required: ["categories"]),
      let rows: [(name: Category, node: Node)] = top["categories"]?.namedMap(
        "category", requireEvery: true, missing: "missing row")
    else { return [:] }
    var result: [Category: CategoryRules] = [:]
    for (category, node) in rows {
      result[category] = readCategoryRow(category, node)
    }
    return result
  }

  private static func readCategoryRow(_ category: Category, _ node: Node) -> CategoryRules? {
    guard
      let row = node.object(required: [
        "supported", "hasInput", "hasOutput", "impliedOptions", "options", "source",
      ])
    else { return nil }
    let supported = row["supported"]?.bool()
    let hasInput = row["hasInput"]?.bool()
    let hasOutput = row["hasOutput"]?.bool()
    let implied: [CategoryOption]? = row["impliedOptions"]?.names("option")
    let source = row["source"]?.text()
    var cells: [CategoryOption: OptionCell] = [:]
    if let entries: [(name: CategoryOption, node: Node)] = row["options"]?.namedMap(
      "option", requireEvery: true, missing: "missing cell")
    {
      for (option, cellNode) in entries {
        cells[option] = optionCell(cellNode)
      }
    }
    if let implied, let impliedNode = row["impliedOptions"] {
      for option in implied where cells[option] != nil && cells[option] != .implied {
        impliedNode.report(
          """
          '\(option.name)' is listed as implied, but its cell \
          \(node.childPath("options")).\(option.name) is not \"implied\"
          """
        )
      }
    }
    if supported == false {
      for (option, cell) in cells where cell != .forbidden {
        node.diagnostics.report(
          "\(node.childPath("options")).\(option.name)",
          "category '\(category.name)' is not supported, so every option cell must be \"forbidden\""
        )
      }
    }
    guard let supported, let hasInput, let hasOutput, let implied, let source,
      cells.count == CategoryOption.allCases.count
    else { return nil }
    return CategoryRules(
      supported: supported, hasInput: hasInput, hasOutput: hasOutput,
      impliedOptions: CategoryOptions(implied), options: cells, source: source)
  }

  /// Reads `modes.json`; rows that have problems are left out.
  static func readModes(_ root: Node) -> [Mode: ModeRules] {
    guard let top = topLevel(root, required: ["modes"]),
      let rows: [(name: Mode, node: Node)] = top["modes"]?.namedMap(
        "mode", requireEvery: true, missing: "missing row")
    else { return [:] }
    var result: [Mode: ModeRules] = [:]
    for (mode, node) in rows {
      guard
        let row = node.object(required: [
          "categories", "impliedOptions", "requiredOptions", "source",
        ])
      else { continue }
      var cells: [Category: ModeCell] = [:]
      if let entries: [(name: Category, node: Node)] = row["categories"]?.namedMap(
        "category", requireEvery: true, missing: "missing cell")
      {
        for (category, cellNode) in entries {
          cells[category] = modeCell(cellNode)
        }
      }
      let implied = row["impliedOptions"]?.options()
      let required = row["requiredOptions"]?.options()
      let source = row["source"]?.text()
      guard let implied, let required, let source, cells.count == Category.allCases.count
      else { continue }
      result[mode] = ModeRules(
        categories: cells, impliedOptions: implied, requiredOptions: required, source: source)
    }
    return result
  }

  /// Reads `options.json`; rows that have problems are left out.
  static func readOptions(_ root: Node) -> [CategoryOption: OptionRules] {
    guard let top = topLevel(root, required: ["options"]),
      let rows: [(name: CategoryOption, node: Node)] = top["options"]?.namedMap(
        "option", requireEvery: true, missing: "missing row")
    else { return [:] }
    var result: [CategoryOption: OptionRules] = [:]
    for (option, node) in rows {
      guard
        let row = node.object(
          required: ["implies", "requires", "source"], optional: ["modes", "categoryModes"])
      else { continue }
      let implies: [CategoryOption]? = row["implies"]?.names("option")
      let requires: [CategoryOption]? = row["requires"]?.names("option")
      for (key, list) in [("implies", implies), ("requires", requires)] {
        if let list, list.contains(option), let listNode = row[key] {
          listNode.report("option '\(option.name)' cannot list itself")
        }
      }
      var modes: Set<Mode>?
      if let modesNode = row["modes"] {
        guard let list: [Mode] = modesNode.names("mode", allowEmpty: false) else { continue }
        modes = Set(list)
      }
      var categoryModes: [Category: Set<Mode>] = [:]
      if let mapNode = row["categoryModes"] {
        guard
          let entries: [(name: Category, node: Node)] = mapNode.namedMap(
            "category", requireEvery: false)
        else { continue }
        var complete = true
        for (category, listNode) in entries {
          guard let list: [Mode] = listNode.names("mode", allowEmpty: false) else {
            complete = false
            continue
          }
          categoryModes[category] = Set(list)
        }
        guard complete else { continue }
      }
      let source = row["source"]?.text()
      guard let implies, let requires, let source,
        !implies.contains(option), !requires.contains(option)
      else { continue }
      result[option] = OptionRules(
        implies: CategoryOptions(implies), requires: CategoryOptions(requires), modes: modes,
        categoryModes: categoryModes, source: source)
    }
    return result
  }

  // MARK: Cells

  static func optionCell(_ node: Node) -> OptionCell? {
    guard let text = cellText(node, vocabulary: optionCellVocabulary) else { return nil }
    switch text {
    case "allowed": return .allowed
    case "implied": return .implied
    case "forbidden": return .forbidden
    default:
      guard let name = switchName(node, text, vocabulary: optionCellVocabulary) else { return nil }
      return .profileSwitch(name)
    }
  }

  static func modeCell(_ node: Node) -> ModeCell? {
    guard let text = cellText(node, vocabulary: modeCellVocabulary) else { return nil }
    switch text {
    case "allowed": return .allowed
    case "advisory": return .advisory
    case "forbidden": return .forbidden
    default:
      guard let name = switchName(node, text, vocabulary: modeCellVocabulary) else { return nil }
      return .profileSwitch(name)
    }
  }

  private static func cellText(_ node: Node, vocabulary: String) -> String? {
    guard case .string(let text) = node.value else {
      node.report("expected a cell (\(vocabulary)), found \(node.value.kindName)")
      return nil
    }
    return text
  }

  /// The switch name of a `switch:<name>` cell; reports any other unknown cell.
  private static func switchName(_ node: Node, _ text: String, vocabulary: String) -> String? {
    let prefix = "switch:"
    guard text.hasPrefix(prefix) else {
      node.report("unknown cell '\(text)'; valid: \(vocabulary)")
      return nil
    }
    let name = String(text.dropFirst(prefix.count))
    guard Node.isIdentifier(name) else {
      node.report(
        "switch name '\(name)' must start with a letter and contain only letters, digits and '_'")
      return nil
    }
    guard !reservedSwitchNames.contains(name) else {
      node.report(
        """
        '\(name)' is a fixed profile setting, not a cell switch; give the disputed cell a switch \
        of its own
        """
      )
      return nil
    }
    return name
  }

  // MARK: Shared

  /// The top-level object of a policy file; checks `schemaVersion`.
  package static func topLevel(_ root: Node, required: [String], optional: [String] = []) -> Fields?
  {
    guard let top = root.object(required: required, optional: optional + ["schemaVersion"])
    else { return nil }
    guard let version = top["schemaVersion"] else {
      root.diagnostics.report(
        "schemaVersion",
        "missing required key 'schemaVersion'; add \"schemaVersion\": \(schemaVersion)")
      return top
    }
    if version.value.number != Double(schemaVersion) {
      version.report(
        """
        schemaVersion must be \(schemaVersion), the version this loader reads; found \
        \(version.value.kindName)
        """
      )
    }
    return top
  }
}
