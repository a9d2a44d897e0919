import Testing

@testable import AudioSession

/// The policy files' JSON reader (RFC 8259): values, member order, duplicates, and errors with
/// line and column (docs/style.md §3.5: malformed JSON names the file, line and column).
@Suite struct PolicyJSONParserTests {
  typealias Parser = PolicyLoader.JSONParser
  typealias Value = PolicyLoader.JSONValue

  @Test("objects keep member order; every kind of value parses (docs/style.md §3.5, RFC 8259)")
  func parse_document_keepsOrderAndValues() throws {
    let (value, duplicates) = try Parser.parse(
      #"{"z": [1, -2.5e1, 0], "a": {"t": true, "f": false, "n": null}, "#
        + #""s": "x\"\\\/\n\u00e9\ud83c\udfb5"}"#
    )
    #expect(duplicates.isEmpty)
    #expect(
      value
        == .object([
          .init(key: "z", value: .array([.number(1), .number(-25), .number(0)])),
          .init(
            key: "a",
            value: .object([
              .init(key: "t", value: .bool(true)), .init(key: "f", value: .bool(false)),
              .init(key: "n", value: .null),
            ])),
          .init(key: "s", value: .string("x\"\\/\né🎵")),
        ]))
  }

  @Test("a repeated key is recorded with its object's key path (docs/style.md §3.5)")
  func parse_duplicateKey_isRecorded() throws {
    let (value, duplicates) = try Parser.parse(#"{"a": {"b": 1, "b": 2}, "c": [{"d": 0, "d": 0}]}"#)
    #expect(
      duplicates == [.init(objectPath: "a", key: "b"), .init(objectPath: "c[0]", key: "d")])
    guard case .object(let members) = value, case .object(let inner) = members[0].value else {
      Issue.record("not an object: \(value)")
      return
    }
    #expect(inner == [.init(key: "b", value: .number(1))])
  }

  struct Malformed: Sendable, CustomTestStringConvertible {
    var text: String
    var line: Int
    var column: Int
    var message: String
    var testDescription: String { message }
  }

  static let malformed: [Malformed] = [
    Malformed(text: "", line: 1, column: 1, message: "the file is empty; expected a JSON object"),
    Malformed(text: "{\n  \"a\": 1,\n}", line: 3, column: 1, message: "trailing comma before '}'"),
    Malformed(
      text: "[1 2]", line: 1, column: 4,
      message: "expected ',' or ']' after an array element, found '2'"),
    Malformed(
      text: "{\"a\": tru}", line: 1, column: 7,
      message: "expected a value (object, array, string, number, true, false or null)"),
    Malformed(
      text: "{\"a\": 01}", line: 1, column: 8,
      message: "expected ',' or '}' after the value of \"a\", found '1'"),
    Malformed(
      text: "{\"a\": \"x\ty\"}", line: 1, column: 9,
      message: "control character in a string; write it as an escape such as \\n"),
    Malformed(
      text: "{\"a\": \"x", line: 1, column: 9,
      message: "unterminated string; expected a closing '\"'"),
    Malformed(
      text: "{} {}", line: 1, column: 4, message: "unexpected '{' after the end of the JSON value"),
    Malformed(
      text: "{\"é\": 'x'}", line: 1, column: 7,
      message: "expected a value (object, array, string, number, true, false or null), found '''"),
  ]

  @Test("malformed JSON stops with a line and a column (docs/style.md §3.5)", arguments: malformed)
  func parse_malformed_reportsPosition(sample: Malformed) {
    #expect(
      throws: PolicyLoader.JSONSyntaxError(
        line: sample.line, column: sample.column, message: sample.message)
    ) {
      try Parser.parse(sample.text)
    }
  }
}
