/// The package's one JSON reader (RFC 8259), into ``JSONValue``: wire messages, the daemon's
/// state file and the policy files.
///
/// It is written by hand rather than on Yams or Foundation because it must keep object members
/// in order, tell `true` from `1`, see repeated keys, refuse what is not JSON (YAML reads
/// `'x'` and `tru` as strings) and say where it stopped, and because the daemon reads every
/// socket message with it: `sessionctl` and the client library do not load Yams.
///
/// Two dialects (``Options``): ``Options/wire`` refuses fractions and repeated keys and limits
/// nesting to 32 levels; ``Options/document`` (the policy files) reads any number, records
/// repeated keys with their key path so that a file is checked to the end, and skips a leading
/// byte-order mark. Strings must be valid UTF-8. No input traps.
public struct JSONParser {
  /// Why a text is not JSON: what was expected and what was found, and where.
  public struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
    /// 0-based byte offset of the problem.
    public var offset: Int
    /// 1-based line and column (columns count characters, not bytes).
    public var line: Int
    public var column: Int
    public var message: String

    public var description: String { "\(message) at byte \(offset)" }
  }

  /// A key repeated in one object (``Options/document``; the first value is kept).
  public struct DuplicateKey: Sendable, Hashable {
    /// The key path of the repeated member, as the policy loader writes it (`a.b`, `c[0].d`).
    public var path: String
    public var key: String
    public var line: Int
  }

  /// What a reader accepts.
  public struct Options: Sendable {
    /// The deepest nesting of arrays and objects accepted.
    public var maxDepth: Int
    /// Numbers must be integers that fit in `Int` (else any number reads, as `.double` when it
    /// is not such an integer).
    public var integersOnly: Bool
    /// Integers must fit in `Int` even where fractions are accepted (a larger one is an error,
    /// not a `.double`).
    public var integersFit64Bits = false
    /// A repeated key is an error (else it is recorded in ``DuplicateKey``s).
    public var rejectsDuplicateKeys: Bool
    /// A leading UTF-8 byte-order mark is skipped.
    public var skipsByteOrderMark: Bool

    /// The daemon's protocol (docs/protocol.md Framing) and state file.
    /// Fractions read as `.double` (preferred sample rates, buffer durations, input gain).
    public static let wire = Options(
      maxDepth: 32, integersOnly: false, integersFit64Bits: true, rejectsDuplicateKeys: true,
      skipsByteOrderMark: false)
    /// Files people write (policies/).
    public static let document = Options(
      maxDepth: 256, integersOnly: false, rejectsDuplicateKeys: false, skipsByteOrderMark: true)
  }

  private let bytes: [UInt8]
  private let options: Options
  private var index = 0
  private var depth = 0
  /// The key path to the current value, kept only when duplicates are recorded.
  private var path: [PathStep] = []
  private var duplicates: [DuplicateKey] = []

  private enum PathStep {
    case key(String)
    case index(Int)
  }

  private init(_ bytes: [UInt8], _ options: Options) {
    self.bytes = bytes
    self.options = options
  }

  /// Parses one wire-dialect JSON value that fills the whole input (whitespace around allowed).
  public static func parse(_ bytes: [UInt8]) throws(Failure) -> JSONValue {
    try parse(bytes, options: .wire).value
  }

  /// Parses a wire-dialect JSON text.
  public static func parse(_ text: String) throws(Failure) -> JSONValue {
    try parse(Array(text.utf8))
  }

  /// Parses one JSON value that fills the whole input, with the repeated keys it recorded.
  public static func parse(
    _ bytes: [UInt8], options: Options
  ) throws(Failure) -> (value: JSONValue, duplicates: [DuplicateKey]) {
    var parser = JSONParser(bytes, options)
    if options.skipsByteOrderMark, bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.index = 3 }
    parser.skipWhitespace()
    guard parser.current != nil else {
      throw parser.failure("the text is empty; expected a JSON value")
    }
    let value = try parser.value()
    parser.skipWhitespace()
    guard parser.current == nil else {
      throw parser.failure("unexpected \(parser.describeNext()) after the end of the JSON value")
    }
    return (value, parser.duplicates)
  }

  /// The key path `key` of an object at `path` (`a.b`; a top-level key is itself).
  public static func keyPath(_ path: String, _ key: String) -> String {
    path.isEmpty ? key : "\(path).\(key)"
  }

  private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

  private func peek(_ byte: UInt8) -> Bool { current == byte }

  private mutating func skipWhitespace() {
    while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
      index += 1
    }
  }

  private mutating func value() throws(Failure) -> JSONValue {
    guard let byte = current else { throw failure("expected a value, found the end") }
    switch byte {
    case UInt8(ascii: "{"): return .object(try object())
    case UInt8(ascii: "["): return .array(try array())
    case UInt8(ascii: "\""): return .string(try string())
    case UInt8(ascii: "t"): return try literal("true", .bool(true))
    case UInt8(ascii: "f"): return try literal("false", .bool(false))
    case UInt8(ascii: "n"): return try literal("null", .null)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
    default:
      throw failure(
        """
        expected a value (object, array, string, number, true, false or null), found \
        \(describeNext())
        """)
    }
  }

  private mutating func literal(_ word: String, _ value: JSONValue) throws(Failure) -> JSONValue {
    guard bytes[index...].starts(with: word.utf8) else {
      throw failure("expected a value (object, array, string, number, true, false or null)")
    }
    index += word.utf8.count
    return value
  }

  private mutating func enter() throws(Failure) {
    depth += 1
    guard depth <= options.maxDepth else {
      throw failure("nesting deeper than \(options.maxDepth) levels")
    }
    index += 1
    skipWhitespace()
  }

  private mutating func object() throws(Failure) -> JSONObject {
    try enter()
    defer { depth -= 1 }
    var object: JSONObject = [:]
    if peek(UInt8(ascii: "}")) {
      index += 1
      return object
    }
    var keys: Set<String> = []
    while true {
      skipWhitespace()
      guard peek(UInt8(ascii: "\"")) else {
        if peek(UInt8(ascii: "}")) { throw failure("trailing comma before '}'") }
        throw failure("expected a key in double quotes, found \(describeNext())")
      }
      let keyOffset = index
      let key = try string()
      let isNew = keys.insert(key).inserted
      if !isNew, options.rejectsDuplicateKeys {
        throw failure("member '\(key)' appears twice", at: keyOffset)
      }
      skipWhitespace()
      guard peek(UInt8(ascii: ":")) else {
        throw failure("expected ':' after the key \"\(key)\", found \(describeNext())")
      }
      index += 1
      skipWhitespace()
      if !options.rejectsDuplicateKeys { path.append(.key(key)) }
      let member = try value()
      if !options.rejectsDuplicateKeys {
        if !isNew {
          duplicates.append(
            DuplicateKey(path: renderedPath(), key: key, line: position(of: keyOffset).line))
        }
        path.removeLast()
      }
      if isNew { object.appendNew(key, member) }
      skipWhitespace()
      if peek(UInt8(ascii: ",")) {
        index += 1
        continue
      }
      if peek(UInt8(ascii: "}")) {
        index += 1
        return object
      }
      throw failure("expected ',' or '}' after the value of \"\(key)\", found \(describeNext())")
    }
  }

  private mutating func array() throws(Failure) -> [JSONValue] {
    try enter()
    defer { depth -= 1 }
    var values: [JSONValue] = []
    if peek(UInt8(ascii: "]")) {
      index += 1
      return values
    }
    while true {
      skipWhitespace()
      if peek(UInt8(ascii: "]")) { throw failure("trailing comma before ']'") }
      if !options.rejectsDuplicateKeys { path.append(.index(values.count)) }
      values.append(try value())
      if !options.rejectsDuplicateKeys { path.removeLast() }
      skipWhitespace()
      if peek(UInt8(ascii: ",")) {
        index += 1
        continue
      }
      if peek(UInt8(ascii: "]")) {
        index += 1
        return values
      }
      throw failure("expected ',' or ']' after an array element, found \(describeNext())")
    }
  }

  private mutating func number() throws(Failure) -> JSONValue {
    let start = index
    if peek(UInt8(ascii: "-")) { index += 1 }
    let integerStart = index
    guard digits() > 0 else { throw failure("a number needs digits after '-'") }
    if bytes[integerStart] == UInt8(ascii: "0"), index - integerStart > 1 {
      throw failure("numbers may not have leading zeros", at: integerStart)
    }
    var isInteger = true
    if peek(UInt8(ascii: ".")) {
      isInteger = false
      index += 1
      guard digits() > 0 else { throw failure("a number needs digits after '.'") }
    }
    if peek(UInt8(ascii: "e")) || peek(UInt8(ascii: "E")) {
      isInteger = false
      index += 1
      if peek(UInt8(ascii: "+")) || peek(UInt8(ascii: "-")) { index += 1 }
      guard digits() > 0 else { throw failure("a number needs digits in its exponent") }
    }
    let text = String(decoding: bytes[start..<index], as: UTF8.self)
    if isInteger, let value = Int(text) { return .int(value) }
    if isInteger, options.integersFit64Bits {
      throw failure("number too large for a 64-bit integer", at: start)
    }
    guard !options.integersOnly else {
      guard isInteger else { throw failure("numbers in this protocol are integers", at: start) }
      throw failure("number too large for a 64-bit integer", at: start)
    }
    guard let value = Double(text) else { throw failure("invalid number '\(text)'", at: start) }
    return .double(value)
  }

  private mutating func digits() -> Int {
    let start = index
    while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
      index += 1
    }
    return index - start
  }

  private mutating func string() throws(Failure) -> String {
    index += 1
    let start = index
    var runStart = index
    var unescaped: [UInt8]?
    while let byte = current {
      switch byte {
      case UInt8(ascii: "\""):
        let run = bytes[runStart..<index]
        index += 1
        // Without escapes the bytes are read in place.
        let text =
          if let unescaped { String(validating: unescaped + run, as: UTF8.self) } else {
            String(validating: run, as: UTF8.self)
          }
        guard let text else { throw failure("a string is not valid UTF-8", at: start) }
        return text
      case UInt8(ascii: "\\"):
        var prefix = unescaped ?? []
        prefix += bytes[runStart..<index]
        index += 1
        prefix += String(try escape()).utf8
        unescaped = prefix
        runStart = index
      case 0x00..<0x20:
        throw failure("control character in a string; write it as an escape such as \\n")
      default:
        index += 1
      }
    }
    throw failure("unterminated string; expected a closing '\"'")
  }

  private mutating func escape() throws(Failure) -> Unicode.Scalar {
    guard let byte = current else { throw failure("unterminated escape sequence") }
    index += 1
    switch byte {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): return Unicode.Scalar(byte)
    case UInt8(ascii: "b"): return "\u{08}"
    case UInt8(ascii: "f"): return "\u{0C}"
    case UInt8(ascii: "n"): return "\n"
    case UInt8(ascii: "r"): return "\r"
    case UInt8(ascii: "t"): return "\t"
    case UInt8(ascii: "u"):
      let high = try hex4()
      if (0xD800..<0xDC00).contains(high) {
        guard bytes[index...].starts(with: [UInt8(ascii: "\\"), UInt8(ascii: "u")]) else {
          throw failure("a high surrogate must be followed by a low one")
        }
        index += 2
        let low = try hex4()
        guard (0xDC00..<0xE000).contains(low),
          let scalar = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
        else { throw failure("a high surrogate must be followed by a low one") }
        return scalar
      }
      guard let scalar = Unicode.Scalar(high) else {
        throw failure("a lone low surrogate is not a character")
      }
      return scalar
    default:
      throw failure("invalid escape '\\\(Character(Unicode.Scalar(byte)))'", at: index - 1)
    }
  }

  private mutating func hex4() throws(Failure) -> UInt32 {
    var value: UInt32 = 0
    for _ in 0..<4 {
      guard let byte = current, let digit = Character(Unicode.Scalar(byte)).hexDigitValue else {
        throw failure("expected 4 hex digits after \\u")
      }
      value = value << 4 | UInt32(digit)
      index += 1
    }
    return value
  }

  private func describeNext() -> String {
    guard let byte = current else { return "end of file" }
    if byte < 0x80, byte >= 0x20 { return "'\(Character(Unicode.Scalar(byte)))'" }
    return "byte 0x\(String(byte, radix: 16))"
  }

  private func renderedPath() -> String {
    var text = ""
    for step in path {
      switch step {
      case .key(let key): text = Self.keyPath(text, key)
      case .index(let index): text += "[\(index)]"
      }
    }
    return text
  }

  /// The 1-based line and column of a byte offset.
  private func position(of offset: Int) -> (line: Int, column: Int) {
    var line = 1
    var column = 1
    for byte in bytes[..<min(offset, bytes.count)] {
      if byte == UInt8(ascii: "\n") {
        line += 1
        column = 1
      } else if byte & 0xC0 != 0x80 {
        column += 1
      }
    }
    return (line, column)
  }

  private func failure(_ message: String, at offset: Int? = nil) -> Failure {
    let offset = offset ?? index
    let (line, column) = position(of: offset)
    return Failure(offset: offset, line: line, column: column, message: message)
  }
}
