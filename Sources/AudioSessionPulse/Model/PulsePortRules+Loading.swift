package import AudioSession
import AudioSessionSystem
import FoundationEssentials

/// Strict loading of `policies/pulse.json` (schema in docs/pulseaudio-layer.md), on the policy
/// loader's JSON parser and reader: every problem (unknown key or name, wrong type, missing key,
/// duplicate rule) is collected with its key path and reported at once, as for the other policy
/// files.
extension PulsePortRules {
  /// Loads and validates the port mapping of `pulse.json` in a policies directory (its
  /// `streams` section is checked too when present; ``PulsePolicy/load(directory:)`` requires
  /// it).
  ///
  /// - Throws: ``PolicyValidationError`` with every problem found, each naming `pulse.json`.
  package static func load(directory: String) throws(PolicyValidationError) -> PulsePortRules {
    try loadFile(directory: directory, requireStreams: false).ports
  }

  /// Reads the whole file; `streams` is nil when absent and not required.
  static func loadFile(
    directory: String, requireStreams: Bool
  ) throws(PolicyValidationError) -> (ports: PulsePortRules, streams: PulseStreamRules?) {
    let log = PolicyLoader.Diagnostics(file: fileName)
    var contents: (ports: PulsePortRules, streams: PulseStreamRules?)?
    if let value = parse(directory, log) {
      let root = PolicyLoader.Node(value: value, path: "", diagnostics: log)
      contents = read(root, requireStreams: requireStreams)
    }
    guard let contents, log.problems.isEmpty else {
      throw PolicyValidationError(problems: log.problems)
    }
    return contents
  }

  private typealias Node = PolicyLoader.Node

  private static let conditionKeys = [
    "direction", "monitor", "properties", "propertyKeys", "portTypes", "portNames", "drivers",
    "cards", "flags",
  ]

  /// Parses the file with the policy loader (UTF-8, syntax with line and column, duplicate
  /// keys); a missing file gets its own message, as pulse.json is not one of the table's files.
  private static func parse(_ directory: String, _ log: PolicyLoader.Diagnostics)
    -> JSONValue?
  {
    let path = directory.hasSuffix("/") ? directory + fileName : directory + "/" + fileName
    guard FileManager.default.fileExists(atPath: path) else {
      log.report("", "missing file; the PulseAudio backend maps devices with \(path)")
      return nil
    }
    return PolicyLoader.parseFile(directory, fileName, log)
  }

  private static func read(
    _ root: Node, requireStreams: Bool
  ) -> (ports: PulsePortRules, streams: PulseStreamRules?)? {
    let required = ["rules", "fallback"] + (requireStreams ? ["streams"] : [])
    guard
      let top = PolicyLoader.topLevel(
        root, required: required, optional: ["description"] + (requireStreams ? [] : ["streams"]))
    else { return nil }
    _ = top["description"]?.text()
    let rules = top["rules"].flatMap(readRules)
    let fallback = top["fallback"].flatMap(readFallback)
    var streams: PulseStreamRules?
    if let section = top["streams"] {
      streams = PulseStreamRules.read(section)
      if streams == nil { return nil }
    }
    guard let rules, let fallback else { return nil }
    return (PulsePortRules(rules: rules, fallback: fallback), streams)
  }

  private static func readRules(_ node: Node) -> [Rule]? {
    guard let elements = nonEmptyArray(node, of: "rule") else { return nil }
    var rules: [Rule] = []
    var valid = true
    for element in elements {
      guard let rule = readRule(element) else {
        valid = false
        continue
      }
      if rules.contains(where: { $0.name == rule.name }) {
        element.report("rule name '\(rule.name)' is used twice; names must be unique")
        valid = false
      }
      rules.append(rule)
    }
    return valid ? rules : nil
  }

  private static func readRule(_ node: Node) -> Rule? {
    guard let fields = node.object(required: ["name", "source", "when", "port"]) else {
      return nil
    }
    let name = fields["name"]?.text()
    let source = fields["source"]?.text()
    let outcome = fields["port"].flatMap(readOutcome)
    let conditions = fields["when"].flatMap(readConditions)
    guard let name, let source, let outcome, let conditions else { return nil }
    return Rule(name: name, source: source, when: conditions, outcome: outcome)
  }

