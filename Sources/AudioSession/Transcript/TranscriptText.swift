/// The transcript for people: one aligned line per step, one indented line per notification,
/// and small aligned tables for `status`, `route` and `devices`.
///
/// Like the JSON form, it depends only on the entries, so it is identical on every run.
public struct TranscriptText: Sendable, Hashable {
  let numberWidth: Int
  let commandWidth: Int

  /// Commands longer than this do not widen the command column.
  static let maxCommandWidth = 48

  /// - Parameter commands: Every step's text, so that all steps line up.
  public init(commands: [String]) {
    numberWidth = String(max(commands.count, 1)).count
    commandWidth = min(commands.map(\.count).max() ?? 0, Self.maxCommandWidth)
  }

  var indent: String { String(repeating: " ", count: numberWidth + 4) }

  /// Where the header's description is wrapped.
  static let descriptionWidth = 96

  /// The lines that introduce a scenario: its name, its description wrapped to 96 columns, and
  /// its file.
  public func header(name: String, description: String?, file: String) -> [String] {
    var lines = ["Scenario: \(name)"]
    if let description {
      lines += Self.wrap(description, width: Self.descriptionWidth - 2).map { "  " + $0 }
    }
    lines.append("  (\(file))")
    lines.append("")
    return lines
  }

  /// Splits text into lines of at most `width` characters at spaces (longer words stand alone).
  static func wrap(_ text: String, width: Int) -> [String] {
    var lines: [String] = []
    var line = ""
    for word in text.split(whereSeparator: \.isWhitespace) {
      if !line.isEmpty && line.count + 1 + word.count > width {
        lines.append(line)
        line = ""
      }
      line += line.isEmpty ? String(word) : " " + word
    }
    if !line.isEmpty { lines.append(line) }
    return lines
  }

  /// The lines of one step: its result, what it answered, then its notifications.
  public func lines(_ entry: TranscriptEntry) -> [String] {
    let number = String(entry.step)
    let padding = String(repeating: " ", count: numberWidth - number.count)
    let command = entry.command.padding(to: commandWidth)
    var lines: [String] = []
    if let error = entry.result.error {
      let code = "\(error.code.name) (\(error.code.rawValue))"
      lines.append("\(padding)\(number)  \(command)  error: \(code): \(error.message)")
      if let because = entry.result.errorBecause { lines.append(indent + Self.because(because)) }
    } else {
      lines.append("\(padding)\(number)  \(command)  ok")
    }
    lines += entry.result.warnings.map { "\(indent)warning: \($0)" }
    if let reply = entry.result.reply { lines += Self.replyLines(reply).map { indent + $0 } }
    let notifications = entry.result.notifications
    let sessionWidth = notifications.map(\.session.count).max() ?? 0
    let because =
      entry.result.because.count == notifications.count ? entry.result.because : []
    for (index, notification) in notifications.enumerated() {
      let session = notification.session.padding(to: sessionWidth)
      lines.append("\(indent)\(session)  \(Self.event(notification.event))")
      if index < because.count {
        lines.append(
          indent + String(repeating: " ", count: sessionWidth + 4) + Self.because(because[index]))
      }
    }
    lines += entry.desktop.textLines(indent: indent)
    return lines.map(Self.trimmingTrailingSpaces)
  }

  /// `because interactions.json rules[0] (profile default) ← nav activate`, with the switch
  /// when one decided; fixed behaviour names its spec section.
  public static func because(_ because: Because) -> String {
    let source = because.source
    var text = "because "
    if let policy = source.policy {
      text += policy + (source.path.map { " " + $0 } ?? "")
    } else {
      text += source.specReference ?? "no rule"
    }
    var notes = ["profile \(because.profile)"]
    if let name = source.switchName { notes.append("switch \(name)") }
    return text + " (" + notes.joined(separator: ", ") + ") ← " + because.trigger
  }

  /// What `status`, `route` or `devices` answered: a table, or one line, not indented.
  public static func replyLines(_ reply: CommandReply) -> [String] {
    switch reply {
    case .status(let status): statusLines(status)
    case .route(let session, let route): ["\(session): \(Self.route(route))"]
    case .devices(let devices): table(devices.map(deviceRow))
    }
  }

  /// The closing line: how many steps ran and which failed (`9 steps, 1 error (step 4)`).
  public static func summary(_ entries: [TranscriptEntry]) -> String {
    let failed = entries.filter { $0.result.error != nil }.map(\.step)
    let steps = "\(entries.count) step\(entries.count == 1 ? "" : "s")"
    switch failed.count {
    case 0: return "\(steps), no errors"
    case 1: return "\(steps), 1 error (step \(failed[0]))"
    default:
      return "\(steps), \(failed.count) errors (steps "
        + failed.map(String.init).joined(separator: ", ") + ")"
    }
  }

