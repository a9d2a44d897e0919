import AudioSession
import AudioSessionArbiter
import AudioSessionArbiterTestSupport
import AudioSessionScenario
import AudioSessionTestSupport
import Testing

@testable import SessionctlCommands

/// A record written as `sessionctl record` writes it, read back and replayed as `sessionctl
/// scenario run` replays it (docs/contract.md "Recording what the daemon saw"), and the
/// decisions of both sides, to compare.
enum RecordReplay {
  /// What a daemon decided, in order: the notifications the engine posted (the `player` events
  /// left out) and the commands sent to players (`pause org.mpris.MediaPlayer2.mpv`).
  struct Decisions: Equatable, CustomStringConvertible {
    var notifications: [String]
    var sent: [String]

    var description: String {
      (notifications + sent.map { "sent " + $0 }).joined(separator: "\n")
    }
  }

  /// The scenario file of a recording.
  static func yaml(_ recording: DesktopRecording) -> String {
    ScenarioWriter.yaml(recording) { StepParser.sessionNameProblem($0) == nil }
  }

  /// The file read back and planned, as `scenario run` does before anything runs.
  static func plan(_ yaml: String) throws -> ScenarioPlan {
    let scenario = try Scenario(yaml: yaml, file: "recorded.yaml")
    return try StepParser.plan(scenario, catalog: try TestPolicies.table().devices)
  }

  /// The replay's transcript.
  static func replay(_ recording: DesktopRecording) async throws -> [TranscriptEntry] {
    try await plan(yaml(recording)).run(
      policy: try TestPolicies.policy(), backend: InMemoryAudioBackend())
  }

  /// The replay's decisions from its daemon's start on (the setup before it is the desktop the
  /// recorded daemon found, acted out with no daemon to see it).
  static func decisions(_ entries: [TranscriptEntry], setupSteps: Int) -> Decisions {
    var decisions = Decisions(notifications: [], sent: [])
    for entry in entries.dropFirst(max(0, setupSteps - 1)) {
      for notification in entry.result.notifications {
        if case .player = notification.event { continue }
        decisions.notifications.append(text(notification))
      }
      for case .sent(_, let bus, let command, _) in entry.desktop.lines {
        decisions.sent.append("\(command.rawValue) \(bus)")
      }
    }
    return decisions
  }

  /// The recorded daemon's decisions, as the arbiter returned them.
  static func decisions(_ desktop: Desktop) -> Decisions {
    Decisions(
      notifications: desktop.notifications.map(text),
      sent: desktop.allSent.map { "\($0.command.rawValue) \($0.bus)" })
  }

  static func text(_ notification: SessionNotification) -> String {
    "\(notification.session) \(TranscriptText.event(notification.event))"
  }
}

extension RecordReplay {
  typealias History = DesktopHistory

  /// Acts out a history of ``DesktopHistory``'s codes on a daemon that records, as
  /// `DesktopHistoryPropertyTests` does (the players obeying, the daemon and the server
  /// restarted); returns the last daemon's desktop, whose recorder saw everything since that
  /// daemon started.
  static func act(_ codes: [Int], limit: Int = DesktopRecorder.defaultLimit) async throws
    -> Desktop
  {
    var desktop = try await Desktop.start(recording: true, limit: limit)
    var world = History.World()
    desktop.feed(History.playersSnapshot(world))
    desktop.feed(.streams(.snapshot([])))
    for code in codes {
      if code == History.daemonRestart {
        desktop = await History.restartDaemon(desktop, world, busFirst: world.restarts % 2 == 0)
        world.restarts += 1
        History.obey(&desktop, &world)
      } else if code == History.serverRestart {
        History.restartServer(&desktop, &world)
      } else if code == History.timePasses {
        desktop.passTime()
        History.obey(&desktop, &world)
      } else {
        History.act(code, &desktop, &world)
      }
    }
    return desktop
  }

  /// A history's codes by name: `start`, `stop`, the user's `play` and `pause`, and `stall`, of a
  /// program of the cast (mpv, chromium, phone, meet, espeak, beep, aplay), `daemon`, `server`,
  /// `wait`.
  static func codes(_ words: String) -> [Int] {
    let programs = ["mpv", "chromium", "phone", "meet", "espeak", "beep", "aplay"]
    let acts = ["start", "stop", "play", "pause", "stall"]
    var codes: [Int] = []
    for item in words.split(separator: ",") {
      let parts = item.split(separator: " ").map(String.init)
      switch parts.first {
      case "daemon": codes.append(History.daemonRestart)
      case "server": codes.append(History.serverRestart)
      case "wait": codes.append(History.timePasses)
      default:
        let act = acts.firstIndex(of: parts[0])!
        let program = programs.firstIndex(of: parts[1])!
        codes.append(act * History.cast.count + program)
      }
    }
    return codes
  }
}
