import AudioSession
import AudioSessionClient
import AudioSessionSystem
import AudioSessionTestSupport
import AudioSessionWire
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Nothing lost (docs/protocol.md "The state file"): the daemon is killed mid-run; a new one keeps
/// the named sessions' configuration, and library clients reconnect by themselves, register their
/// configuration again and are told with mediaServicesWereReset.
@Suite struct DaemonRestartTests {
  @Test(
    "kill -9 mid-run: named sessions come back, clients reconnect and are told (docs/protocol.md The state file)"
  )
  func kill_daemonMidRun_nothingLost() async throws {
    let folder = try TemporaryFolder.make()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let socket = folder + "/daemon.sock"
    // Given a daemon process with a named session, and an app whose session is active
    let first = try SessionctlProcess.startDaemon(socketPath: socket)
    let named = try SessionctlProcess.run(
      ["set", "playback", "--mode", "spokenAudio", "--session", "podcast", "--socket", socket])
    #expect(named.status == 0, "\(named.error)")
    let app = try AVAudioSession(name: "app", connection: .daemon(socketPath: socket))
    let events = EventRecorder(app.events)
    try app.setCategory(.playAndRecord, mode: .voiceChat, options: .allowBluetoothHFP)
    try app.setActive(true)

    // When the daemon is killed, and calls are made while it is gone
    kill(first.processIdentifier, SIGKILL)
    first.waitUntilExit()
    events.wait { $0.contains(.mediaServicesWereLost) }
    #expect(throws: NSError.self) { try app.setActive(true) }
    let second = try SessionctlProcess.startDaemon(socketPath: socket)
    defer {
      second.terminate()
      second.waitUntilExit()
    }

    // Then the app is told the media services were lost and reset, in that order
    let recorded = events.wait { $0.contains(.mediaServicesWereReset) }
    #expect(recorded == [.mediaServicesWereLost, .mediaServicesWereReset])
    // and its configuration is registered again (inactive, as on iOS after a reset)
    #expect(app.category == .playAndRecord)
    #expect(app.mode == .voiceChat)
    #expect(app.categoryOptions == .allowBluetoothHFP)
    #expect(!app.isActive)
    try app.setActive(true)
    // and the named session is back with its configuration
    let status = try SessionctlProcess.run(["status", "--json", "--socket", socket])
    #expect(status.status == 0)
    #expect(status.output.contains(#""podcast":{"category":"playback","mode":"spokenAudio""#))
    #expect(status.output.contains(#""app":{"category":"playAndRecord","mode":"voiceChat""#))
    app.invalidate()
  }
}
