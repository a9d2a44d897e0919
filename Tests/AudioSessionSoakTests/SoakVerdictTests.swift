import AudioSessionSoak
import Testing

/// The soak's comparison of what was predicted with what was heard (docs/soak.md
/// "Agreement").
@Suite struct SoakVerdictTests {
  let ear = SoakEar()

  func heard(_ level: Double) -> SoakEar.Heard { SoakEar.Heard(level: level, measure: level) }

  @Test(
    "a step agrees when every program is heard at its predicted class, and not when one is not (docs/soak.md Judging by ear)"
  )
  func compare_eachProgram_mustAgree() {
    let predicted = [("mpv", 0.1), ("music", 0.0), ("call", 1.0)].map {
      (program: $0.0, level: $0.1)
    }
    let same = SoakVerdict.compare(
      predicted: predicted, heard: ["mpv": heard(0.1), "music": heard(0), "call": heard(1)],
      ear: ear)
    #expect(same.agrees)
    let louder = SoakVerdict.compare(
      predicted: predicted, heard: ["mpv": heard(1), "music": heard(0), "call": heard(1)],
      ear: ear)
    #expect(!louder.agrees)
    #expect(louder.lines.map(\.agrees) == [false, true, true])
    #expect(!SoakVerdict.compare(predicted: predicted, heard: [:], ear: ear).agrees)
  }

  @Test(
    "speech agrees when heard exactly when predicted above 0, whatever its level (docs/soak.md Judging by ear)"
  )
  func compare_speech_isHeardOrNot() {
    let ducked = [(program: "speech", level: 0.1)]
    #expect(SoakVerdict.compare(predicted: ducked, heard: ["speech": heard(1)], ear: ear).agrees)
    #expect(!SoakVerdict.compare(predicted: ducked, heard: ["speech": heard(0)], ear: ear).agrees)
    let silent = [(program: "speech", level: 0.0)]
    #expect(!SoakVerdict.compare(predicted: silent, heard: ["speech": heard(1)], ear: ear).agrees)
  }

  @Test(
    "the heard lines of a scenario transcript are read by step, in their order (docs/contract.md Desktop steps)"
  )
  func predictions_fromTranscript_byStep() {
    let transcript = """
      {"step":1,"command":"simulate program mpv start --binary mpv","result":"ok"}
      {"step":2,"command":"heard","result":"ok"}
      {"step":2,"heard":{"mpv":1}}
      {"step":4,"heard":{"mpv":0.1,"speech":1,"call":0}}
      """
    let predictions = SoakVerdict.predictions(fromTranscript: transcript)
    #expect(predictions[2]?.map(\.program) == ["mpv"])
    #expect(predictions[4]?.map(\.program) == ["mpv", "speech", "call"])
    #expect(predictions[4]?.map(\.level) == [0.1, 1, 0])
    #expect(predictions[1] == nil)
  }
}