  /// `interruption began (reason: default, by: nav)`.
  public static func event(_ event: SessionEvent) -> String {
    let name = TranscriptJSON.eventName(event)
    switch event {
    case .interruptionBegan(let reason, let cause):
      return "\(name) began (reason: \(reason.name), by: \(cause.name))"
    case .interruptionEnded(let options, let cause):
      return
        "\(name) ended (options: [\(options.names.joined(separator: ", "))], by: \(cause.name))"
    case .routeChange(let reason, let previous, let current):
      return "\(name) (\(reason.name)): \(route(previous)) -> \(route(current))"
    case .silenceSecondaryAudioHint(let type): return "\(name) \(type.name)"
    case .duck(let cause): return "\(name) (by: \(cause.name))"
    case .mute(let reason): return "\(name) (reason: \(reason.rawValue))"
    case .pause(let reason): return "\(name) (reason: \(reason.name))"
    case .player(let action):
      let because =
        switch action.cause {
        case .interruption(let cause): "interruption by \(cause.name)"
        case .pause(let reason): "pause, reason \(reason.name)"
        case .interruptionEnded(let cause): "interruption by \(cause.name) ended"
        }
      return "\(name) \(action.command.rawValue) \(action.player) (\(because))"
    case .promptStyle(let style): return "\(name) \(style.name)"
    case .didBecomeInactive(let source, let reason):
      return "\(name) (source: \(source.name)" + (reason.map { ", reason: \($0.name)" } ?? "") + ")"
    case .resumptionRecommendation(let recommendation): return "\(name) \(recommendation.name)"
    case .outputMuteStateChange(let muted), .inputMuteStateChange(let muted):
      return "\(name) \(muted ? "muted" : "unmuted")"
    case .mediaServicesWereLost, .mediaServicesWereReset, .unduck, .unmute,
      .userIntentToUnmuteOutput, .availableInputsChange, .didBecomeActive:
      return name
    }
  }

  /// `out headphones; in headsetMic`, or `no route`.
  public static func route(_ route: RouteDescription) -> String {
    var parts: [String] = []
    if !route.outputs.isEmpty {
      parts.append("out " + route.outputs.map(\.portType.name).joined(separator: ", "))
    }
    if !route.inputs.isEmpty {
      parts.append("in " + route.inputs.map(\.portType.name).joined(separator: ", "))
    }
    return parts.isEmpty ? "no route" : parts.joined(separator: "; ")
  }

