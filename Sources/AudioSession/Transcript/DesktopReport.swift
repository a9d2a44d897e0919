/// What one step of a scenario's desktop shows of other programs (docs/contract.md "Desktop
/// steps"): the MPRIS commands the daemon sent their players, how it changed what is heard of
/// their streams, and, for `heard`, what each program is heard at. Empty for a scenario that acts
/// out no program.
public struct DesktopReport: Sendable, Hashable {
  /// How the daemon leaves a program's playback stream.
  public enum Treatment: String, Sendable, Hashable {
    /// Silenced: its session is muted, or interrupted or paused by the system while it does not
    /// play (docs/apps.md "On the server").
    case muted
    /// Its volume lowered to the duck level.
    case ducked
    /// As its program plays it: what the daemon had changed is undone.
    case restored
  }

  public enum Line: Sendable, Hashable {
    /// The daemon sent `command` to `program`'s player, whose bus name is `bus`.
    case sent(program: String, bus: String, command: PlayerAction.Command, because: Because?)
    /// The daemon changed how `program`'s playback stream is heard.
    case stream(program: String, Treatment)
  }

  /// What one program is heard at: 1 in full, the duck level when ducked, 0 when muted, paused,
  /// corked or gone.
  public struct Level: Sendable, Hashable {
    public var program: String
    public var level: Double

    public init(program: String, level: Double) {
      self.program = program
      self.level = level
    }
  }

  public var lines: [Line]
  /// For `heard`: every program the scenario started, in the order they were first started.
  public var heard: [Level]?

  public init(lines: [Line] = [], heard: [Level]? = nil) {
    self.lines = lines
    self.heard = heard
  }

  public var isEmpty: Bool { lines.isEmpty && heard == nil }

  /// `{"step":N,"player":BUS,"command":"pause","program":NAME}` (with `because` when known),
  /// `{"step":N,"program":NAME,"stream":"muted"}`, then `{"step":N,"heard":{NAME:LEVEL,…}}`.
  public func jsonLines(step: Int) -> [String] {
    var objects: [JSONObject] = lines.map { line in
      switch line {
      case .sent(let program, let bus, let command, let because):
        var object: JSONObject = [
          "step": .int(step), "player": .string(bus), "command": .string(command.rawValue),
          "program": .string(program),
        ]
        if let because { object.append("because", .object(TranscriptJSON.because(because))) }
        return object
      case .stream(let program, let treatment):
        return [
          "step": .int(step), "program": .string(program), "stream": .string(treatment.rawValue),
        ]
      }
    }
    if let heard {
      let levels = JSONObject(heard.map { ($0.program, Self.number($0.level)) })
      objects.append(["step": .int(step), "heard": .object(levels)])
    }
    return objects.map(\.serialized)
  }

  /// `player mpv: Pause`, `program mpv: stream muted`, `heard: mpv 1, espeak 0.1`; a reason
  /// as an indented `because` line.
  public func textLines(indent: String) -> [String] {
    var text: [String] = []
    for line in lines {
      switch line {
      case .sent(let program, _, let command, let because):
        text.append("\(indent)player \(program): \(command.method)")
        if let because { text.append(indent + "    " + TranscriptText.because(because)) }
      case .stream(let program, let treatment):
        text.append("\(indent)program \(program): stream \(treatment.rawValue)")
      }
    }
    if let heard {
      let levels = heard.map { "\($0.program) \(SessionPreference.number($0.level))" }
      text.append(
        indent + "heard: " + (levels.isEmpty ? "nothing" : levels.joined(separator: ", ")))
    }
    return text
  }

  /// A level as JSON: an integer when whole, else rounded to six decimals.
  static func number(_ value: Double) -> JSONValue {
    if value == value.rounded() { return .int(Int(value)) }
    return .double((value * 1_000_000).rounded() / 1_000_000)
  }
}
