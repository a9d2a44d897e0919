public import Foundation

/// Strict loading of `policies/pulse.json` (schema in docs/pulseaudio-layer.md): the JSON is
/// decoded into a plain value tree, then read into typed rules while every problem (unknown key,
/// unknown name, wrong type, missing key) is collected with its key path.
extension PulsePortRules {
  /// The schema version this library reads.
  public static let schemaVersion = 1

  /// Loads and validates a `pulse.json`.
  public static func load(from url: URL) throws(PulsePortRulesError) -> PulsePortRules {
    let data: Data
    do {
      data = try Data(contentsOf: url)
    } catch {
      throw PulsePortRulesError(
        file: url.path,
        problems: [
          .init(keyPath: "(file)", message: "cannot be read: \(error.localizedDescription)")
        ])
    }
    return try PulsePortRules(json: data, file: url.path)
  }

  /// Validates a `pulse.json` document; `file` names it in errors.
  public init(json: Data, file: String = PulsePortRules.fileName) throws(PulsePortRulesError) {
    let document: JSONValue
    do {
      document = try JSONDecoder().decode(JSONValue.self, from: json)
    } catch {
      throw PulsePortRulesError(
        file: file, problems: [.init(keyPath: "(file)", message: "is not valid JSON: \(error)")])
    }
    var reader = RulesReader()
    let rules = reader.document(document)
    guard let rules, reader.problems.isEmpty else {
      throw PulsePortRulesError(file: file, problems: reader.problems)
    }
    self = rules
  }
}

/// A JSON document as plain values.
private enum JSONValue: Decodable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object([String: JSONValue])

  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(Double.self) {
      self = .number(value)
    } else if let value = try? container.decode(String.self) {
      self = .string(value)
    } else if let value = try? container.decode([JSONValue].self) {
      self = .array(value)
    } else {
      self = .object(try container.decode([String: JSONValue].self))
    }
  }
}

/// Reads the value tree into rules, collecting problems instead of stopping at the first.
private struct RulesReader {
  var problems: [PulsePortRulesError.Problem] = []

  private static let documentKeys = ["schemaVersion", "description", "rules", "fallback"]
  private static let ruleKeys = ["name", "source", "when", "port"]
  private static let conditionKeys = [
    "direction", "monitor", "properties", "propertyKeys", "portTypes", "portNames", "drivers",
    "cards", "flags",
  ]

  mutating func document(_ value: JSONValue) -> PulsePortRules? {
    guard
      let fields = object(
        value, at: "", keys: Self.documentKeys, required: ["schemaVersion", "rules", "fallback"])
    else { return nil }
    if let version = fields["schemaVersion"] {
      if case .number(let number) = version, number == Double(PulsePortRules.schemaVersion) {
      } else {
        problem("schemaVersion", "must be \(PulsePortRules.schemaVersion)")
      }
    }
    if let description = fields["description"] { _ = string(description, at: "description") }
    let rules = fields["rules"].flatMap { self.rules($0) }
    let fallback = fields["fallback"].flatMap { self.fallback($0) }
    guard let rules, let fallback else { return nil }
    return PulsePortRules(rules: rules, fallback: fallback)
  }

  private mutating func rules(_ value: JSONValue) -> [PulsePortRules.Rule]? {
    guard let items = array(value, at: "rules") else { return nil }
    var rules: [PulsePortRules.Rule] = []
    var names: Set<String> = []
    for (position, item) in items.enumerated() {
      let path = "rules[\(position)]"
      guard let rule = rule(item, at: path) else { continue }
      if !names.insert(rule.name).inserted {
        problem(path + ".name", "duplicate rule name '\(rule.name)'")
      }
      rules.append(rule)
    }
    return rules.count == items.count ? rules : nil
  }

  private mutating func rule(_ value: JSONValue, at path: String) -> PulsePortRules.Rule? {
    guard let fields = object(value, at: path, keys: Self.ruleKeys, required: Self.ruleKeys)
    else { return nil }
    let name = fields["name"].flatMap { self.string($0, at: path + ".name") }
    let source = fields["source"].flatMap { string($0, at: path + ".source") }
    let outcome = fields["port"].flatMap { self.outcome($0, at: path + ".port") }
    var conditions: [PulsePortRules.Condition]?
    if let when = fields["when"], let items = array(when, at: path + ".when") {
      let read = items.enumerated().compactMap { condition($1, at: "\(path).when[\($0)]") }
      conditions = read.count == items.count ? read : nil
    }
    guard let name, let source, let outcome, let conditions else { return nil }
    return PulsePortRules.Rule(name: name, source: source, when: conditions, outcome: outcome)
  }

