import AudioSession

extension Scenario {
  /// Reads a scenario from YAML (or JSON, which YAML accepts), strictly.
  ///
  /// Unknown keys, wrong types, a missing `name` or `steps`, and an empty step list are errors
  /// that say where they are, what was expected and what was found. Steps are kept as written
  /// with their locations; they are parsed as commands by the caller.
  ///
  /// - Parameters:
  ///   - yaml: The file's contents.
  ///   - file: The file name to report in locations.
  public init(yaml: String, file: String) throws(ScenarioError) {
    let reader = ScenarioReader(file: file)
    let root: YAMLNode?
    do {
      root = try YAMLReader.compose(yaml)
    } catch {
      throw reader.error(from: error, yaml: yaml)
    }
    self = try reader.scenario(from: root)
  }
}

/// Turns a composed YAML tree into a ``Scenario``, checking every key and type.
private struct ScenarioReader {
  let file: String

  static let shape =
    "a mapping with the keys 'name' and 'steps' (optional: 'description', 'devices', 'profile')"
  static let stepsShape = "a non-empty list of sessionctl command lines"

  func location(_ node: YAMLNode?) -> FileLocation {
    let mark = node?.mark
    return FileLocation(file: file, line: mark?.line ?? 1, column: mark?.column ?? 1)
  }

  func scenario(from root: YAMLNode?) throws(ScenarioError) -> Scenario {
    guard let root else {
      throw ScenarioError(
        "expected \(Self.shape), found an empty file", at: location(nil))
    }
    guard case .mapping(let mapping, _) = root else {
      throw ScenarioError("expected \(Self.shape), found \(found(root))", at: location(root))
    }
    var values: [String: (key: YAMLNode, value: YAMLNode)] = [:]
    for (key, value) in mapping {
      guard case .scalar(let scalar, .string, _) = key else {
        throw ScenarioError(
          "expected a key (one of: \(Scenario.keys.joined(separator: ", "))), found \(found(key))",
          at: location(key))
      }
      guard Scenario.keys.contains(scalar) else {
        throw ScenarioError(
          "unknown key '\(scalar)'; valid keys are: "
            + Scenario.keys.joined(separator: ", "),
          at: location(key))
      }
      values[scalar] = (key, value)
    }
    guard let name = values["name"] else {
      throw ScenarioError(
        "missing key 'name': expected the scenario's name (a string)", at: location(root))
    }
    guard let steps = values["steps"] else {
      throw ScenarioError(
        "missing key 'steps': expected \(Self.stepsShape)", at: location(root))
    }
    return Scenario(
      file: file,
      name: try string(name.value, what: "'name'").value,
      description: try values["description"].map { (entry) throws(ScenarioError) in
        try string(entry.value, what: "'description'").value
      },
      devices: try values["devices"].map { (entry) throws(ScenarioError) in
        try devices(entry.value)
      },
      profile: try values["profile"].map { (entry) throws(ScenarioError) in
        try string(entry.value, what: "'profile'")
      },
      steps: try self.steps(steps.value))
  }

  func string(_ node: YAMLNode, what: String) throws(ScenarioError) -> Located<String> {
    guard case .scalar(let scalar, .string, _) = node else {
      throw ScenarioError(
        "expected \(what) to be a string, found \(found(node))", at: location(node))
    }
    guard !scalar.isEmpty else {
      throw ScenarioError(
        "expected \(what) to be a non-empty string, found an empty string", at: location(node))
    }
    return Located(scalar, at: location(node))
  }

  func devices(_ node: YAMLNode) throws(ScenarioError) -> [Located<String>] {
    guard case .sequence(let sequence, _) = node else {
      throw ScenarioError(
        "expected 'devices' to be a list of device preset names, found \(found(node))",
        at: location(node))
    }
    var devices: [Located<String>] = []
    for (index, element) in sequence.enumerated() {
      devices.append(try string(element, what: "device \(index + 1)"))
    }
    return devices
  }

  func steps(_ node: YAMLNode) throws(ScenarioError) -> [ScenarioStep] {
    guard case .sequence(let sequence, _) = node else {
      throw ScenarioError(
        "expected 'steps' to be \(Self.stepsShape), found \(found(node))", at: location(node))
    }
    guard !sequence.isEmpty else {
      throw ScenarioError(
        "expected 'steps' to be \(Self.stepsShape), found an empty list", at: location(node))
    }
    var steps: [ScenarioStep] = []
    for (index, element) in sequence.enumerated() {
      let what = "step \(index + 1)"
      if case .mapping = element {
        throw ScenarioError(
          "expected \(what) to be a sessionctl command line (a string), found a mapping; "
            + "quote the step if it contains ': '", at: location(element))
      }
      let text = try string(element, what: what)
      steps.append(ScenarioStep(text: text.value, location: text.location))
    }
    return steps
  }

  /// "a list", "an integer (42)": what a node is, for "found …".
  func found(_ node: YAMLNode) -> String {
    switch node {
    case .mapping: return "a mapping"
    case .sequence: return "a list"
    case .scalar(let scalar, let kind, _):
      switch kind {
      case .string: return scalar.isEmpty ? "an empty string" : "a string ('\(scalar)')"
      case .integer: return "an integer (\(scalar))"
      case .float: return "a number (\(scalar))"
      case .boolean: return "a boolean (\(scalar))"
      case .null: return "nothing (null)"
      case .timestamp: return "a date (\(scalar))"
      case .other: return "a scalar (\(scalar))"
      }
    }
  }

  func error(from error: YAMLReadError, yaml: String) -> ScenarioError {
    func at(_ mark: YAMLMark) -> FileLocation {
      FileLocation(file: file, line: mark.line, column: mark.column)
    }
    switch error {
    case .syntax(let problem, let mark, let context, let contextMark):
      let while_ = context.map { text in
        " (\(text) at line \(contextMark?.line ?? 1), column \(contextMark?.column ?? 1))"
      }
      return ScenarioError("invalid YAML: \(problem)\(while_ ?? "")", at: at(mark))
    case .duplicateKeys(let duplicates, let mapping):
      let keys = duplicates.map { "'\($0)'" }.joined(separator: ", ")
      return ScenarioError("duplicate key \(keys): each key may appear only once", at: at(mapping))
    case .reader(let problem, let offset):
      let (line, column) = Self.lineAndColumn(of: offset, in: yaml)
      return ScenarioError(
        "cannot read the file: \(problem)", at: FileLocation(file: file, line: line, column: column)
      )
    }
  }

  /// 1-based line and column of a character offset.
  static func lineAndColumn(of offset: Int, in text: String) -> (Int, Int) {
    var line = 1
    var column = 1
    for character in text.prefix(offset) {
      if character.isNewline {
        line += 1
        column = 1
      } else {
        column += 1
      }
    }
    return (line, column)
  }
}