  static func statusLines(_ status: EngineStatus) -> [String] {
    func yesNo(_ value: Bool) -> String { value ? "yes" : "no" }
    var rows = [
      [
        "session", "category", "mode", "options", "active", "playing", "interrupted", "ducked",
        "muted", "route",
      ]
    ]
    for session in status.sessions {
      let options = session.options.names
      rows.append([
        session.name, session.configuration.category.name, session.configuration.mode.name,
        options.isEmpty ? "-" : options.joined(separator: ","), yesNo(session.active),
        yesNo(session.playing), yesNo(session.interrupted), yesNo(session.ducked),
        yesNo(session.muted), Self.route(session.route),
      ])
    }
    var lines = status.sessions.isEmpty ? ["no sessions"] : table(rows)
    // The MPRIS players of app and `run` sessions (docs/mpris.md), from the daemon's status.
    for session in status.sessions {
      for player in session.ownership?.players ?? [] {
        lines.append("player: \(session.name) \(player.bus) (\(player.status.rawValue))")
      }
    }
    // What differs from a session's start (docs/contract.md "More of AVAudioSession").
    for session in status.sessions {
      var notes: [String] = []
      if session.configuration.policy != .default {
        notes.append("policy \(session.configuration.policy.name)")
      }
      if session.appState != .foreground { notes.append("app \(session.appState.name)") }
      if session.nowPlaying { notes.append("Now Playing") }
      if session.outputMuted { notes.append("output muted") }
      if session.inputMuted { notes.append("input muted") }
      if session.isOtherAudioPlaying { notes.append("other audio playing") }
      // Every session reads the system volume as its `outputVolume`; shown when not 1.
      if session.outputVolume != 1 {
        notes.append("outputVolume \(SessionPreference.number(session.outputVolume))")
      }
      if session.secondaryAudioShouldBeSilencedHint {
        notes.append("secondary audio should be silenced")
      }
      if session.promptStyle != .normal { notes.append("promptStyle \(session.promptStyle.name)") }
      if session.prefersNoInterruptionsFromSystemAlerts {
        notes.append("prefers no interruptions from system alerts")
      }
      if session.prefersEchoCancelledInput {
        notes.append(
          "prefers echo-cancelled input ("
            + (session.echoCancelledInputEnabled
              ? "enabled"
              : session.echoCancelledInputAvailable ? "not enabled" : "not available") + ")")
      }
      if let on = session.prefersInterruptionOnRouteDisconnect {
        notes.append("prefers interruption on route disconnect: \(on ? "yes" : "no")")
      }
      let preferences = session.preferences
      let preferred: [String?] = [
        session.preferredInput.map { "input \($0)" },
        preferences.sampleRate.map { "sampleRate \(SessionPreference.number($0))" },
        preferences.ioBufferDuration.map { "ioBufferDuration \(SessionPreference.number($0))" },
        preferences.inputNumberOfChannels.map { "inputNumberOfChannels \($0)" },
        preferences.outputNumberOfChannels.map { "outputNumberOfChannels \($0)" },
        preferences.aggregatedIO.map { "aggregatedIO \($0 ? "aggregated" : "notSpecified")" },
      ]
      let set = preferred.compactMap { $0 }
      if !set.isEmpty { notes.append("prefers " + set.joined(separator: ", ")) }
      // The values the hardware granted, next to the preferences (--json has them always).
      if !set.isEmpty {
        let hardware = session.hardware
        notes.append(
          "hardware \(SessionPreference.number(hardware.sampleRate)) Hz, buffer "
            + "\(SessionPreference.number(hardware.ioBufferDuration)) s, channels in "
            + "\(hardware.inputNumberOfChannels) out \(hardware.outputNumberOfChannels)")
      }
      if !notes.isEmpty { lines.append("\(session.name): " + notes.joined(separator: ", ")) }
    }
    lines.append("devices: " + status.devices.map(\.uid).joined(separator: ", "))
    let call =
      status.callActive ? "active" : status.callRinging.map { "ringing (\($0.name))" } ?? "none"
    lines.append(
      "system: call \(call), "
        + "silent switch \(status.silentSwitch ? "on" : "off"), "
        + "screen lock \(status.screenLocked ? "on" : "off"), "
        + "built-in mic \(status.builtInMicMuted ? "muted" : "unmuted")"
        + (status.siriActive ? ", Siri listening" : "")
        + (status.alarmActive ? ", alarm sounding" : "")
        // Only when not the default, so that transcripts without them stay as they were.
        + (status.outputVolume != 1
          ? ", volume \(SessionPreference.number(status.outputVolume))" : "")
        + (status.recordPermission != .granted
          ? ", record permission \(status.recordPermission.name)" : ""))
    if let server = status.server { lines.append(serverLine(server, now: .now())) }
    // The state file only when something went wrong with it.
    for problem in status.stateFile?.problems ?? [] { lines.append("state file: \(problem)") }
    return lines
  }

  /// `server: PulseAudio server (unix:…), connected since 2026-11-24T06:30:00Z`, or, while it is
  /// gone, `server: … LOST since … (12 s ago); reconnecting, 5 attempts so far`.
  public static func serverLine(_ server: MediaServerStatus, now: WallTime) -> String {
    let name = server.name + (server.address.map { " (\($0))" } ?? "")
    switch server.state {
    case .connected(let since):
      return "server: \(name), connected since \(since.iso8601)"
    case .reconnecting(let since, let attempts):
      let ago = max(0, now.seconds - since.seconds)
      return "server: \(name), LOST since \(since.iso8601) (\(ago) s ago); reconnecting, "
        + "\(attempts) attempt\(attempts == 1 ? "" : "s") so far"
    }
  }

  static func deviceRow(_ device: Device) -> [String] {
    [
      device.uid, device.name,
      device.ports.map { "\($0.type.name) (\($0.direction.rawValue))" }.joined(separator: ", "),
    ]
  }

  /// Pads every column to its widest cell, two spaces apart.
  static func table(_ rows: [[String]]) -> [String] {
    let columns = rows.map(\.count).max() ?? 0
    let widths = (0..<columns).map { column in
      rows.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0
    }
    return rows.map { row in
      trimmingTrailingSpaces(
        row.enumerated().map { $0.element.padding(to: widths[$0.offset]) }.joined(separator: "  "))
    }
  }

  static func trimmingTrailingSpaces(_ line: String) -> String {
    var line = Substring(line)
    while line.last == " " { line = line.dropLast() }
    return String(line)
  }
}

extension String {
  /// The string followed by spaces up to `width` characters.
  func padding(to width: Int) -> String {
    count >= width ? self : self + String(repeating: " ", count: width - count)
  }
}
