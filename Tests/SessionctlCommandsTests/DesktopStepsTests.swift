import ArgumentParser
import AudioSession
import AudioSessionScenario
import AudioSessionTestSupport
import Testing

@testable import SessionctlCommands

/// The desktop steps of a scenario (docs/contract.md "Desktop steps"): other programs, the user
/// and the daemon's restart acted out on the simulated backend, the players obeying what the
/// daemon sends them, and the transcript showing what the daemon decided and what is heard.
@Suite struct DesktopStepsTests {
  static let mpv =
    "simulate program mpv start --binary mpv --role music --player org.mpris.MediaPlayer2.mpv"
  static let call = "simulate program call start --binary pacat --role phone"

  static func plan(_ steps: [String]) throws -> ScenarioPlan {
    let yaml = "name: t\nsteps:\n" + steps.map { "  - \($0)\n" }.joined()
    let scenario = try Scenario(yaml: yaml, file: "t.yaml")
    return try StepParser.plan(scenario, catalog: try TestPolicies.table().devices)
  }

  static func run(_ steps: [String], explain: Bool = false) async throws -> [TranscriptEntry] {
    try await plan(steps).run(
      policy: try TestPolicies.policy(), backend: InMemoryAudioBackend(), explain: explain)
  }

  /// The problems of a file with these steps, or nil when it parses.
  static func problems(_ steps: [String]) -> String? {
    do {
      _ = try plan(steps)
      return nil
    } catch {
      return "\(error)"
    }
  }

  /// What the last step heard, by program.
  static func heard(_ entries: [TranscriptEntry]) -> [String: Double] {
    Dictionary(
      uniqueKeysWithValues: (entries.last?.desktop.heard ?? []).map { ($0.program, $0.level) })
  }

  /// The commands a step sent, as `pause mpv`.
  static func sent(_ entry: TranscriptEntry) -> [String] {
    entry.desktop.lines.compactMap {
      guard case .sent(let program, _, let command, _) = $0 else { return nil }
      return "\(command.rawValue) \(program)"
    }
  }

