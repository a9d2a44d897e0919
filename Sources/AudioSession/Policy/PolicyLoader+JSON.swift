// A small JSON reader for the policy files. It exists instead of JSONSerialization because the
// loader must (1) keep object members in file order (profiles and presets are listed in that
// order), (2) tell `true` from `1` on every platform, (3) see duplicate keys, which
// JSONSerialization silently collapses, and (4) report syntax errors with a line and column.

extension PolicyLoader {
  /// A parsed JSON value. Objects keep their members in file order.
  indirect enum JSONValue: Sendable, Equatable {
    case object([JSONMember])
    case array([JSONValue])
    case string(String)
    case number(Double)
    case bool(Bool)
    case null

    /// How the value is named in a "found …" message.
    var kindName: String {
      switch self {
      case .object: "an object"
      case .array: "an array"
      case .string(let text): "the string \"\(text)\""
      case .number(let value): "the number \(JSONValue.format(value))"
      case .bool(let value): "\(value)"
      case .null: "null"
      }
    }

    private static func format(_ value: Double) -> String {
      if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
      return String(value)
    }
  }

  /// One `"key": value` member of a JSON object.
  struct JSONMember: Sendable, Equatable {
    var key: String
    var value: JSONValue
  }

  /// A syntax error with the 1-based line and column where reading stopped.
  struct JSONSyntaxError: Error, Sendable, Equatable {
    var line: Int
    var column: Int
    var message: String
  }

  /// A key that appears twice in one object, with the key path of that object.
  struct JSONDuplicateKey: Sendable, Equatable {
    var objectPath: String
    var key: String
  }

  /// Recursive-descent parser over UTF-8 bytes (RFC 8259, plus a leading byte-order mark).
  struct JSONParser {
    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0
    private(set) var duplicates: [JSONDuplicateKey] = []

    private static let maximumDepth = 256

    /// Parses one JSON document; duplicate keys are recorded (the first occurrence is kept).
    static func parse(
      _ text: String
    ) throws(JSONSyntaxError) -> (value: JSONValue, duplicates: [JSONDuplicateKey]) {
      var parser = JSONParser(bytes: Array(text.utf8))
      let value = try parser.document()
      return (value, parser.duplicates)
    }

    private init(bytes: [UInt8]) {
      self.bytes = bytes
    }

    private mutating func document() throws(JSONSyntaxError) -> JSONValue {
      if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
      skipWhitespace()
      guard index < bytes.count else {
        throw error("the file is empty; expected a JSON object")
      }
      let value = try self.value(path: "")
      skipWhitespace()
      guard index == bytes.count else {
        throw error("unexpected \(describeNext()) after the end of the JSON value")
      }
      return value
    }

    private mutating func value(path: String) throws(JSONSyntaxError) -> JSONValue {
      guard index < bytes.count else { throw error("unexpected end of file; expected a value") }
      switch bytes[index] {
      case UInt8(ascii: "{"): return try object(path: path)
      case UInt8(ascii: "["): return try array(path: path)
      case UInt8(ascii: "\""): return .string(try string())
      case UInt8(ascii: "t"): return try literal("true", .bool(true))
      case UInt8(ascii: "f"): return try literal("false", .bool(false))
      case UInt8(ascii: "n"): return try literal("null", .null)
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
      default:
        throw error(
          """
          expected a value (object, array, string, number, true, false or null), found \
          \(describeNext())
          """
        )
      }
    }

    private mutating func object(path: String) throws(JSONSyntaxError) -> JSONValue {
      try enter()
      index += 1
      var members: [JSONMember] = []
      var seen: Set<String> = []
      skipWhitespace()
      if peek(UInt8(ascii: "}")) {
        index += 1
        depth -= 1
        return .object([])
      }
      while true {
        skipWhitespace()
        guard peek(UInt8(ascii: "\"")) else {
          if peek(UInt8(ascii: "}")) { throw error("trailing comma before '}'") }
          throw error("expected a key in double quotes, found \(describeNext())")
        }
        let key = try string()
        skipWhitespace()
        guard peek(UInt8(ascii: ":")) else {
          throw error("expected ':' after the key \"\(key)\", found \(describeNext())")
        }
        index += 1
        skipWhitespace()
        let member = try value(path: Self.child(path, key))
        if seen.insert(key).inserted {
          members.append(JSONMember(key: key, value: member))
        } else {
          duplicates.append(JSONDuplicateKey(objectPath: path, key: key))
        }
        skipWhitespace()
        if peek(UInt8(ascii: ",")) {
          index += 1
          continue
        }
        if peek(UInt8(ascii: "}")) {
          index += 1
          depth -= 1
          return .object(members)
        }
        throw error("expected ',' or '}' after the value of \"\(key)\", found \(describeNext())")
      }
    }

    private mutating func array(path: String) throws(JSONSyntaxError) -> JSONValue {
      try enter()
      index += 1
      var elements: [JSONValue] = []
      skipWhitespace()
      if peek(UInt8(ascii: "]")) {
        index += 1
        depth -= 1
        return .array([])
      }
      while true {
        skipWhitespace()
        if peek(UInt8(ascii: "]")) { throw error("trailing comma before ']'") }
        elements.append(try value(path: "\(path)[\(elements.count)]"))
        skipWhitespace()
        if peek(UInt8(ascii: ",")) {
          index += 1
          continue
        }
        if peek(UInt8(ascii: "]")) {
          index += 1
          depth -= 1
          return .array(elements)
        }
        throw error("expected ',' or ']' after an array element, found \(describeNext())")
      }
    }

