import AudioSession
import PropertyBased
import Testing

/// The strict JSON reader of the wire protocol (docs/protocol.md Framing; docs/contract.md "Bad
/// input": no input crashes the daemon).
@Suite struct JSONParserTests {
  static func parse(_ text: String) -> JSONValue? { try? JSONParser.parse(text) }

  static func failure(_ text: String) -> String? {
    do {
      _ = try JSONParser.parse(text)
      return nil
    } catch {
      return error.message
    }
  }

  @Test("objects keep their member order; every value kind reads (RFC 8259)")
  func parse_everyKind_keepsOrder() throws {
    let value = Self.parse(#" {"b":[1,-2,true,false,null],"a":{"x":"y"},"c":""} "#)
    let object: JSONObject = [
      "b": [1, -2, true, false, nil], "a": ["x": "y"], "c": "",
    ]
    #expect(value == .object(object))
    #expect(value?.serialized == #"{"b":[1,-2,true,false,null],"a":{"x":"y"},"c":""}"#)
  }

  @Test("escapes, including surrogate pairs, decode to their characters (RFC 8259 §7)")
  func parse_escapes_decode() {
    #expect(Self.parse(#""a\"\\\/\b\f\n\r\t\u00e9\ud83c\udfa7""#) == "a\"\\/\u{8}\u{C}\n\r\té🎧")
    #expect(Self.parse("\"ünïcode ✓\"") == "ünïcode ✓")
  }

  @Test("what the protocol does not accept is refused with a reason (docs/protocol.md Framing)")
  func parse_rejectedInput_saysWhy() {
    #expect(Self.failure(#"{"a":1,"a":2}"#) == "member 'a' appears twice")
    // Fractions read as doubles (a preferred buffer duration, an input gain); integers must
    // still fit in 64 bits.
    #expect(Self.parse("1.5") == .double(1.5))
    #expect(Self.parse("1e3") == .double(1000))
    #expect(Self.failure("01") == "numbers may not have leading zeros")
    #expect(Self.failure("99999999999999999999") == "number too large for a 64-bit integer")
    #expect(
      Self.failure("\"a\u{1}\"")
        == "control character in a string; write it as an escape such as \\n")
    #expect(Self.failure(#""\ud83c""#) == "a high surrogate must be followed by a low one")
    #expect(Self.failure("[1] x") == "unexpected 'x' after the end of the JSON value")
    #expect(Self.failure("") == "the text is empty; expected a JSON value")
    #expect(Self.failure("[1,") == "expected a value, found the end")
    #expect(Self.failure(#"{"a" 1}"#) == #"expected ':' after the key "a", found '1'"#)
  }

  @Test("invalid UTF-8 in a string is refused (RFC 8259 §8.1)")
  func parse_invalidUTF8_isRefused() {
    let bytes: [UInt8] = [0x22, 0xC3, 0x28, 0x22]
    #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(bytes) }
  }

  @Test("nesting deeper than the limit is refused, not a stack overflow (docs/protocol.md Framing)")
  func parse_deepNesting_isRefused() {
    let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
    #expect(Self.failure(deep) == "nesting deeper than 32 levels")
    let allowed = String(repeating: "[", count: 32) + String(repeating: "]", count: 32)
    #expect(Self.parse(allowed) != nil)
  }

  static let strings = ["", "a", "é", "🎧", "\"", "\\", "\n", "\u{1}", "key"]

  @Test("what the transcript writer writes, the reader reads back equal (RFC 8259)")
  func parse_serialized_roundTrips() async {
    let scalar = zip(
      Gen<Int>.int(in: 0...3), Gen<Int>.int(), Gen<String?>.element(of: Self.strings)
    ).map { kind, number, text -> JSONValue in
      switch kind {
      case 0: .int(number)
      case 1: .string(text ?? "")
      case 2: .bool(number % 2 == 0)
      default: .null
      }
    }
    let member = zip(Gen<String?>.element(of: Self.strings).compactMap { $0 }, scalar)
    await propertyCheck(count: 300, input: member.array(of: 0...6), scalar.array(of: 0...4)) {
      members, items in
      var object: JSONObject = [:]
      for (key, value) in members where object[key] == nil { object.append(key, value) }
      object.append("list", .array(items))
      let value = JSONValue.object(object)
      #expect(Self.parse(value.serialized) == value)
    }
  }

  @Test("arbitrary bytes never trap the reader (docs/contract.md Bad input)")
  func parse_randomBytes_returnsOrThrows() async {
    let alphabet = Array(#"{}[]":,-0123456789.eEtrufalsn \u\"#.utf8) + [0x00, 0xC3, 0xFF, 0x0A]
    await propertyCheck(
      count: 2000, input: Gen<UInt8?>.element(of: alphabet).compactMap { $0 }.array(of: 0...40)
    ) { bytes in
      _ = try? JSONParser.parse(bytes)
    }
  }
}
