import AudioSession

#if canImport(Glibc)
  import Glibc
#endif

/// The comparison of one step (docs/soak.md "Judging by ear"): the levels the scenario predicted for
/// each program it started and what the ear heard of each.
public struct SoakVerdict: Sendable, Hashable {
  /// One program's line: predicted, heard, and whether they agree.
  public struct Line: Sendable, Hashable {
    public var program: String
    public var predicted: Double
    public var heard: Double
    public var measure: Double
    public var agrees: Bool
  }

  public var lines: [Line]

  /// Every line agrees.
  public var agrees: Bool { lines.allSatisfy(\.agrees) }

  /// Compares, in the order of `predicted`'s programs. A tone agrees when its heard level is
  /// the predicted one's class (0, ducked, 1); speech, which has no level of its own to measure,
  /// agrees when it is heard exactly when predicted above 0. A program the prediction names and
  /// the ear has nothing of (no such program in the cast) disagrees.
  public static func compare(
    predicted: [(program: String, level: Double)], heard: [String: SoakEar.Heard], ear: SoakEar
  ) -> SoakVerdict {
    SoakVerdict(
      lines: predicted.map { program, level in
        guard let what = heard[program] else {
          return Line(program: program, predicted: level, heard: -1, measure: 0, agrees: false)
        }
        let isSpeech = SoakProgram.named(program)?.frequency == nil
        let agrees =
          isSpeech ? (level > 0) == (what.level > 0) : ear.expected(level) == what.level
        return Line(
          program: program, predicted: level, heard: what.level, measure: what.measure,
          agrees: agrees)
      })
  }

  /// `mpv 0, music 0.1`: the predicted levels, as the scenario's text transcript says them.
  public var predictedText: String {
    lines.map { "\($0.program) \(Self.number($0.predicted))" }.joined(separator: ", ")
  }

  /// `mpv 0 (-62 dB), music 0.1 (-19.8 dB)`: what was heard, with what was measured.
  public var heardText: String {
    lines.map { line in
      let isSpeech = SoakProgram.named(line.program)?.frequency == nil
      let measured = line.measure > 0 ? 20 * log10(line.measure) : -120
      let unit = isSpeech ? "dBFS rest" : "dB"
      return "\(line.program) \(Self.number(line.heard)) (\(Self.decibels(measured)) \(unit))"
    }.joined(separator: ", ")
  }

  static func number(_ value: Double) -> String {
    value == value.rounded() ? String(Int(value)) : String(value)
  }

  static func decibels(_ value: Double) -> String {
    let tenths = (value * 10).rounded() / 10
    return String(tenths)
  }

  /// The `heard` levels of a `scenario run --json` transcript, by step number, each in the
  /// order the transcript lists its programs.
  public static func predictions(fromTranscript text: String) -> [Int: [(
    program: String, level: Double
  )]] {
    var result: [Int: [(program: String, level: Double)]] = [:]
    for line in text.split(separator: "\n") where line.contains("\"heard\":{") {
      guard case .object(let object)? = try? JSONParser.parse(String(line)),
        case .int(let step)? = object["step"], case .object(let heard)? = object["heard"]
      else { continue }
      result[step] = heard.members.map { member in
        switch member.value {
        case .int(let value): (member.key, Double(value))
        case .double(let value): (member.key, value)
        default: (member.key, -1)
        }
      }
    }
    return result
  }
}
