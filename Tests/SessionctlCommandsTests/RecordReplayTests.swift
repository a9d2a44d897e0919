import AudioSession
import AudioSessionArbiter
import AudioSessionArbiterTestSupport
import AudioSessionScenario
import AudioSessionTestSupport
import AudioSessionWire
import Testing

@testable import SessionctlCommands

/// What a daemon saw, recorded beside its arbiter, written as a scenario, read back by the
/// scenario parser and replayed on the simulated backend: the replay decides what the daemon
/// decided (docs/contract.md "Recording what the daemon saw").
@Suite struct RecordReplayTests {
  /// Records a history, replays it, and checks both sides decided alike; returns the record.
  @discardableResult
  static func check(_ history: String, limit: Int = DesktopRecorder.defaultLimit) async throws
    -> DesktopRecording
  {
    let desktop = try await RecordReplay.act(RecordReplay.codes(history), limit: limit)
    let recording = try #require(desktop.recorder).recording()
    let entries = try await RecordReplay.replay(recording)
    let replayed = RecordReplay.decisions(entries, setupSteps: recording.setupSteps)
    let live = RecordReplay.decisions(desktop)
    #expect(
      replayed == live,
      "\(history)\n--- file\n\(RecordReplay.yaml(recording))--- live\n\(live)\n--- replay\n\(replayed)"
    )
    return recording
  }

  /// The step lines of a record, as the file writes them.
  static func lines(_ recording: DesktopRecording) -> [String] {
    recording.steps.filter { !$0.words.isEmpty }.map {
      ScenarioWriter.line(session: $0.session, words: $0.words)
    }
  }

  @Test(
    "a call pauses the music and plays it again: the record starts the programs, and the replay sends the same Pause and Play (docs/contract.md Recording what the daemon saw)"
  )
  func call_pausesAndPlaysTheMusic() async throws {
    let recording = try await Self.check("start mpv,start phone,stop phone")
    #expect(
      Self.lines(recording) == [
        "simulate program mpv start --binary mpv --role music --pid 900 --player "
          + "org.mpris.MediaPlayer2.mpv",
        "simulate program pacat start --binary pacat --role phone --pid 700",
        "simulate program pacat stop",
      ])
    #expect(recording.isExact)
    #expect(recording.steps[1].decided.contains("player org.mpris.MediaPlayer2.mpv: Pause"))
  }

  @Test(
    "a player that keeps its stream uncorked while paused is started with --never-corks, learnt from its pause, and the user's pause and play are the user's steps (docs/contract.md Recording what the daemon saw, Desktop steps)"
  )
  func chromium_neverCorks() async throws {
    let recording = try await Self.check(
      "start chromium,pause chromium,play chromium,start phone,stop phone")
    let lines = Self.lines(recording)
    #expect(lines.first?.contains("--never-corks") == true, "\(lines)")
    #expect(lines.contains("simulate user chromium pause"))
    #expect(lines.contains("simulate user chromium play"))
  }

  @Test(
    "speech held after its last stream goes once its hold has passed: the record waits as long, and the replay's session goes at the same step (docs/contract.md Recording what the daemon saw, docs/apps.md Speech)"
  )
  func speech_holdIsAWait() async throws {
    let recording = try await Self.check("start mpv,start espeak,stop espeak,wait,start beep")
    #expect(Self.lines(recording).contains { $0.hasPrefix("simulate wait ") })
  }

  @Test(
    "a daemon that starts while programs play sets them up first, with the daemon stopped, and starts as the daemon did (docs/contract.md Recording what the daemon saw)"
  )
  func restart_foundProgramsAreSetUp() async throws {
    let recording = try await Self.check(
      "start chromium,pause chromium,start mpv,daemon,start phone,stop phone")
    let lines = Self.lines(recording)
    #expect(recording.setupSteps == 4, "\(lines)")
    #expect(lines.contains { $0.contains("--pid 800 --never-corks") && $0.hasSuffix("--paused") })
    #expect(lines.first == "simulate daemon stop")
    #expect(lines[recording.setupSteps - 1].hasPrefix("simulate daemon start"))
    #expect(recording.isExact)
  }

  @Test(
    "a player a new daemon plays again from a previous daemon's journal plays of its own accord in the record, so the replay decides the next call as the daemon did (docs/contract.md Recording what the daemon saw)"
  )
  func restart_journalPlay_isThePlayersOwn() async throws {
    let desktop = try await RecordReplay.act(
      RecordReplay.codes("start mpv,start phone,daemon,stop phone,start phone,stop phone"))
    let recording = try #require(desktop.recorder).recording()
    let lines = Self.lines(recording)
    let stop = try #require(lines.firstIndex(of: "simulate program pacat stop"), "\(lines)")
    #expect(lines.dropFirst(stop + 1).first == "simulate program mpv play", "\(lines)")
    let live = RecordReplay.decisions(desktop)
    // The live daemon's first command is the journal's Play, which the replay's cannot send.
    #expect(live.sent.first == "play org.mpris.MediaPlayer2.mpv", "\(live)")
    let replayed = RecordReplay.decisions(
      try await RecordReplay.replay(recording), setupSteps: recording.setupSteps)
    #expect(replayed.sent == Array(live.sent.dropFirst()), "live\n\(live)\nreplay\n\(replayed)")
    #expect(
      replayed.sent.suffix(2) == [
        "pause org.mpris.MediaPlayer2.mpv", "play org.mpris.MediaPlayer2.mpv",
      ])
  }

  @Test(
    "a daemon that starts with players a previous daemon paused says the replay cannot start from them (docs/contract.md Recording what the daemon saw)"
  )
  func restart_withAJournal_isNotExact() async throws {
    let desktop = try await RecordReplay.act(
      RecordReplay.codes("start mpv,start phone,daemon,stop phone"))
    let recording = try #require(desktop.recorder).recording()
    #expect(!recording.isExact)
    #expect(recording.notes.contains { $0.contains("org.mpris.MediaPlayer2.mpv") })
  }

  @Test(
    "the audio server lost and back is media-services lost and reset, the players' streams opening again (docs/contract.md Recording what the daemon saw, Desktop steps)"
  )
  func serverRestart_isLostAndReset() async throws {
    let recording = try await Self.check("start mpv,start phone,server,start aplay,stop aplay")
    let lines = Self.lines(recording)
    #expect(lines.contains("simulate media-services lost"))
    #expect(lines.contains("simulate media-services reset"))
  }

  @Test(
    "a player the daemon told to play while the server was lost opens its stream paused, then obeys: the record opens it as the replay's, which has obeyed, and nothing it had paused for it is played (docs/contract.md Recording what the daemon saw, Desktop steps)"
  )
  func serverLost_playerOpensBeforeObeying() async throws {
    let recording = try await Self.check("start chromium,start mpv,start phone,server")
    let lines = Self.lines(recording)
    #expect(!lines.contains("simulate program mpv pause"), "\(lines)")
    #expect(lines.contains("simulate program mpv open"), "\(lines)")
  }

  @Test(
    "a player's stream that corks while its player says Playing is a stall, not a pause: the record stalls it, and the replay plays nothing in its place (docs/contract.md Recording what the daemon saw, docs/mpris.md A cork while the player plays)"
  )
  func corkWhilePlaying_isAStall() async throws {
    let recording = try await Self.check(
      "start chromium,start mpv,stall mpv,start phone,stop phone")
    let lines = Self.lines(recording)
    #expect(lines.contains("simulate program mpv stall"), "\(lines)")
    #expect(!lines.contains("simulate program mpv pause"), "\(lines)")
  }

  @Test(
    "a record kept to its limit is cut: the file says so, and starts from the desktop as it was after the steps cut (docs/contract.md Recording what the daemon saw)"
  )
  func limit_cutsTheOldestSteps() async throws {
    let desktop = try await RecordReplay.act(
      RecordReplay.codes(
        "start mpv,start aplay,stop aplay,start aplay,stop aplay,start aplay,stop aplay,"
          + "start beep,stop beep,start aplay"),
      limit: 4)
    let recording = try #require(desktop.recorder).recording()
    #expect(recording.cut > 0)
    #expect(!recording.isExact)
    #expect(recording.steps.count - recording.setupSteps <= 4 + 1)
    let lines = Self.lines(recording)
    #expect(lines.first == "simulate daemon stop", "\(lines)")
    #expect(lines.contains { $0.hasPrefix("simulate program mpv start") })
    // It parses and runs.
    _ = try await RecordReplay.replay(recording)
  }

  @Test(
    "apps' own sessions: a client's open, its calls and its leaving are the session's steps, a device plugged and unplugged on the server is simulate plug and unplug (docs/contract.md Recording what the daemon saw)"
  )
  func clientsAndDevices_areSteps() async throws {
    var desktop = try await Desktop.start(recording: true)
    desktop.feed(.players(.snapshot([])))
    desktop.feed(.streams(.snapshot([])))
    let client = ConnectionID(rawValue: 1)
    desktop.feed(.connected(client, PeerCredentials(pid: 4321, uid: 1000, gid: 1000)))
    for (id, operation) in [
      (1, DaemonRequest.Operation.open(session: "podcast")),
      (
        2,
        .command(
          .input(
            .setCategory(session: "podcast", category: .playback, mode: .spokenAudio, options: [])))
      ),
      (3, .command(.input(.setActive(session: "podcast", active: true, options: [])))),
      (4, .command(.input(.startIO(session: "podcast")))),
      // Refused: the session 'ghost' does not exist, and nothing is made of it.
      (5, .command(.input(.setMode(session: "ghost", mode: .voiceChat)))),
    ] {
      desktop.feed(.request(DaemonRequest(id: id, operation), from: client, now: 0))
    }
    let catalog = try TestPolicies.table().devices
    let headphones = Device(preset: try #require(catalog.presets["headphones"]), uid: "alsa-jack")
    desktop.feed(.backend(.deviceConnected(headphones)))
    desktop.feed(.backend(.deviceDisconnected(uid: "alsa-jack")))
    desktop.feed(.disconnected(client))
    let recording = try #require(desktop.recorder).recording()
    #expect(
      Self.lines(recording) == [
        "podcast route", "podcast set playback --mode spokenAudio", "podcast activate",
        "podcast play", "simulate plug headphones", "simulate unplug headphones-1",
        "podcast remove",
      ])
    #expect(
      recording.steps.contains { $0.comment?.hasPrefix("refused: ghost mode voiceChat") == true })
    let entries = try await RecordReplay.replay(recording)
    #expect(
      RecordReplay.decisions(entries, setupSteps: 0) == RecordReplay.decisions(desktop))
  }
}
