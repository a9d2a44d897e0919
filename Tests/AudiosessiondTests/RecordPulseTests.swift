import AudioSession
import AudioSessionSystem
import AudioSessionTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `sessionctl record FILE` against a live `sessionctl daemon --backend pulse` on a private
/// PulseAudio server: real programs play (pacat, mpv with its MPRIS player on a private bus), a
/// phone call interrupts them, the daemon is asked for its record, and `sessionctl scenario run
/// FILE` replays it on the simulated backend: the replay's interruptions and player commands
/// are those `watch` saw the live daemon make (docs/contract.md "Recording what the daemon
/// saw").
@Suite(.serialized) struct RecordPulseTests {
  typealias Rig = PulseDaemonServerLossTests.Rig
  typealias Apps = AppStreamsPulseTests

  /// The lines `watch all --json` printed until it fell quiet for two seconds.
  static func drain(_ watcher: MPRISPulseTests.Watcher) -> [String] {
    var lines: [String] = []
    while let line = SessionctlProcess.readLine(watcher.launched.output, timeout: 2) {
      lines.append(line)
    }
    return lines
  }

  /// The interruptions and player commands among notification lines, without their step.
  static func decisions(_ lines: [String], sessions: [String]) -> [String] {
    lines.compactMap { line in
      let bare = line.replacing(/"step":\d+,/, with: "")
      guard sessions.contains(where: { bare.hasPrefix(#"{"session":"\#($0)""#) }),
        bare.contains(#""event":"interruption""#) || bare.contains(#""event":"player""#)
      else { return nil }
      return bare
    }
  }

  /// Records what the rig's daemon saw and replays it; returns the replay's transcript lines.
  static func recordAndReplay(_ rig: Rig) throws -> (yaml: String, replay: [String]) {
    let file = rig.folder + "/recorded.yaml"
    let recorded = try SessionctlProcess.run(["record", file, "--json", "--socket", rig.socket])
    #expect(recorded.status == 0, "\(recorded.error)")
    #expect(recorded.output.contains(#""exact":true"#), "\(recorded.output)")
    let yaml = try String(contentsOfFile: file, encoding: .utf8)
    let replay = try SessionctlProcess.run(["scenario", "run", file, "--json"])
    #expect(replay.status == 0, "\(replay.error)\n\(yaml)")
    return (yaml, replay.lines)
  }

  @Test(
    "a phone-role pacat interrupts a music pacat on the server and the record of it replays the same interruption and its end (docs/contract.md Recording what the daemon saw)"
  )
  func pacatCall_replaysTheInterruption() async throws {
    let rig = try await Rig.start(.pulseaudio)
    defer { rig.stop() }
    let watcher = try MPRISPulseTests.Watcher(rig)
    defer { watcher.stop() }
    let music = try Apps.pacat(rig, ["--property=media.role=music"])
    defer { Apps.stop(music) }
    let session = "pacat.\(music.pid)"
    try Apps.waitUntilPlaying(rig, session)
    let phone = try Apps.pacat(rig, ["--property=media.role=phone"])
    defer { Apps.stop(phone) }
    try Apps.waitFor("the music to be interrupted") {
      try Apps.session(rig, session)?["interrupted"] == .bool(true)
    }
    Apps.stop(phone)
    try Apps.waitFor("the music to be heard again") {
      try Apps.session(rig, session)?["interrupted"] == .bool(false)
    }
    let live = Self.decisions(Self.drain(watcher), sessions: [session])
    let (yaml, replay) = try Self.recordAndReplay(rig)
    #expect(yaml.contains("--role phone --app-name pacat --pid \(phone.pid)"), "\(yaml)")
    #expect(live.count == 2, "\(live)")
    #expect(Self.decisions(replay, sessions: [session]) == live, "\(yaml)")
  }

  @Test(
    "a call pauses mpv over MPRIS and plays it again; the record replays the same Pause and Play to its player (docs/contract.md Recording what the daemon saw, docs/mpris.md)"
  )
  func mpvCall_replaysThePlayerCommands() async throws {
    let setup = try await MPRISPulseTests.Setup.start(.pulseaudio)
    defer { setup.stop() }
    let watcher = try MPRISPulseTests.Watcher(setup.rig)
    defer { watcher.stop() }
    let phone = try Apps.pacat(setup.rig, ["--property=media.role=phone"])
    defer { Apps.stop(phone) }
    try Apps.waitFor("mpv to pause") { try setup.mpv.status() == "Paused" }
    Apps.stop(phone)
    try Apps.waitFor("mpv to play again") { try setup.mpv.status() == "Playing" }
    let live = Self.decisions(Self.drain(watcher), sessions: [setup.app])
    let (yaml, replay) = try Self.recordAndReplay(setup.rig)
    #expect(yaml.contains("--player \(MPRISPulseTests.player)"), "\(yaml)")
    #expect(live.filter { $0.contains(#""event":"player""#) }.count == 2, "\(live)")
    #expect(Self.decisions(replay, sessions: [setup.app]) == live, "\(yaml)")
  }
}