    private mutating func string() throws(JSONSyntaxError) -> String {
      index += 1
      var utf8: [UInt8] = []
      while index < bytes.count {
        let byte = bytes[index]
        switch byte {
        case UInt8(ascii: "\""):
          index += 1
          return String(decoding: utf8, as: UTF8.self)
        case UInt8(ascii: "\\"):
          index += 1
          try escape(into: &utf8)
        case 0..<0x20:
          throw error("control character in a string; write it as an escape such as \\n")
        default:
          utf8.append(byte)
          index += 1
        }
      }
      throw error("unterminated string; expected a closing '\"'")
    }

    private mutating func escape(into utf8: inout [UInt8]) throws(JSONSyntaxError) {
      guard index < bytes.count else { throw error("unterminated escape sequence") }
      let byte = bytes[index]
      index += 1
      let simple: [UInt8: UInt8] = [
        UInt8(ascii: "\""): 0x22, UInt8(ascii: "\\"): 0x5C, UInt8(ascii: "/"): 0x2F,
        UInt8(ascii: "b"): 0x08, UInt8(ascii: "f"): 0x0C, UInt8(ascii: "n"): 0x0A,
        UInt8(ascii: "r"): 0x0D, UInt8(ascii: "t"): 0x09,
      ]
      if let replacement = simple[byte] {
        utf8.append(replacement)
        return
      }
      guard byte == UInt8(ascii: "u") else {
        index -= 1
        throw error("invalid escape '\\\(Character(Unicode.Scalar(byte)))'")
      }
      var scalar = try hex4()
      if (0xD800...0xDBFF).contains(scalar) {
        guard bytes[index...].starts(with: [UInt8(ascii: "\\"), UInt8(ascii: "u")]) else {
          throw error("a high surrogate \\u escape must be followed by a low surrogate")
        }
        index += 2
        let low = try hex4()
        guard (0xDC00...0xDFFF).contains(low) else { throw error("invalid low surrogate") }
        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
      }
      guard let unicode = Unicode.Scalar(scalar) else {
        throw error("\\u escape is not a Unicode scalar")
      }
      utf8.append(contentsOf: Array(String(Character(unicode)).utf8))
    }

    private mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
      guard index + 4 <= bytes.count else { throw error("\\u needs four hex digits") }
      var value: UInt32 = 0
      for byte in bytes[index..<index + 4] {
        guard let digit = UInt32(String(Unicode.Scalar(byte)), radix: 16) else {
          throw error("\\u needs four hex digits")
        }
        value = value * 16 + digit
      }
      index += 4
      return value
    }

    private mutating func number() throws(JSONSyntaxError) -> JSONValue {
      let start = index
      if peek(UInt8(ascii: "-")) { index += 1 }
      if peek(UInt8(ascii: "0")) {
        index += 1
      } else if digits() == 0 {
        throw error("a number needs digits after '-'")
      }
      if peek(UInt8(ascii: ".")) {
        index += 1
        guard digits() > 0 else { throw error("a number needs digits after '.'") }
      }
      if peek(UInt8(ascii: "e")) || peek(UInt8(ascii: "E")) {
        index += 1
        if peek(UInt8(ascii: "+")) || peek(UInt8(ascii: "-")) { index += 1 }
        guard digits() > 0 else { throw error("a number needs digits in its exponent") }
      }
      let text = String(decoding: bytes[start..<index], as: UTF8.self)
      guard let value = Double(text) else { throw error("invalid number '\(text)'") }
      return .number(value)
    }

    private mutating func digits() -> Int {
      let start = index
      while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
        index += 1
      }
      return index - start
    }

    private mutating func literal(
      _ word: String, _ value: JSONValue
    ) throws(JSONSyntaxError) -> JSONValue {
      guard bytes[index...].starts(with: Array(word.utf8)) else {
        throw error("expected a value (object, array, string, number, true, false or null)")
      }
      index += word.utf8.count
      return value
    }

    private mutating func enter() throws(JSONSyntaxError) {
      depth += 1
      guard depth <= Self.maximumDepth else {
        throw error("nesting deeper than \(Self.maximumDepth) levels")
      }
    }

    private mutating func skipWhitespace() {
      while index < bytes.count,
        [UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r")]
          .contains(bytes[index])
      {
        index += 1
      }
    }

    private func peek(_ byte: UInt8) -> Bool {
      index < bytes.count && bytes[index] == byte
    }

    private func describeNext() -> String {
      guard index < bytes.count else { return "end of file" }
      let byte = bytes[index]
      if byte < 0x80, byte >= 0x20 { return "'\(Character(Unicode.Scalar(byte)))'" }
      return "byte 0x\(String(byte, radix: 16))"
    }

    /// An error at the current position, with a 1-based line and column (columns count
    /// characters, not bytes).
    private func error(_ message: String) -> JSONSyntaxError {
      var line = 1
      var column = 1
      for byte in bytes[..<min(index, bytes.count)] {
        if byte == UInt8(ascii: "\n") {
          line += 1
          column = 1
        } else if byte & 0xC0 != 0x80 {
          column += 1
        }
      }
      return JSONSyntaxError(line: line, column: column, message: message)
    }

    static func child(_ path: String, _ key: String) -> String {
      path.isEmpty ? key : "\(path).\(key)"
    }
  }
}
