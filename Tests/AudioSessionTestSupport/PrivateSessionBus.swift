package import AudioSessionSystem
import AudioSessionWire
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A private D-Bus session bus (`dbus-daemon --session --nofork`) on a socket in a folder of its
/// own, stopped by its PID (docs/mpris.md "Testing"); it can be restarted on the same address.
package final class PrivateSessionBus: @unchecked Sendable {
  package let folder: String
  package var address: String { "unix:path=\(folder)/bus" }
  package private(set) var daemon: ChildProcess

  package init() throws {
    folder = try TemporaryFolder.make()
    daemon = try Self.spawn(folder: folder)
  }

  private static func spawn(folder: String) throws -> ChildProcess {
    let child = try ChildProcess.spawn(
      "/usr/bin/dbus-daemon",
      arguments: ["--session", "--nofork", "--nopidfile", "--address=unix:path=\(folder)/bus"])
    let deadline = Date(timeIntervalSinceNow: 10)
    while Date() < deadline {
      var info = stat()
      if stat(folder + "/bus", &info) == 0 { return child }
      usleep(10_000)
    }
    child.end(SIGTERM)
    throw ConnectionFailure("dbus-daemon did not create \(folder)/bus")
  }

  /// Stops the bus (every connection to it ends).
  package func kill() {
    daemon.end(SIGTERM)
    unlink(folder + "/bus")
  }

  /// Starts a new bus on the same address.
  package func restart() throws {
    kill()
    daemon = try Self.spawn(folder: folder)
  }

  package func stop() {
    kill()
    try? FileManager.default.removeItem(atPath: folder)
  }
}

/// `mpv` with the mpv-mpris plugin, playing a generated tone to a PulseAudio server and
/// publishing its MPRIS player on a bus; `playerctl` reads the player's own status.
package struct MPVPlayer {
  package let process: ChildProcess
  package let environment: [String: String]

  package init(process: ChildProcess, environment: [String: String]) {
    self.process = process
    self.environment = environment
  }

  package static let plugin = "/usr/lib/mpv-mpris/mpris.so"

  /// `role`: its stream's `media.role` (PULSE_PROP), none by default. `pipeWire`: the runtime
  /// folder of a PipeWire server, to play through its native output (`--ao=pipewire`) as on a
  /// desktop, instead of PulseAudio's protocol.
  package static func start(
    pulse: [String: String], bus: String, role: String? = nil, pipeWire: String? = nil
  ) throws -> MPVPlayer {
    var environment = ProcessInfo.processInfo.environment.merging(pulse) { $1 }
    environment["PULSE_PROP"] = role.map { "media.role=\($0)" }
    environment["DBUS_SESSION_BUS_ADDRESS"] = bus
    if let pipeWire {
      environment["XDG_RUNTIME_DIR"] = pipeWire
      environment["PIPEWIRE_REMOTE"] = nil
    }
    let process = try ChildProcess.spawn(
      "/usr/bin/mpv",
      arguments: [
        "--no-config", "--no-video", "--no-terminal",
        pipeWire == nil ? "--ao=pulse" : "--ao=pipewire", "--loop-file=inf",
        // A generated tone (FFmpeg's lavfi source): no file to write.
        "--script=\(plugin)", "av://lavfi:sine=frequency=440",
      ], environment: environment, newProcessGroup: true)
    return MPVPlayer(process: process, environment: environment)
  }

  /// The player's own `PlaybackStatus` (`playerctl --player=mpv status`), or nil when there is
  /// no such player. A second mpv on the same bus is `mpv.instance<PID>` (mpv-mpris 0.7.1).
  package func status(player: String = "mpv") throws -> String? {
    let path = NSTemporaryDirectory() + "playerctl-\(UUID().uuidString).txt"
    defer { try? FileManager.default.removeItem(atPath: path) }
    let child = try ChildProcess.spawn(
      "/usr/bin/playerctl", arguments: ["--player=\(player)", "status"], environment: environment,
      output: .appending(path), error: .null)
    guard child.waitForExit(seconds: 10), child.exitStatus == 0 else { return nil }
    let text = String(decoding: Data(ProcFile.bytes(path) ?? []), as: UTF8.self)
    return text.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// Runs `playerctl --player=mpv COMMAND` (the user's own pause or play).
  package func control(_ command: String) throws {
    let child = try ChildProcess.spawn(
      "/usr/bin/playerctl", arguments: ["--player=mpv", command], environment: environment)
    #expect(child.waitForExit(seconds: 10) && child.exitStatus == 0, "playerctl \(command)")
  }

  package func stop() { process.end(SIGTERM) }
}
