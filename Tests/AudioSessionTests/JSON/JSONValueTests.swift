import AudioSession
import Foundation
import PropertyBased
import Testing

// docs/contract.md "The transcript": one JSON object per line, byte-identical on every run; strings
// escaped as RFC 8259 §7 requires.
@Suite struct JSONValueTests {
  @Test("object keys keep the order they were written in (docs/contract.md The transcript)")
  func serialized_object_keepsKeyOrder() {
    let object: JSONObject = ["step": 1, "command": "x", "result": "ok", "a": [true, false, nil]]
    #expect(object.serialized == #"{"step":1,"command":"x","result":"ok","a":[true,false,null]}"#)
  }

  @Test("appending keeps order and nests objects (docs/contract.md The transcript)")
  func append_nestedObject_serializesCompactly() {
    var object: JSONObject = ["z": -50]
    object.append("m", ["inputs": [], "outputs": ["p"]])
    #expect(object.serialized == #"{"z":-50,"m":{"inputs":[],"outputs":["p"]}}"#)
    #expect(object["m"] == ["inputs": [], "outputs": ["p"]])
    #expect(object["absent"] == nil)
  }

  @Test("quotes, backslashes and control characters are escaped (RFC 8259 §7)")
  func serialized_specialCharacters_areEscaped() {
    let value = JSONValue.string("a\"b\\c/\n\r\t\u{08}\u{0C}\u{01}\u{1F}é→")
    #expect(value.serialized == #""a\"b\\c/\n\r\t\b\f\u0001\u001fé→""#)
  }

  @Test("the indented form: two spaces, scalar arrays and empty containers on one line")
  func prettyPrinted_nested_keepsOrderAndLayout() {
    let value: JSONValue = [
      "z": 1, "list": ["a", 2, .double(-2.5), nil], "empty": [:], "none": [],
      "rows": [["k": true]],
    ]
    #expect(
      value.prettyPrinted == """
        {
          "z": 1,
          "list": ["a", 2, -2.5, null],
          "empty": {},
          "none": [],
          "rows": [
            {
              "k": true
            }
          ]
        }
        """)
  }

  static let text = Gen<UInt32>.value(in: 0...0x2FF).map { Character(UnicodeScalar($0) ?? "?") }
    .string(of: 0...12)

  @Test("any string serialises to JSON that parses back to the same string (RFC 8259 §7)")
  func serialized_anyString_roundTripsThroughJSONSerialization() async {
    await propertyCheck(input: Self.text) { text in
      let json = JSONValue.array([.string(text)]).serialized
      let parsed = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String]
      #expect(parsed == [text])
    }
  }
}
