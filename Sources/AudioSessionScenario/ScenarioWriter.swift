/// Writes a scenario file (docs/contract.md "Scenario files") from what a daemon recorded
/// (``DesktopRecording``, docs/contract.md "Recording what the daemon saw"): a comment header
/// saying who recorded what and what the steps cannot replay, then the steps, each with what the
/// daemon decided after it as comments. ``Scenario/init(yaml:file:)`` reads it back, and each
/// step's words come back as the tokenizer splits them (``StepTokenizer``).
import AudioSession
public import AudioSessionArbiter

public enum ScenarioWriter {
  /// The scenario file of a recording.
  ///
  /// - Parameter prefixes: Whether a session's name may come before its command (`music
  ///   activate`); when not (the name is a command's), the step ends with `--session NAME`.
  public static func yaml(
    _ recording: DesktopRecording, prefixes: (String) -> Bool = { _ in true }
  ) -> String {
    var lines = header(recording)
    let name: String
    if let daemon = recording.daemon {
      name =
        "what the audio session daemon saw, \(daemon.started.iso8601) to "
        + daemon.recorded.iso8601
      lines.append("name: " + scalar(name))
      lines.append(
        "description: "
          + scalar(
            "recorded by sessionctl record from the daemon (pid \(daemon.pid), \(daemon.backend) "
              + "backend)"))
      lines.append("profile: " + scalar(daemon.profile))
    } else {
      lines.append("name: " + scalar("what the audio session daemon saw"))
    }
    lines.append("devices: [" + recording.devices.map(scalar).joined(separator: ", ") + "]")
    lines.append("steps:")
    var written = 0
    var lastSecond: Int?
    for (index, step) in recording.steps.enumerated() {
      if index == recording.setupSteps, index > 0 {
        lines.append("  # the daemon's own history begins here")
      }
      if index >= recording.setupSteps, let started = recording.daemon?.started {
        let (second, overflow) = started.seconds.addingReportingOverflow(step.at / 1000)
        if !overflow, second != lastSecond {
          lines.append("  # at " + WallTime(seconds: second).iso8601)
          lastSecond = second
        }
      }
      if let comment = step.comment { lines += commentLines(comment, indent: "  ") }
      guard !step.words.isEmpty else { continue }
      lines.append("  - " + scalar(line(session: step.session, words: step.words, prefixes)))
      written += 1
      for decision in step.decided {
        lines += commentLines("the daemon: " + decision, indent: "    ")
      }
      if step.decidedLeftOut > 0 {
        lines.append("    # the daemon: and \(step.decidedLeftOut) decisions more")
      }
    }
    if written == 0 {
      // A scenario has at least one step: the daemon saw nothing to act out yet.
      lines.append("  # the daemon saw nothing to replay yet: its status, as a replay starts")
      lines.append("  - status")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// The header: the daemon, the server, when, what was cut, what cannot be replayed.
  static func header(_ recording: DesktopRecording) -> [String] {
    var lines = [
      "# What an audio session daemon saw, written by 'sessionctl record' as a scenario",
      "# (docs/contract.md \"Recording what the daemon saw\"). Replay it anywhere, with no device:",
      "#   sessionctl scenario run FILE --explain",
    ]
    if let daemon = recording.daemon {
      lines += commentLines(
        "daemon: audiosessiond \(oneLine(daemon.version)), pid \(daemon.pid), "
          + "\(oneLine(daemon.backend)) backend, profile \(oneLine(daemon.profile))", indent: "")
      if let server = daemon.server {
        lines += commentLines("server: " + oneLine(server), indent: "")
      }
      lines.append(
        "# started \(daemon.started.iso8601), recorded \(daemon.recorded.iso8601)")
    }
    lines.append(
      "# \(recording.facts) facts since the daemon started, \(recording.stepCount) steps "
        + "(it keeps at most \(recording.limit))")
    if recording.cut > 0 {
      lines.append(
        "# cut: the first \(recording.cut) steps were left out; the replay starts from the "
          + "desktop as it was after them (devices, sessions, programs), not from what the daemon "
          + "had decided about it then (interruptions, players it had paused), so it may decide "
          + "otherwise at first")
    }
    if recording.setupSteps > 0 {
      lines.append(
        "# the first \(recording.setupSteps) steps set up what the daemon \(recording.cut > 0 ? "had then" : "found when it started") "
          + "(the sessions it held, the programs that ran), with the daemon stopped; the "
          + "daemon's own decisions follow")
    }
    if recording.notes.isEmpty {
      lines.append("# every fact is replayed: the replay decides as the daemon did")
    } else {
      lines.append("# not replayed, so the replay may decide otherwise after these:")
      for note in recording.notes { lines += commentLines("- " + note, indent: "") }
    }
    lines.append("# after each step, '# the daemon:' says what it decided then")
    return lines
  }

  /// A step as a command line: the session first (or `--session NAME` last), each word quoted
  /// as the tokenizer reads it back.
  public static func line(
    session: String?, words: [String], _ prefixes: (String) -> Bool = { _ in true }
  ) -> String {
    var all = words
    if let session {
      if prefixes(session) { all.insert(session, at: 0) } else { all += ["--session", session] }
    }
    return all.map(quoted).joined(separator: " ")
  }

  /// One word as ``StepTokenizer`` reads it back: as it is when it needs no quoting, else in
  /// single quotes (a single quote within as `'\''`).
  public static func quoted(_ word: String) -> String {
    let plain = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.,:/=+@%-"
    if !word.isEmpty, word.unicodeScalars.allSatisfy({ plain.unicodeScalars.contains($0) }) {
      return word
    }
    return "'" + word.replacingAll("'", with: "'\\''") + "'"
  }

  /// A YAML scalar for `text`: plain when YAML reads it back as that string, else double-quoted.
  static func scalar(_ text: String) -> String {
    let safe = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./=+- "
    let scalars = Array(text.unicodeScalars)
    if let first = scalars.first, let last = scalars.last, first != "-", first != " ",
      last != " ", scalars.allSatisfy({ safe.unicodeScalars.contains($0) }),
      YAMLPlainScalar.kind(of: text) == .string
    {
      return text
    }
    var output = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": output += "\\\""
      case "\\": output += "\\\\"
      case "\n": output += "\\n"
      case "\t": output += "\\t"
      default:
        if isPrintable(scalar) {
          output.unicodeScalars.append(scalar)
        } else {
          let hex = String(scalar.value, radix: 16)
          output += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        }
      }
    }
    return output + "\""
  }

  static func commentLines(_ text: String, indent: String) -> [String] {
    text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
      var shown = String.UnicodeScalarView()
      for scalar in line.unicodeScalars { shown.append(isPrintable(scalar) ? scalar : "?") }
      return indent + "# " + String(shown)
    }
  }

  /// Whether YAML takes the character as it is: not a control character, a line break of its
  /// own (NEL, the Unicode line and paragraph separators) or a byte-order mark.
  static func isPrintable(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x20...0x7E: true
    case 0..<0x20, 0x7F...0x9F, 0x2028, 0x2029, 0xFEFF, 0xFFFE, 0xFFFF: false
    default: true
    }
  }

  static func oneLine(_ text: String) -> String {
    text.split(separator: "\n").joined(separator: " ")
  }
}

extension String {
  /// The string with every `target` replaced (no Foundation in the scenario module).
  fileprivate func replacingAll(_ target: Character, with replacement: String) -> String {
    var output = ""
    for character in self {
      if character == target { output += replacement } else { output.append(character) }
    }
    return output
  }
}
