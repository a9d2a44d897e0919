/// A strict JSON reader for the daemon's wire protocol (RFC 8259), into ``JSONValue``.
///
/// It accepts only what the protocol needs and rejects the rest with a sentence: numbers must be
/// integers that fit in `Int`, objects may not repeat a key, strings must be valid UTF-8, and
/// nesting is limited (``maxDepth``) so that no input can exhaust the stack. It never traps.
public struct JSONParser {
  /// Why a text is not JSON the protocol accepts: what was expected, and at which byte.
  public struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
    /// 0-based byte offset of the problem.
    public var offset: Int
    public var message: String

    public var description: String { "\(message) at byte \(offset)" }
  }

  /// The deepest nesting of arrays and objects accepted.
  public static let maxDepth = 32

  private let bytes: [UInt8]
  private var index = 0

  private init(_ bytes: [UInt8]) { self.bytes = bytes }

  /// Parses one JSON value that fills the whole input (surrounding whitespace allowed).
  public static func parse(_ bytes: [UInt8]) throws(Failure) -> JSONValue {
    var parser = JSONParser(bytes)
    parser.skipWhitespace()
    let value = try parser.value(depth: 0)
    parser.skipWhitespace()
    guard parser.index == bytes.count else {
      throw parser.failure("unexpected text after the JSON value")
    }
    return value
  }

  /// Parses a JSON text.
  public static func parse(_ text: String) throws(Failure) -> JSONValue {
    try parse(Array(text.utf8))
  }

  private func failure(_ message: String) -> Failure {
    Failure(offset: index, message: message)
  }

  private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

  private mutating func skipWhitespace() {
    while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
      index += 1
    }
  }

  private mutating func value(depth: Int) throws(Failure) -> JSONValue {
    guard let byte = current else { throw failure("expected a value, found the end") }
    switch byte {
    case UInt8(ascii: "{"): return .object(try object(depth: depth + 1))
    case UInt8(ascii: "["): return .array(try array(depth: depth + 1))
    case UInt8(ascii: "\""): return .string(try string())
    case UInt8(ascii: "t"): return try literal("true", .bool(true))
    case UInt8(ascii: "f"): return try literal("false", .bool(false))
    case UInt8(ascii: "n"): return try literal("null", .null)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .int(try number())
    default: throw failure("expected a value (object, array, string, number, true, false, null)")
    }
  }

  private mutating func literal(_ word: String, _ value: JSONValue) throws(Failure) -> JSONValue {
    for expected in word.utf8 {
      guard current == expected else { throw failure("expected '\(word)'") }
      index += 1
    }
    return value
  }

  private mutating func object(depth: Int) throws(Failure) -> JSONObject {
    guard depth <= Self.maxDepth else {
      throw failure("nesting deeper than \(Self.maxDepth) levels")
    }
    index += 1
    var object: JSONObject = [:]
    var keys: Set<String> = []
    skipWhitespace()
    if current == UInt8(ascii: "}") {
      index += 1
      return object
    }
    while true {
      skipWhitespace()
      guard current == UInt8(ascii: "\"") else { throw failure("expected a member name string") }
      let keyOffset = index
      let key = try string()
      guard keys.insert(key).inserted else {
        throw Failure(offset: keyOffset, message: "member '\(key)' appears twice")
      }
      skipWhitespace()
      guard current == UInt8(ascii: ":") else { throw failure("expected ':' after a member name") }
      index += 1
      skipWhitespace()
      object.append(key, try value(depth: depth))
      skipWhitespace()
      switch current {
      case UInt8(ascii: ","): index += 1
      case UInt8(ascii: "}"):
        index += 1
        return object
      default: throw failure("expected ',' or '}' in an object")
      }
    }
  }

  private mutating func array(depth: Int) throws(Failure) -> [JSONValue] {
    guard depth <= Self.maxDepth else {
      throw failure("nesting deeper than \(Self.maxDepth) levels")
    }
    index += 1
    var values: [JSONValue] = []
    skipWhitespace()
    if current == UInt8(ascii: "]") {
      index += 1
      return values
    }
    while true {
      skipWhitespace()
      values.append(try value(depth: depth))
      skipWhitespace()
      switch current {
      case UInt8(ascii: ","): index += 1
      case UInt8(ascii: "]"):
        index += 1
        return values
      default: throw failure("expected ',' or ']' in an array")
      }
    }
  }

  private mutating func number() throws(Failure) -> Int {
    let start = index
    var negative = false
    if current == UInt8(ascii: "-") {
      negative = true
      index += 1
    }
    guard let first = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else {
      throw failure("expected a digit")
    }
    if first == UInt8(ascii: "0"), index + 1 < bytes.count,
      (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index + 1])
    {
      throw failure("numbers may not have leading zeros")
    }
    var magnitude = 0
    while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
      let digit = Int(byte - UInt8(ascii: "0"))
      let (times, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
      let (sum, overflow2) = times.addingReportingOverflow(digit)
      guard !overflow1, !overflow2 else {
        throw Failure(offset: start, message: "number too large for a 64-bit integer")
      }
      magnitude = sum
      index += 1
    }
    if let byte = current,
      byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
    {
      throw Failure(offset: start, message: "numbers in this protocol are integers")
    }
    return negative ? -magnitude : magnitude
  }

  private mutating func string() throws(Failure) -> String {
    index += 1
    var scalars = String.UnicodeScalarView()
    var runStart = index
    while true {
      guard let byte = current else { throw failure("unterminated string") }
      switch byte {
      case UInt8(ascii: "\""):
        try appendRun(from: runStart, to: &scalars)
        index += 1
        return String(scalars)
      case UInt8(ascii: "\\"):
        try appendRun(from: runStart, to: &scalars)
        index += 1
        scalars.append(try escape())
        runStart = index
      case 0x00..<0x20:
        throw failure("control character in a string (escape it)")
      default:
        index += 1
      }
    }
  }

  /// Appends the unescaped bytes `runStart..<index`, which must be valid UTF-8.
  private func appendRun(
    from runStart: Int, to scalars: inout String.UnicodeScalarView
  ) throws(Failure) {
    guard runStart < index else { return }
    guard let text = String(validating: bytes[runStart..<index], as: UTF8.self) else {
      throw Failure(offset: runStart, message: "a string is not valid UTF-8")
    }
    scalars.append(contentsOf: text.unicodeScalars)
  }

  private mutating func escape() throws(Failure) -> Unicode.Scalar {
    guard let byte = current else { throw failure("unterminated escape") }
    index += 1
    switch byte {
    case UInt8(ascii: "\""): return "\""
    case UInt8(ascii: "\\"): return "\\"
    case UInt8(ascii: "/"): return "/"
    case UInt8(ascii: "b"): return "\u{08}"
    case UInt8(ascii: "f"): return "\u{0C}"
    case UInt8(ascii: "n"): return "\n"
    case UInt8(ascii: "r"): return "\r"
    case UInt8(ascii: "t"): return "\t"
    case UInt8(ascii: "u"):
      let high = try hex4()
      if (0xD800..<0xDC00).contains(high) {
        guard current == UInt8(ascii: "\\"), index + 1 < bytes.count,
          bytes[index + 1] == UInt8(ascii: "u")
        else { throw failure("a high surrogate must be followed by a low one") }
        index += 2
        let low = try hex4()
        guard (0xDC00..<0xE000).contains(low) else {
          throw failure("a high surrogate must be followed by a low one")
        }
        let value = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
        guard let scalar = Unicode.Scalar(value) else { throw failure("invalid escape") }
        return scalar
      }
      guard let scalar = Unicode.Scalar(high) else {
        throw failure("a lone low surrogate is not a character")
      }
      return scalar
    default:
      throw failure("invalid escape '\\\(Character(Unicode.Scalar(byte)))'")
    }
  }

  private mutating func hex4() throws(Failure) -> UInt32 {
    var value: UInt32 = 0
    for _ in 0..<4 {
      guard let byte = current else { throw failure("expected 4 hex digits after \\u") }
      let digit: UInt32
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
      default: throw failure("expected 4 hex digits after \\u")
      }
      value = value << 4 | digit
      index += 1
    }
    return value
  }
}
