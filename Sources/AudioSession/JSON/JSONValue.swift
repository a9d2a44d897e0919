/// The package's one JSON value: what ``JSONParser`` reads (wire messages, the state file, the
/// policy files) and what the transcript, the wire and `policy show --json` write. Object keys
/// stay in the order they were written, and the same value always serialises to the same bytes.
///
/// Foundation's `JSONEncoder` sorts or shuffles keys depending on options and platform; the
/// transcript contract fixes the key order, so it is written by hand.
public enum JSONValue: Sendable, Hashable {
  case null
  case bool(Bool)
  case int(Int)
  /// A number with a fraction or exponent, or too large for `Int` (policy files only: the wire
  /// reads integers).
  case double(Double)
  case string(String)
  case array([JSONValue])
  case object(JSONObject)

  /// The compact serialisation (no spaces, no newline).
  public var serialized: String {
    var output = ""
    write(to: &output)
    return output
  }

  /// Two-space indented text for people (`policy show --json`): empty arrays and objects and
  /// arrays of scalars stay on one line.
  public var prettyPrinted: String {
    var output = ""
    writePretty(to: &output, indent: "")
    return output
  }

  func write(to output: inout String) {
    switch self {
    case .array(let values):
      output += "["
      for (index, value) in values.enumerated() {
        if index > 0 { output += "," }
        value.write(to: &output)
      }
      output += "]"
    case .object(let object): object.write(to: &output)
    default: writeScalar(to: &output)
    }
  }

  private func writePretty(to output: inout String, indent: String) {
    let inner = indent + "  "
    switch self {
    case .object(let object) where !object.members.isEmpty:
      output += "{\n"
      for (index, member) in object.members.enumerated() {
        if index > 0 { output += ",\n" }
        output += inner
        Self.writeString(member.key, to: &output)
        output += ": "
        member.value.writePretty(to: &output, indent: inner)
      }
      output += "\n\(indent)}"
    case .array(let values) where !values.allSatisfy(\.isScalar):
      output += "[\n"
      for (index, value) in values.enumerated() {
        if index > 0 { output += ",\n" }
        output += inner
        value.writePretty(to: &output, indent: inner)
      }
      output += "\n\(indent)]"
    case .array(let values):
      output += "["
      for (index, value) in values.enumerated() {
        if index > 0 { output += ", " }
        value.writeScalar(to: &output)
      }
      output += "]"
    default: write(to: &output)
    }
  }

  private var isScalar: Bool {
    switch self {
    case .array, .object: false
    default: true
    }
  }

  private func writeScalar(to output: inout String) {
    switch self {
    case .null: output += "null"
    case .bool(let value): output += value ? "true" : "false"
    case .int(let value): output += String(value)
    case .double(let value): output += value.isFinite ? String(value) : "null"
    case .string(let value): Self.writeString(value, to: &output)
    case .array, .object: write(to: &output)
    }
  }

  /// Writes a JSON string: `"` and `\` escaped, control characters as `\n`-style or `\u00XX`
  /// escapes, everything else (including non-ASCII) as UTF-8.
  package static func writeString(_ value: String, to output: inout String) {
    output += "\""
    for scalar in value.unicodeScalars {
      switch scalar {
      case "\"": output += "\\\""
      case "\\": output += "\\\\"
      case "\n": output += "\\n"
      case "\r": output += "\\r"
      case "\t": output += "\\t"
      case "\u{08}": output += "\\b"
      case "\u{0C}": output += "\\f"
      case "\u{00}"..."\u{1F}":
        let hex = String(scalar.value, radix: 16)
        output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: output.unicodeScalars.append(scalar)
      }
    }
    output += "\""
  }
}

/// A JSON object whose members keep their insertion order. A dictionary literal keeps the
/// order it is written in: `["step": 1, "command": "status"]`.
public struct JSONObject: Sendable, Hashable, ExpressibleByDictionaryLiteral {
  /// One `"key":value` pair.
  public struct Member: Sendable, Hashable {
    public var key: String
    public var value: JSONValue

    public init(key: String, value: JSONValue) {
      self.key = key
      self.value = value
    }
  }

  /// The members, in the order they were written.
  public private(set) var members: [Member]

  public init(dictionaryLiteral elements: (String, JSONValue)...) {
    self.init(elements)
  }

  /// An object with these members, in this order.
  ///
  /// - Precondition: no key appears twice.
  public init(_ elements: [(String, JSONValue)]) {
    members = []
    for (key, value) in elements { append(key, value) }
  }

  /// Adds a member at the end.
  ///
  /// - Precondition: no member has this key yet.
  public mutating func append(_ key: String, _ value: JSONValue) {
    precondition(!members.contains { $0.key == key }, "duplicate JSON key '\(key)'")
    members.append(Member(key: key, value: value))
  }

  /// Adds a member the caller has checked is new (the parser keeps a set of the keys it read).
  mutating func appendNew(_ key: String, _ value: JSONValue) {
    members.append(Member(key: key, value: value))
  }

  /// The value of the member with this key, if any.
  public subscript(key: String) -> JSONValue? {
    members.first { $0.key == key }?.value
  }

  /// The compact serialisation.
  public var serialized: String { JSONValue.object(self).serialized }

  func write(to output: inout String) {
    output += "{"
    for (index, member) in members.enumerated() {
      if index > 0 { output += "," }
      JSONValue.writeString(member.key, to: &output)
      output += ":"
      member.value.write(to: &output)
    }
    output += "}"
  }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
  ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByNilLiteral,
  ExpressibleByDictionaryLiteral
{
  public init(stringLiteral value: String) { self = .string(value) }
  public init(integerLiteral value: Int) { self = .int(value) }
  public init(booleanLiteral value: Bool) { self = .bool(value) }
  public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
  public init(nilLiteral: ()) { self = .null }
  public init(dictionaryLiteral elements: (String, JSONValue)...) {
    var object: JSONObject = [:]
    for (key, value) in elements { object.append(key, value) }
    self = .object(object)
  }
}

extension JSONValue {
  /// An array of strings.
  public static func strings(_ values: [String]) -> JSONValue {
    .array(values.map(JSONValue.string))
  }
}
