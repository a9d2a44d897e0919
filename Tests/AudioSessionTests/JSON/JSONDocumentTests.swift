import Testing

@testable import AudioSession

/// The JSON reader's document dialect, which reads the policy files (RFC 8259): values, member
/// order, duplicates, and errors with line and column (docs/style.md §3.5: malformed JSON names the file,
/// line and column).
@Suite struct JSONDocumentTests {
  static func parse(
    _ text: String
  ) throws(JSONParser.Failure) -> (value: JSONValue, duplicates: [JSONParser.DuplicateKey]) {
    try JSONParser.parse(Array(text.utf8), options: .document)
  }

  @Test("objects keep member order; every kind of value parses (docs/style.md §3.5, RFC 8259)")
  func parse_document_keepsOrderAndValues() throws {
    let (value, duplicates) = try Self.parse(
      #"{"z": [1, -2.5e1, 0], "a": {"t": true, "f": false, "n": null}, "#
        + #""s": "x\"\\\/\n\u00e9\ud83c\udfb5"}"#
    )
    #expect(duplicates.isEmpty)
    let expected: JSONObject = [
      "z": [1, .double(-25), 0], "a": ["t": true, "f": false, "n": nil], "s": "x\"\\/\né🎵",
    ]
    #expect(value == .object(expected))
  }

  @Test("a leading byte-order mark is skipped; numbers too large for Int read as doubles")
  func parse_byteOrderMarkAndLargeNumber_read() throws {
    let (value, _) = try JSONParser.parse(
      [0xEF, 0xBB, 0xBF] + Array("[99999999999999999999]".utf8), options: .document)
    #expect(value == [.double(1e20)])
  }

  @Test("a repeated key is recorded with its object's key path (docs/style.md §3.5)")
  func parse_duplicateKey_isRecorded() throws {
    let (value, duplicates) = try Self.parse(
      #"{"a": {"b": 1, "b": 2}, "c": [{"d": 0,"# + "\n" + #""d": 0}]}"#)
    #expect(
      duplicates == [
        .init(path: "a.b", key: "b", line: 1), .init(path: "c[0].d", key: "d", line: 2),
      ])
    guard case .object(let root) = value else {
      Issue.record("not an object: \(value)")
      return
    }
    #expect(root["a"] == ["b": 1])
  }

  struct Malformed: Sendable, CustomTestStringConvertible {
    var text: String
    var line: Int
    var column: Int
    var message: String
    var testDescription: String { message }
  }

  static let malformed: [Malformed] = [
    Malformed(text: "", line: 1, column: 1, message: "the text is empty; expected a JSON value"),
    Malformed(text: "{\n  \"a\": 1,\n}", line: 3, column: 1, message: "trailing comma before '}'"),
    Malformed(
      text: "[1 2]", line: 1, column: 4,
      message: "expected ',' or ']' after an array element, found '2'"),
    Malformed(
      text: "{\"a\": tru}", line: 1, column: 7,
      message: "expected a value (object, array, string, number, true, false or null)"),
    Malformed(
      text: "{\"a\": 01}", line: 1, column: 7, message: "numbers may not have leading zeros"),
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
    do {
      _ = try Self.parse(sample.text)
      Issue.record("parsed: \(sample.text)")
    } catch {
      #expect(
        [error.line, error.column] == [sample.line, sample.column]
          && error.message == sample.message,
        "\(error.line):\(error.column): \(error.message)")
    }
  }
}
