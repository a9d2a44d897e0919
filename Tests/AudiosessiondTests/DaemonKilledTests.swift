import AudioSession
import AudioSessionPulse
import AudioSessionSystem
import AudioSessionTestSupport
import AudioSessionWire
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A daemon killed (SIGKILL, a crash) while it has other programs' streams muted or ducked: the
/// next daemon on the same socket undoes it, on the streams still there and, for a stream that
/// went meanwhile, in the server's stream database, so that the program's next stream does not
/// start muted (docs/apps.md "A daemon that was killed"). Checked on the server's own view.
@Suite(.serialized) struct DaemonKilledTests {
  typealias Rig = PulseDaemonServerLossTests.Rig
  typealias Apps = AppStreamsPulseTests

  /// Kills the running daemon with SIGKILL (nothing of it runs after) and starts another on the
  /// same socket; returns it once it listens.
  static func killAndRestart(_ rig: Rig, _ daemon: Process) throws -> Process {
    kill(daemon.processIdentifier, SIGKILL)
    daemon.waitUntilExit()
    return try launch(rig)
  }

  /// Starts a daemon on the rig's socket; returns it once it listens.
  static func launch(_ rig: Rig) throws -> Process {
    let launched = try SessionctlProcess.launch(
      ["daemon", "--backend", "pulse", "--socket", rig.socket, "--no-mpris"],
      environment: rig.environment)
    var listening = false
    while !listening, let line = SessionctlProcess.readLine(launched.error) {
      listening = line.contains("listening on")
    }
    if !listening {
      launched.process.terminate()
      launched.process.waitUntilExit()
      throw ConnectionFailure("the second daemon never said it listens on \(rig.socket)")
    }
    return launched.process
  }

  /// Waits until the daemon's changes file holds `marker` (it is written 50 ms after a
  /// decision: a daemon killed before leaves that decision's changes, as documented).
  static func waitForChangesFile(_ rig: Rig, holding marker: String) throws {
    let path = WireProtocol.defaultChangesPath(socketPath: rig.socket)
    try Apps.waitFor("the changes file to hold \(marker)") {
      guard let data = ProcFile.bytes(path).map({ Data($0) }) else { return false }
      return String(decoding: data, as: UTF8.self).contains(marker)
    }
  }

  @Test(
    "a daemon killed the moment its command returns leaves nothing muted: the changes file lists a mute before the mute is sent, and the next daemon's status matches the server (docs/apps.md \"A daemon that was killed\")",
    arguments: PulseDaemonServerLossTests.Kind.allCases)
  func killedRightAfterTheMute(kind: PulseDaemonServerLossTests.Kind) async throws {
    let rig = try await Rig.start(kind)
    defer { rig.stop() }
    var daemon = rig.daemon
    defer {
      daemon.terminate()
      daemon.waitUntilExit()
    }
    let music = try Apps.pacat(rig, ["--property=media.role=music"])
    defer { Apps.stop(music) }
    let app = "pacat.\(music.pid)"
    try Apps.waitUntilPlaying(rig, app)
    // The podcast's play interrupts the music (its mute is sent before the reply); the daemon
    // is killed as soon as the command returns, well within the 50 ms a later write waits.
    try rig.run(["set", "playback", "--session", "podcast"])
    let sessionctl = SessionctlProcess.executable
    // A round proves something only when the mute reached the server before the kill (the
    // request may still wait in the daemon when the kill comes, on a busy machine): up to five.
    var muted = false
    for _ in 0..<5 where !muted {
      let activateAndKill = try ChildProcess.spawn(
        "/bin/sh",
        arguments: [
          "-c", "\"$0\" activate --session podcast --socket \"$1\" && kill -9 \"$2\"",
          sessionctl, rig.socket, "\(daemon.processIdentifier)",
        ], environment: ProcessInfo.processInfo.environment.merging(rig.environment) { $1 })
      #expect(activateAndKill.waitForExit(seconds: 10))
      daemon.waitUntilExit()
      let deadline = Date(timeIntervalSinceNow: 1)
      while !muted, Date() < deadline {
        muted = try Apps.pacatStream(rig, pid: music.pid)?.muted == true
        if !muted { usleep(50_000) }
      }
      daemon = try Self.killAndRestart(rig, daemon)
      try Apps.waitFor("the next daemon to leave the music unmuted") {
        try Apps.pacatStream(rig, pid: music.pid)?.muted == false
      }
    }
    #expect(muted, "the mute never reached the server before the kill, in five rounds")
    usleep(300_000)
    #expect(try Apps.pacatStream(rig, pid: music.pid)?.muted == false)
    // What the next daemon says is what the server has.
    try Apps.waitUntilPlaying(rig, app)
    #expect(try Apps.session(rig, app)?["muted"] == .bool(false))
  }

