import AudioSession
import AudioSessionPulse
import AudioSessionSystem
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A server that restarts while the daemon has a program's stream muted: the server's memory of
/// streams (PulseAudio's module-stream-restore, WirePlumber's restore-stream) saved the daemon's
/// mute under the stream's role, and after the restart gave it to every new stream of that role,
/// outlasting the daemon (docs/apps.md "On the server": the server's memory of streams).
@Suite(.serialized) struct ServerRestartMutePulseTests {
  typealias Rig = PulseDaemonServerLossTests.Rig
  typealias Apps = AppStreamsPulseTests

  /// How the server goes: killed (SIGKILL by its PID, as a crash) or stopped cleanly (SIGTERM),
  /// then started again at the same address.
  enum Restart: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case killed, stopped
    var testDescription: String { rawValue }
  }

  /// Whether a new music `pacat` on the rig's server plays unmuted once the server's memory of
  /// streams had its moment to act (PulseAudio sets it as the stream is made; WirePlumber a
  /// moment after it appears).
  static func newMusicStreamMuted(_ rig: Rig, daemonRuns: Bool) throws -> Bool? {
    let music = try Apps.pacat(rig, ["--property=media.role=music"])
    defer { Apps.stop(music) }
    if daemonRuns {
      try Apps.waitUntilPlaying(rig, "pacat.\(music.pid)")
    } else {
      try Apps.waitFor("the new stream on the server") {
        try Apps.pacatStream(rig, pid: music.pid) != nil
      }
    }
    usleep(500_000)
    return try Apps.pacatStream(rig, pid: music.pid)?.muted
  }

  @Test(
    "a server that restarts while the daemon mutes a music program does not keep that mute for the role: the next music stream starts unmuted, with the daemon and after it (docs/apps.md On the server)",
    arguments: PulseDaemonServerLossTests.Kind.allCases, Restart.allCases)
  func serverRestart_whileMuted_nextStreamUnmuted(
    kind: PulseDaemonServerLossTests.Kind, restart: Restart
  ) async throws {
    let rig = try await Rig.start(kind)
    defer { rig.stop() }
    // Given a music program that a podcast interrupts: the daemon mutes its stream
    let music = try Apps.pacat(rig, ["--property=media.role=music"])
    defer { Apps.stop(music) }
    try Apps.waitUntilPlaying(rig, "pacat.\(music.pid)")
    try Apps.play(rig, "podcast", ["playback", "--mode", "spokenAudio"])
    try Apps.waitFor("the music to be muted") {
      try Apps.pacatStream(rig, pid: music.pid)?.muted == true
    }
    // (WirePlumber saves a stream's change a moment after it; PulseAudio at once)
    usleep(500_000)
    // When the server goes, killed or stopped, and comes back (the music program dies with it)
    if restart == .killed { rig.server.kill() }
    try rig.server.restart()
    Apps.stop(music, signal: SIGKILL)
    try Apps.waitFor("the daemon to connect again") {
      try rig.serverState()?["state"] == .string("connected")
    }
    // Then a new music program starts unmuted while the daemon runs
    #expect(try Self.newMusicStreamMuted(rig, daemonRuns: true) == false)
    // and once the daemon has stopped, the next one too: the server keeps no mute of ours
    rig.daemon.terminate()
    rig.daemon.waitUntilExit()
    #expect(try Self.newMusicStreamMuted(rig, daemonRuns: false) == false)
  }
}
