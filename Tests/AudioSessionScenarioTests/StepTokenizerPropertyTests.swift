import AudioSession
import AudioSessionScenario
import Foundation
import PropertyBased
import Testing

// docs/contract.md "Scenario files": any word a user can type can be written in a step by quoting
// it.
@Suite struct StepTokenizerPropertyTests {
  static let alphabet: [Character] = [
    "a", "Z", "0", " ", "\t", "'", "\"", "\\", ",", "=", "-", "é",
  ]

  /// Quotes a word the way a shell user would: single quotes, with `'` written as `'\''`.
  static func singleQuoted(_ word: String) -> String {
    "'" + word.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
  }

  /// Quotes a word with double quotes, escaping `"` and `\`.
  static func doubleQuoted(_ word: String) -> String {
    var quoted = "\""
    for character in word {
      if character == "\"" || character == "\\" { quoted.append("\\") }
      quoted.append(character)
    }
    return quoted + "\""
  }

  static let words = Gen<Character?>.element(of: alphabet).map { $0 ?? "a" }
    .string(of: 0...6).array(of: 0...5)

  @Test("single-quoted words split back into the same words (docs/contract.md Scenario files)")
  func words_singleQuotedWords_roundTrip() async {
    await propertyCheck(input: Self.words) { words in
      let line = words.map(Self.singleQuoted).joined(separator: " ")
      #expect((try? StepTokenizer.words(line)) == words)
    }
  }

  @Test("double-quoted words split back into the same words (docs/contract.md Scenario files)")
  func words_doubleQuotedWords_roundTrip() async {
    await propertyCheck(input: Self.words) { words in
      let line = words.map(Self.doubleQuoted).joined(separator: "\t")
      #expect((try? StepTokenizer.words(line)) == words)
    }
  }
}
