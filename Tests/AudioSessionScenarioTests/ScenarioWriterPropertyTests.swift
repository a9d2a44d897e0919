import AudioSession
import AudioSessionArbiter
import AudioSessionScenario
import PropertyBased
import Testing

/// The scenario file ``ScenarioWriter`` writes of a record reads back as it was written
/// (docs/contract.md "Scenario files", "Recording what the daemon saw").
@Suite struct ScenarioWriterPropertyTests {
  static let wordCharacters = Array("ab Z09_.-'\"\\ $#:;*[]{}|&!é\t@%,\u{1}\u{85}\u{2028}\u{FEFF}")
  static let words = Gen<Character?>.element(of: wordCharacters).map { $0 ?? "a" }.array(
    of: 0...6
  ).map { String($0) }.array(of: 1...5)

  @Test(
    "any words, quoted as the file writes them, come back from the step tokenizer as they were (docs/contract.md Scenario files)"
  )
  func quotedWords_tokenizeBack() async {
    await propertyCheck(count: 1000, input: Self.words) { words in
      let line = ScenarioWriter.line(session: nil, words: words)
      #expect((try? StepTokenizer.words(line)) == words, "\(line)")
    }
  }

  @Test(
    "any step, written into the file, is read back by the scenario reader as the same words (docs/contract.md Scenario files, Recording what the daemon saw)"
  )
  func writtenSteps_readBack() async throws {
    await propertyCheck(count: 300, input: Self.words.array(of: 1...4)) { steps in
      let recording = DesktopRecording(
        devices: ["builtInSpeaker"],
        steps: steps.map {
          DesktopRecording.Step(
            words: $0, comment: $0.joined(separator: "\n"),
            decided: [$0.joined(separator: " ")])
        },
        notes: steps.map { $0.joined(separator: " # ") })
      let yaml = ScenarioWriter.yaml(recording)
      guard let scenario = try? Scenario(yaml: yaml, file: "t.yaml") else {
        Issue.record("the file does not read back:\n\(yaml)")
        return
      }
      let read = scenario.steps.map { try? StepTokenizer.words($0.text) }
      #expect(read == steps.map { Optional($0) }, "\(yaml)")
    }
  }
}