  @Test(
    "simulate program NAME start takes the stream's and player's properties, and the other acts none (docs/contract.md Desktop steps)"
  )
  func parse_programSteps() throws {
    let plan = try Self.plan([
      "simulate program meet start --binary chromium --app-name Chromium --role phone --pid 42 "
        + "--group 40 --records --never-corks --player org.mpris.MediaPlayer2.chromium",
      "simulate program meet pause", "simulate program meet play",
      "simulate user meet pause", "simulate user meet play", "simulate program meet stop",
      "simulate daemon restart", "simulate daemon restart --bus-first", "heard",
      "simulate wait 250ms", "simulate wait 2s",
    ])
    #expect(
      plan.actions == [
        .desktop(
          .start(
            DesktopAct.Program(
              name: "meet", binary: "chromium", role: "phone", appName: "Chromium", pid: 42,
              group: 40, records: true, neverCorks: true,
              player: "org.mpris.MediaPlayer2.chromium"))),
        .desktop(.program("meet", .pause)), .desktop(.program("meet", .play)),
        .desktop(.user("meet", .pause)), .desktop(.user("meet", .play)),
        .desktop(.program("meet", .stop)), .desktop(.daemonRestart(busFirst: false)),
        .desktop(.daemonRestart(busFirst: true)), .desktop(.heard),
        .desktop(.wait(milliseconds: 250)), .desktop(.wait(milliseconds: 2000)),
      ])
    #expect(plan.actsOnDesktop)
    #expect(try !Self.plan(["status"]).actsOnDesktop)
  }

  @Test(
    "a wrong desktop step says what is valid, with the file and line (docs/contract.md Desktop steps, Bad input)",
    arguments: [
      (
        "simulate program mpv jump",
        "t.yaml:4:5: step 'simulate program mpv jump': The value 'jump' is invalid for '<act>'. "
          + "Please provide one of the following:\n  - start\n  - pause\n  - play\n  - stop\n"
          + "  - stall\n  - close\n  - open"
      ),
      (
        "simulate program mpv start",
        "t.yaml:4:5: step 'simulate program mpv start': 'program mpv start' needs --binary BINARY"
      ),
      (
        "simulate program mpv pause --role music",
        "t.yaml:4:5: step 'simulate program mpv pause --role music': --binary, --role, "
          + "--app-name, --pid, --group, --records, --never-corks, --player, --paused and "
          + "--property describe a program as it starts; 'pause' takes none"
      ),
      (
        "simulate user mpv volume 0.5",
        "t.yaml:4:5: step 'simulate user mpv volume 0.5': The value 'volume' is invalid for "
          + "'<command>'. Please provide one of 'pause' and 'play'."
      ),
      (
        "simulate daemon reboot",
        "t.yaml:4:5: step 'simulate daemon reboot': The value 'reboot' is invalid for '<what>'. "
          + "Please provide one of 'restart', 'stop' or 'start'."
      ),
      (
        "simulate program mpv start --binary mpv --player mpv",
        "t.yaml:4:5: step 'simulate program mpv start --binary mpv --player mpv': --player takes "
          + "an MPRIS bus name, org.mpris.MediaPlayer2.NAME, not 'mpv'"
      ),
      (
        "simulate wait 250",
        "t.yaml:4:5: step 'simulate wait 250': '250' is no duration: write whole milliseconds or "
          + "seconds, from 1ms to 3600s (250ms, 2s)"
      ),
      (
        "simulate wait 3601s",
        "t.yaml:4:5: step 'simulate wait 3601s': '3601s' is no duration: write whole milliseconds "
          + "or seconds, from 1ms to 3600s (250ms, 2s)"
      ),
      (
        "simulate wait 99999999999999999999ms",
        "t.yaml:4:5: step 'simulate wait 99999999999999999999ms': '99999999999999999999ms' is no "
          + "duration: write whole milliseconds or seconds, from 1ms to 3600s (250ms, 2s)"
      ),
      (
        "simulate program mpv start --binary mpv --pid 0",
        "t.yaml:4:5: step 'simulate program mpv start --binary mpv --pid 0': --pid takes a "
          + "process id greater than 0, not 0"
      ),
    ])
  func parse_wrongStep_saysWhatIsValid(step: String, message: String) {
    #expect(Self.problems(["status", step]) == message)
  }

  @Test(
    "a step that names a program no earlier step started, starts one twice, or commands a player it has not, is refused before anything runs (docs/contract.md Desktop steps)"
  )
  func plan_castProblems() {
    #expect(
      Self.problems(["simulate program mpv pause"])
        == "t.yaml:3:5: step 'simulate program mpv pause': no earlier step starts the program "
        + "'mpv' (none runs); start it with 'simulate program mpv start --binary BINARY'")
    #expect(
      Self.problems([Self.call, Self.call])
        == "t.yaml:4:5: step '\(Self.call)': the program 'call' already runs (an earlier step "
        + "started it); stop it first")
    #expect(
      Self.problems([Self.call, "simulate user call play"])
        == "t.yaml:4:5: step 'simulate user call play': the program 'call' has no player for "
        + "the user to command; start it with --player BUS")
    #expect(
      Self.problems([Self.call, "simulate program call stop", "simulate program call play"])?
        .hasPrefix("t.yaml:5:5: step 'simulate program call play': no earlier step") == true)
    #expect(Self.problems([Self.call, "simulate program call stop", Self.call]) == nil)
    // The server's death kills the programs without a player: one may start again, and no
    // longer pauses; a player lives on.
    #expect(Self.problems([Self.call, Self.mpv, "simulate server-restart", Self.call]) == nil)
    #expect(
      Self.problems([Self.call, "simulate media-services lost", "simulate program call pause"])?
        .hasPrefix("t.yaml:5:5: step 'simulate program call pause': no earlier step") == true)
    #expect(Self.problems([Self.mpv, "simulate server-restart", "simulate user mpv pause"]) == nil)
  }

  @Test(
    "typed at a shell, a desktop step says it is a scenario's (docs/contract.md Desktop steps)")
  func shell_desktopStep_isRefused() async throws {
    var command = try Sessionctl.parseAsRoot(["heard"])
    let heard = try #require(command as? Sessionctl.Heard)
    await #expect(throws: (any Error).self) { try await heard.run() }
    command = try Sessionctl.parseAsRoot(["simulate", "user", "mpv", "play"])
    do {
      try await (command as? Sessionctl.Simulate.User)?.run()
      Issue.record("a desktop step ran at a shell")
    } catch {
      #expect(
        Sessionctl.message(for: error)
          == "'sessionctl simulate user' acts out the desktop of a scenario file (sessionctl "
          + "scenario run FILE), on the simulated backend; a daemon learns other programs and the "
          + "user from the audio server and the session bus (docs/contract.md \"Desktop steps\")")
    }
  }

  @Test(
    "a program that starts plays, its app session active (pid 1000 plus its order); paused it corks and is heard at 0; stopped its session goes (docs/contract.md Desktop steps)"
  )
  func program_startPauseStop() async throws {
    let start = try await Self.run([Self.call, "status", "heard"])
    #expect(Self.heard(start) == ["call": 1])
    guard case .status(let status)? = start[1].result.reply else {
      Issue.record("no status")
      return
    }
    #expect(status.sessions.map(\.name) == ["pacat.1000"])
    #expect(status.sessions.first?.active == true)
    #expect(status.callActive)
    let paused = try await Self.run([Self.call, "simulate program call pause", "heard"])
    #expect(Self.heard(paused) == ["call": 0])
    let stopped = try await Self.run([Self.call, "simulate program call stop", "status", "heard"])
    guard case .status(let after)? = stopped[2].result.reply else {
      Issue.record("no status")
      return
    }
    #expect(after.sessions.isEmpty)
    #expect(!after.callActive)
    #expect(Self.heard(stopped) == ["call": 0])
  }

  @Test(
    "the daemon's Pause goes to the player, which obeys and corks; the transcript shows the command, the stream muted and restored (docs/contract.md Desktop steps)"
  )
  func callPausesPlayer_transcript() async throws {
    let entries = try await Self.run([Self.mpv, Self.call, "heard", "simulate program call stop"])
    #expect(Self.sent(entries[1]) == ["pause mpv"])
    #expect(
      entries[1].jsonLines.suffix(2) == [
        #"{"step":2,"player":"org.mpris.MediaPlayer2.mpv","command":"pause","program":"mpv"}"#,
        #"{"step":2,"program":"mpv","stream":"muted"}"#,
      ])
    #expect(entries[2].jsonLines.last == #"{"step":3,"heard":{"mpv":0,"call":1}}"#)
    #expect(Self.sent(entries[3]) == ["play mpv"])
    let text = TranscriptText(commands: entries.map(\.command)).lines(entries[1])
    #expect(text.suffix(2) == ["     player mpv: Pause", "     program mpv: stream muted"])
    #expect(
      TranscriptText(commands: entries.map(\.command)).lines(entries[2]).last
        == "     heard: mpv 0, call 1")
  }

  @Test(
    "a program that never corks plays silence while paused: heard at 0, its stream uncorked (docs/contract.md Desktop steps)"
  )
  func neverCorks_pausedIsSilent() async throws {
    let entries = try await Self.run([
      "simulate program chromium start --binary chromium --never-corks "
        + "--player org.mpris.MediaPlayer2.chromium",
      "simulate user chromium pause", "status", "heard",
    ])
    #expect(Self.heard(entries) == ["chromium": 0])
    guard case .status(let status)? = entries[2].result.reply else {
      Issue.record("no status")
      return
    }
    // The user's pause stops its session (docs/arbiter.md "The user's word").
    #expect(status.sessions.first?.active == false)
  }

  @Test(
    "speech ducks music: heard gives the duck level, and the daemon's ducking is a stream line; espeak-ng's session is held 250 ms after its stream, so the music comes back once simulate wait has let that pass (docs/contract.md Desktop steps, docs/apps.md Speech)"
  )
  func heard_ducked() async throws {
    let entries = try await Self.run([
      Self.mpv, "simulate program espeak start --binary espeak-ng --app-name eSpeak", "heard",
      "simulate program espeak stop", "heard", "simulate wait 249ms", "heard",
      "simulate wait 1ms", "heard",
    ])
    #expect(entries[1].desktop.lines.contains(.stream(program: "mpv", .ducked)))
    #expect(Self.heard(Array(entries.prefix(3))) == ["mpv": 0.1, "espeak": 1])
    #expect(Self.heard(Array(entries.prefix(5))) == ["mpv": 0.1, "espeak": 0])
    #expect(Self.heard(Array(entries.prefix(7))) == ["mpv": 0.1, "espeak": 0])
    #expect(entries[7].desktop.lines.contains(.stream(program: "mpv", .restored)))
    #expect(Self.heard(entries) == ["mpv": 1, "espeak": 0])
  }

  @Test(
    "a server restart kills the programs without a player, which may start again, and the players open their streams again (docs/contract.md Desktop steps)"
  )
  func serverRestart_programsDieAndPlayersReopen() async throws {
    let espeak = "simulate program espeak start --binary espeak-ng --app-name eSpeak"
    let entries = try await Self.run([
      Self.mpv, espeak, "simulate server-restart", "heard", "status", espeak, "heard",
    ])
    #expect(entries.allSatisfy { $0.result.error == nil })
    #expect(Self.heard(Array(entries.prefix(4))) == ["mpv": 1, "espeak": 0])
    guard case .status(let status)? = entries[4].result.reply else {
      Issue.record("no status")
      return
    }
    #expect(status.sessions.map(\.name) == ["mpv.1000"])
    #expect(status.sessions.first?.active == true)
    // Started again, it keeps its pid, and ducks the music as before.
    #expect(entries[5].desktop.lines == [.stream(program: "mpv", .ducked)])
    #expect(Self.heard(entries) == ["mpv": 0.1, "espeak": 1])
  }

  @Test(
    "the user's play of a player we paused is the user's: the end of the call sends it nothing, and it plays on (docs/contract.md Desktop steps)"
  )
  func user_playDuringCall() async throws {
    let entries = try await Self.run([
      Self.mpv, Self.call, "simulate user mpv play", "simulate program call stop", "heard",
    ])
    #expect(Self.sent(entries[1]) == ["pause mpv"])
    #expect(Self.sent(entries[2]) == [])
    // No Play at the end of the call: the player is the user's, and plays.
    #expect(Self.sent(entries[3]) == [])
    #expect(Self.heard(entries) == ["mpv": 1, "call": 0])
  }

  @Test(
    "a daemon restart starts a new daemon with the journal the last one wrote: it plays the player paused for the call once the call ends (docs/contract.md Desktop steps)"
  )
  func daemonRestart_keepsTheJournal() async throws {
    let entries = try await Self.run([
      Self.mpv, Self.call, "simulate daemon restart", "heard", "simulate program call stop",
      "heard",
    ])
    #expect(Self.sent(entries[2]) == [])
    #expect(Self.heard(Array(entries.prefix(4))) == ["mpv": 0, "call": 1])
    #expect(Self.sent(entries[4]) == ["play mpv"])
    #expect(Self.heard(entries) == ["mpv": 1, "call": 0])
  }

  @Test(
    "explained, a command sent says why: the MPRIS rule for a session's event, the journal for a player no event names (docs/contract.md Seeing why, Desktop steps)"
  )
  func explain_sentLines() async throws {
    let entries = try await Self.run(
      [Self.mpv, Self.call, "simulate daemon restart", "simulate program call stop"],
      explain: true)
    guard case .sent(_, _, _, let pause?) = entries[1].desktop.lines.first,
      case .sent(_, _, _, let play?) = entries[3].desktop.lines.first
    else {
      Issue.record("no reasons: \(entries[1].desktop.lines), \(entries[3].desktop.lines)")
      return
    }
    #expect(pause.source.specReference == #"docs/mpris.md "What the daemon does""#)
    #expect(pause.trigger == Self.call)
    #expect(play.source.specReference == #"docs/mpris.md "A daemon that stops""#)
    #expect(play.trigger == "simulate program call stop")
    // Not explained, nothing is.
    let plain = try await Self.run([Self.mpv, Self.call])
    #expect(
      plain[1].desktop.lines.first
        == .sent(program: "mpv", bus: "org.mpris.MediaPlayer2.mpv", command: .pause, because: nil))
    #expect(plain[1].result.because.isEmpty)
  }
}