  /// Starts a daemon on the rig's socket; returns it once it listens, with what it logged until
  /// then.
  static func launchLogging(_ rig: Rig) throws -> (Process, [String]) {
    let launched = try SessionctlProcess.launch(
      ["daemon", "--backend", "pulse", "--socket", rig.socket, "--no-mpris"],
      environment: rig.environment)
    var lines: [String] = []
    while let line = SessionctlProcess.readLine(launched.error) {
      lines.append(line)
      if line.contains("listening on") { return (launched.process, lines) }
    }
    launched.process.terminate()
    launched.process.waitUntilExit()
    throw ConnectionFailure("the second daemon never said it listens on \(rig.socket)")
  }

  enum Damage: String, CaseIterable, Sendable { case cut, flipped }

  @Test(
    "a changes file and intent file cut short or with bytes flipped are moved aside as they were, never removed, and the stream that can still be read of them is unmuted, with a warning (docs/apps.md \"A daemon that was killed\")",
    arguments: Damage.allCases)
  func damagedChangesFile_isMovedAsideAndUndone(damage: Damage) async throws {
    let rig = try await Rig.start(.pulseaudio)
    defer { rig.stop() }
    var daemon = rig.daemon
    defer {
      daemon.terminate()
      daemon.waitUntilExit()
    }
    let music = try Apps.pacat(rig, ["--property=media.role=music"])
    defer { Apps.stop(music) }
    try Apps.waitUntilPlaying(rig, "pacat.\(music.pid)")
    try Apps.play(rig, "podcast", ["playback", "--mode", "spokenAudio"])
    try Apps.waitFor("the stream to be muted") {
      try Apps.pacatStream(rig, pid: music.pid)?.muted == true
    }
    try Self.waitForChangesFile(rig, holding: "\"muted\":true")
    kill(daemon.processIdentifier, SIGKILL)
    daemon.waitUntilExit()
    // Both files damaged, so that only what still reads of the changes file can undo the mute.
    let path = WireProtocol.defaultChangesPath(socketPath: rig.socket)
    let intentPath = path + ".intent"
    var changes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    var intents = Array(try Data(contentsOf: URL(fileURLWithPath: intentPath)))
    #expect(!intents.isEmpty)
    switch damage {
    case .cut:
      changes.removeLast(3)
      intents.removeLast(intents.count / 2 + 1)
    case .flipped:
      for index in [1, 2, 5] { changes[index] ^= 0x5A }
      for index in intents.indices where index == 0 || intents[index - 1] == UInt8(ascii: "\n") {
        intents[index] ^= 0x5A
      }
    }
    try Data(changes).write(to: URL(fileURLWithPath: path))
    try Data(intents).write(to: URL(fileURLWithPath: intentPath))
    let (next, log) = try Self.launchLogging(rig)
    daemon = next
    try Apps.waitFor("the next daemon to unmute it") {
      try Apps.pacatStream(rig, pid: music.pid)?.muted == false
    }
    // Kept aside, byte for byte.
    let files = try FileManager.default.contentsOfDirectory(atPath: rig.folder)
    let changesAside = try #require(files.first { $0.hasPrefix("other-streams.json.bad-") })
    let intentsAside = try #require(files.first { $0.contains("other-streams.json.intent.bad-") })
    #expect(
      try Data(contentsOf: URL(fileURLWithPath: rig.folder + "/" + changesAside)) == Data(changes))
    #expect(
      try Data(contentsOf: URL(fileURLWithPath: rig.folder + "/" + intentsAside)) == Data(intents))
    let warnings = log.filter { $0.contains("is damaged (cut short or altered); moved aside") }
    #expect(warnings.count == 2, "\(log)")
  }

  @Test(
    "a killed daemon's mute, ducking, and mute of a stream that went are undone by the next daemon (docs/apps.md)",
    arguments: PulseDaemonServerLossTests.Kind.allCases)
  func killedDaemonUndone(kind: PulseDaemonServerLossTests.Kind) async throws {
    let rig = try await Rig.start(kind)
    defer { rig.stop() }
    // A desktop server remembers each program's last volume and mute (the rig's pulseaudio
    // through module-stream-restore, pipewire-pulse through WirePlumber).
    var daemon = rig.daemon
    defer {
      daemon.terminate()
      daemon.waitUntilExit()
    }
    let first = try Apps.pacat(rig, ["--property=media.role=music"])
    defer { Apps.stop(first) }
    try Apps.waitUntilPlaying(rig, "pacat.\(first.pid)")
    let original = try #require(try Apps.pacatStream(rig, pid: first.pid))

    // Muted (a podcast interrupts it), then the daemon is killed: it stays muted until the
    // next daemon starts, which unmutes it.
    try Apps.play(rig, "podcast", ["playback", "--mode", "spokenAudio"])
    try Apps.waitFor("the stream to be muted") {
      try Apps.pacatStream(rig, pid: first.pid)?.muted == true
    }
    try Self.waitForChangesFile(rig, holding: "\"muted\":true")
    // Only its user may read it, as the state file (docs/protocol.md "The socket").
    var info = stat()
    stat(WireProtocol.defaultChangesPath(socketPath: rig.socket), &info)
    #expect(UInt32(info.st_mode) & 0o777 == 0o600)
    daemon = try Self.killAndRestart(rig, daemon)
    try Apps.waitFor("the next daemon to unmute it") {
      try Apps.pacatStream(rig, pid: first.pid)?.muted == false
    }

    // Ducked (a prompt), then killed: the next daemon gives it its volumes back exactly.
    try Apps.play(rig, "nav", ["playback", "--options", "duckOthers"])
    try Apps.waitFor("the stream to be ducked") {
      try Apps.pacatStream(rig, pid: first.pid)?.volumes.allSatisfy {
        $0 < original.volumes[0] / 2
      } == true
    }
    try Self.waitForChangesFile(rig, holding: "\"ducked\":")
    daemon = try Self.killAndRestart(rig, daemon)
    try Apps.waitFor("the next daemon to give its volumes back") {
      try Apps.pacatStream(rig, pid: first.pid)?.volumes == original.volumes
    }

    // Muted, then the daemon is killed and the program quits before the next daemon starts:
    // the server's stream database kept the mute for the program's role; the next daemon
    // writes the entry back, so the program's next stream is heard.
    try Apps.play(rig, "podcast")
    try Apps.waitFor("the stream to be muted again") {
      try Apps.pacatStream(rig, pid: first.pid)?.muted == true
    }
    try Self.waitForChangesFile(rig, holding: "\"muted\":true")
    kill(daemon.processIdentifier, SIGKILL)
    daemon.waitUntilExit()
    Apps.stop(first)
    daemon = try Self.killAndRestart(rig, daemon)
    // The stream database is written back asynchronously; give it the round trip.
    _ = try Apps.pactl(rig, ["info"])
    let next = try Apps.pacat(rig, ["--property=media.role=music"])
    defer { Apps.stop(next) }
    try Apps.waitUntilPlaying(rig, "pacat.\(next.pid)")
    // On PipeWire the entry reaches WirePlumber, which restores streams, a moment after
    // pipewire-pulse answers: the new stream may start with the old entry (seen in CI runs), and
    // the daemon's inheritance watch then unmutes it. Without the file it stays muted.
    try Apps.waitFor("the program's next stream to be heard") {
      try Apps.pacatStream(rig, pid: next.pid).map { !$0.muted && $0.volumes == original.volumes }
        == true
    }
    let stream = try #require(try Apps.pacatStream(rig, pid: next.pid))
    #expect(!stream.muted)
    #expect(stream.volumes == original.volumes, "\(stream.volumes)")
    #expect(!FileManager.default.fileExists(atPath: rig.folder + "/other-streams.json.tmp"))
  }

  /// Starts a music pacat, waits until the daemon has it as a playing app session, and mutes it
  /// by a podcast's interruption; returns it.
  static func mutedMusic(_ rig: Rig) throws -> ChildProcess {
    let music = try Apps.pacat(rig, ["--property=media.role=music"])
    try Apps.waitUntilPlaying(rig, "pacat.\(music.pid)")
    try Apps.play(rig, "podcast", ["playback", "--mode", "spokenAudio"])
    try Apps.waitFor("the music to be muted") {
      try Apps.pacatStream(rig, pid: music.pid)?.muted == true
    }
    return music
  }

  /// A new music pacat with no daemon running: what the server's memory gives it, once the
  /// server (WirePlumber, on PipeWire) has had a second to restore it.
  static func nextStreamMuted(_ rig: Rig) throws -> Bool? {
    let next = try Apps.pacat(rig, ["--property=media.role=music"])
    defer { Apps.stop(next) }
    try Apps.waitFor("the next stream to appear") {
      try Apps.pacatStream(rig, pid: next.pid) != nil
    }
    usleep(1_000_000)
    return try Apps.pacatStream(rig, pid: next.pid)?.muted
  }

  @Test(
    "a program killed while muted, as the daemon stops or after the daemon was killed, leaves no mute in the server's memory: its next stream is heard with no daemon running (docs/apps.md \"WirePlumber 0.5 keeps a mute\")",
    arguments: PulseDaemonServerLossTests.Kind.allCases)
  func programKilledWhileMuted(kind: PulseDaemonServerLossTests.Kind) async throws {
    let rig = try await Rig.start(kind)
    defer { rig.stop() }
    var daemon: Process? = rig.daemon
    defer {
      daemon?.terminate()
      daemon?.waitUntilExit()
    }
    // Killed, then the daemon stopped at once: it sees the program's stream go, or undoes the
    // mute of a stream whose program is dead, in either order. Twice: pipewire-pulse takes an
    // undo sent to a stream that is going about one time in six, by chance.
    for round in 0..<2 {
      let running = try daemon ?? Self.launch(rig)
      daemon = running
      let music = try Self.mutedMusic(rig)
      kill(music.pid, SIGKILL)
      running.terminate()
      running.waitUntilExit()
      daemon = nil
      Apps.stop(music)
      #expect(
        try Self.nextStreamMuted(rig) == false, "round \(round): killed as the daemon stopped")
    }
    // The daemon killed first, the program after: the next daemon finds the stream gone in the
    // changes file, and repairs the server's memory before it stops.
    var running = try Self.launch(rig)
    daemon = running
    let music = try Self.mutedMusic(rig)
    try Self.waitForChangesFile(rig, holding: "\"muted\":true")
    kill(running.processIdentifier, SIGKILL)
    running.waitUntilExit()
    Apps.stop(music, signal: SIGKILL)
    running = try Self.launch(rig)
    daemon = running
    // The next daemon's repair runs as it starts; its stop waits for it.
    _ = try rig.run(["status"])
    running.terminate()
    running.waitUntilExit()
    daemon = nil
    #expect(try Self.nextStreamMuted(rig) == false, "after a killed daemon")
  }
}