  private static func readOutcome(_ node: Node) -> Outcome? {
    guard let text = node.text() else { return nil }
    if text == "ignore" { return .ignore }
    if text == "placeholder" { return .placeholder }
    guard let type = PortType(name: text) else {
      node.report(
        "unknown port type '\(text)'; valid: ignore, placeholder, \(PortType.validNames)")
      return nil
    }
    return .port(type)
  }

  private static func readConditions(_ node: Node) -> [Condition]? {
    guard let elements = nonEmptyArray(node, of: "condition ({} matches every device)") else {
      return nil
    }
    let conditions = elements.compactMap(readCondition)
    return conditions.count == elements.count ? conditions : nil
  }

  private static func readCondition(_ node: Node) -> Condition? {
    guard let fields = node.object(required: [], optional: conditionKeys) else { return nil }
    let problemsBefore = node.diagnostics.problems.count
    var condition = Condition()
    if let direction = fields["direction"], let text = direction.text() {
      condition.direction = PortDirection(rawValue: text)
      if condition.direction == nil {
        direction.report("unknown direction '\(text)'; valid: input, output")
      }
    }
    condition.monitor = fields["monitor"]?.bool()
    if let properties = fields["properties"] {
      condition.properties = readPatternsByProperty(properties) ?? [:]
    }
    condition.propertyKeys = fields["propertyKeys"].flatMap(readPatterns) ?? []
    let portTypes: [PulsePortType]? = fields["portTypes"]?.names(
      "PulseAudio port type", allowEmpty: false)
    condition.portTypes = portTypes.map(Set.init)
    condition.portNames = fields["portNames"].flatMap(readPatterns)
    condition.drivers = fields["drivers"].flatMap(readPatterns)
    condition.cards = fields["cards"].flatMap(readPatterns)
    condition.flags = fields["flags"].flatMap(readFlags) ?? []
    return node.diagnostics.problems.count == problemsBefore ? condition : nil
  }

  private static func readPatternsByProperty(_ node: Node) -> [String: [String]]? {
    guard let members = node.members() else { return nil }
    guard !members.isEmpty else {
      node.report("must name at least one property; leave the key out to match any")
      return nil
    }
    var result: [String: [String]] = [:]
    for (key, patterns) in members {
      result[key] = readPatterns(patterns)
    }
    return result.count == members.count ? result : nil
  }

  /// A non-empty list of glob patterns.
  private static func readPatterns(_ node: Node) -> [String]? {
    guard let elements = nonEmptyArray(node, of: "pattern") else { return nil }
    let patterns = elements.compactMap { $0.text() }
    return patterns.count == elements.count ? patterns : nil
  }

  private static func readFlags(_ node: Node) -> PulseDeviceFlags? {
    guard let elements = nonEmptyArray(node, of: "flag") else { return nil }
    var flags: PulseDeviceFlags = []
    var valid = true
    for element in elements {
      guard let text = element.text() else {
        valid = false
        continue
      }
      guard let flag = PulseDeviceFlags(name: text) else {
        let names = PulseDeviceFlags.named.map(\.name).joined(separator: ", ")
        element.report("unknown device flag '\(text)'; valid: \(names)")
        valid = false
        continue
      }
      flags.insert(flag)
    }
    return valid ? flags : nil
  }

  private static func readFallback(_ node: Node) -> Fallback? {
    guard let fields = node.object(required: ["output", "input"]) else { return nil }
    let output: PortType? = fields["output"]?.name("port type")
    let input: PortType? = fields["input"]?.name("port type")
    guard let output, let input else { return nil }
    return Fallback(output: output, input: input)
  }

  private static func nonEmptyArray(_ node: Node, of kind: String) -> [Node]? {
    guard let elements = node.array() else { return nil }
    guard !elements.isEmpty else {
      node.report("must list at least one \(kind)")
      return nil
    }
    return elements
  }
}