  private mutating func condition(
    _ value: JSONValue, at path: String
  ) -> PulsePortRules.Condition? {
    guard let fields = object(value, at: path, keys: Self.conditionKeys, required: []) else {
      return nil
    }
    let before = problems.count
    var condition = PulsePortRules.Condition()
    if let value = fields["direction"] {
      condition.direction = name(
        value, at: path + ".direction", kind: "direction", parse: PortDirection.init(rawValue:),
        valid: PortDirection.allCases.map(\.rawValue))
    }
    if let value = fields["monitor"] {
      if case .bool(let flag) = value {
        condition.monitor = flag
      } else {
        problem(path + ".monitor", "must be true or false")
      }
    }
    if let value = fields["properties"] {
      condition.properties = propertyPatterns(value, at: path + ".properties")
    }
    if let value = fields["propertyKeys"] {
      condition.propertyKeys = strings(value, at: path + ".propertyKeys") ?? []
    }
    if let value = fields["portTypes"], let items = array(value, at: path + ".portTypes") {
      condition.portTypes = Set(
        items.enumerated().compactMap {
          name(
            $1, at: "\(path).portTypes[\($0)]", kind: "PulseAudio port type",
            parse: PulsePortType.init(rawValue:), valid: PulsePortType.allCases.map(\.rawValue))
        })
    }
    condition.portNames = fields["portNames"].flatMap { strings($0, at: path + ".portNames") }
    condition.drivers = fields["drivers"].flatMap { strings($0, at: path + ".drivers") }
    condition.cards = fields["cards"].flatMap { strings($0, at: path + ".cards") }
    if let value = fields["flags"], let items = array(value, at: path + ".flags") {
      for (position, item) in items.enumerated() {
        let flag = name(
          item, at: "\(path).flags[\(position)]", kind: "device flag",
          parse: PulseDeviceFlags.init(name:), valid: PulseDeviceFlags.named.map(\.name))
        if let flag { condition.flags.insert(flag) }
      }
    }
    return problems.count == before ? condition : nil
  }

  private mutating func propertyPatterns(_ value: JSONValue, at path: String) -> [String: [String]]
  {
    guard case .object(let fields) = value, !fields.isEmpty else {
      problem(path, "must be a non-empty object of property name → list of patterns")
      return [:]
    }
    var result: [String: [String]] = [:]
    for key in fields.keys.sorted() {
      if let field = fields[key], let patterns = strings(field, at: "\(path).\(key)") {
        result[key] = patterns
      }
    }
    return result
  }

  private mutating func outcome(_ value: JSONValue, at path: String) -> PulsePortRules.Outcome? {
    if case .string("ignore") = value { return .ignore }
    let valid = "'ignore' or a port type: \(PortType.validNames)"
    guard case .string(let text) = value else {
      problem(path, "must be a string: \(valid)")
      return nil
    }
    guard let type = PortType(name: text) else {
      problem(path, "unknown port '\(text)'; valid values are \(valid)")
      return nil
    }
    return .port(type)
  }

  private mutating func fallback(_ value: JSONValue) -> PulsePortRules.Fallback? {
    let keys = ["output", "input"]
    guard let fields = object(value, at: "fallback", keys: keys, required: keys) else { return nil }
    let output = fields["output"].flatMap { portType($0, at: "fallback.output") }
    let input = fields["input"].flatMap { portType($0, at: "fallback.input") }
    guard let output, let input else { return nil }
    return PulsePortRules.Fallback(output: output, input: input)
  }

  private mutating func portType(_ value: JSONValue, at path: String) -> PortType? {
    name(
      value, at: path, kind: "port type", parse: PortType.init(name:),
      valid: PortType.allCases.map(\.name))
  }

  // MARK: Shapes

  private mutating func object(
    _ value: JSONValue, at path: String, keys: [String], required: [String]
  ) -> [String: JSONValue]? {
    guard case .object(let fields) = value else {
      problem(path, "must be an object")
      return nil
    }
    for key in fields.keys.sorted() where !keys.contains(key) {
      problem(join(path, key), "unknown key; valid keys are: \(keys.joined(separator: ", "))")
    }
    for key in required where fields[key] == nil {
      problem(path, "missing required key '\(key)'")
    }
    return fields
  }

  private mutating func array(_ value: JSONValue, at path: String) -> [JSONValue]? {
    guard case .array(let items) = value, !items.isEmpty else {
      problem(path, "must be a non-empty list")
      return nil
    }
    return items
  }

  private mutating func string(_ value: JSONValue, at path: String) -> String? {
    guard case .string(let text) = value, !text.isEmpty else {
      problem(path, "must be a non-empty string")
      return nil
    }
    return text
  }

  private mutating func strings(_ value: JSONValue, at path: String) -> [String]? {
    guard let items = array(value, at: path) else { return nil }
    let texts = items.enumerated().compactMap { string($1, at: "\(path)[\($0)]") }
    return texts.count == items.count ? texts : nil
  }

  private mutating func name<Value>(
    _ value: JSONValue, at path: String, kind: String, parse: (String) -> Value?, valid: [String]
  ) -> Value? {
    guard case .string(let text) = value else {
      problem(path, "must be a \(kind) name: \(valid.joined(separator: ", "))")
      return nil
    }
    guard let parsed = parse(text) else {
      problem(
        path, "unknown \(kind) '\(text)'; valid \(kind)s are: \(valid.joined(separator: ", "))")
      return nil
    }
    return parsed
  }

  private mutating func problem(_ path: String, _ message: String) {
    problems.append(.init(keyPath: path.isEmpty ? "(top level)" : path, message: message))
  }

  private func join(_ path: String, _ key: String) -> String {
    path.isEmpty ? key : "\(path).\(key)"
  }
}
