import AudioSession
import AudioSessionDaemonTestSupport
import AudioSessionSystem
import AudioSessionTestSupport
import AudioSessionWire
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `sessionctl watch` outlives the daemon (docs/contract.md "watch … streams notifications until
/// interrupted"; docs/protocol.md "Sessions, owners and lifetime"): when the daemon stops it says
/// so, waits for a daemon on the same socket, says when one is back, and watches again.
@Suite struct WatchReconnectTests {
  static let routeToHeadphones =
    #"{"session":"music","event":"routeChange","reason":"newDeviceAvailable","previousRoute":{"inputs":[],"outputs":[{"portType":"builtInSpeaker","portName":"Speaker","uid":"builtin-speaker"}]},"currentRoute":{"inputs":[],"outputs":[{"portType":"headphones","portName":"Headphones","uid":"headphones-1"}]}}"#

  @Test(
    "watch all --json: the daemon is killed and restarted on the same socket; watch says so and prints the route change that follows (docs/protocol.md Sessions, owners and lifetime)"
  )
  func watch_daemonKilledAndRestarted_reconnectsAndKeepsPrinting() throws {
    let folder = try TemporaryFolder.make()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let socket = folder + "/daemon.sock"
    // Given a daemon process holding a named session, and a watcher
    let first = try SessionctlProcess.startDaemon(socketPath: socket)
    #expect(
      try SessionctlProcess.run(["set", "playback", "--session", "music", "--socket", socket])
        .status == 0)
    let launched = try SessionctlProcess.launch(["watch", "all", "--json", "--socket", socket])
    let watcher = launched.process
    defer {
      watcher.terminate()
      watcher.waitUntilExit()
    }
    #expect(
      SessionctlProcess.readLine(launched.error)
        == "sessionctl: watching all on \(socket); Ctrl-C stops")
    // When the daemon is killed
    kill(first.processIdentifier, SIGKILL)
    first.waitUntilExit()
    // Then the watcher says the media services were lost, and keeps running
    #expect(SessionctlProcess.readLine(launched.output) == #"{"event":"mediaServicesWereLost"}"#)
    #expect(watcher.isRunning)
    // When a new daemon starts on the same socket (it restores the named session)
    let second = try SessionctlProcess.startDaemon(socketPath: socket)
    defer {
      second.terminate()
      second.waitUntilExit()
    }
    // Then the watcher says they were reset, once subscribed again
    #expect(SessionctlProcess.readLine(launched.output) == #"{"event":"mediaServicesWereReset"}"#)
    // and prints the notifications of the new daemon
    #expect(
      try SessionctlProcess.run(["simulate", "plug", "headphones", "--socket", socket]).status
        == 0)
    #expect(SessionctlProcess.readLine(launched.output) == Self.routeToHeadphones)
    #expect(watcher.isRunning)
  }

  @Test(
    "watch in text: the daemon stops and comes back, and watch says both in sentences (docs/protocol.md Sessions, owners and lifetime)"
  )
  func watch_text_daemonStopsAndReturns_saysSo() async throws {
    let daemon = try await DaemonHarness.start()
    let socket = daemon.socketPath
    let launched = try SessionctlProcess.launch(["watch", "interruptions", "--socket", socket])
    let watcher = launched.process
    defer {
      watcher.terminate()
      watcher.waitUntilExit()
    }
    _ = SessionctlProcess.readLine(launched.error)
    // When the daemon stops, and another starts on the same socket
    await daemon.stop(keepFolder: true)
    #expect(
      SessionctlProcess.readLine(launched.output)
        == "the audio session daemon stopped (mediaServicesWereLost); waiting for it to come back"
    )
    let again = try await DaemonHarness.start(folder: daemon.folder)
    // Then watch says it is back and watches interruptions again
    #expect(
      SessionctlProcess.readLine(launched.output)
        == "the audio session daemon restarted (mediaServicesWereReset); watching interruptions "
        + "again")
    let command = ["--socket", socket]
    _ = try SessionctlProcess.run(["set", "playback", "--session", "music"] + command)
    _ = try SessionctlProcess.run(["activate", "--session", "music"] + command)
    _ = try SessionctlProcess.run(["simulate", "call", "begin"] + command)
    #expect(
      SessionctlProcess.readLine(launched.output)
        == "music  interruption began (reason: default, by: call)")
    await again.stop()
  }

  @Test(
    "watch --exit-on-close says the daemon stopped (mediaServicesWereLost) and exits 1 (docs/contract.md Commands, watch)"
  )
  func watch_exitOnClose_exitsWhenDaemonStops() async throws {
    let daemon = try await DaemonHarness.start()
    let launched = try SessionctlProcess.launch(
      ["watch", "routes", "--exit-on-close", "--socket", daemon.socketPath])
    _ = SessionctlProcess.readLine(launched.error)
    await daemon.stop()
    #expect(
      SessionctlProcess.readLine(launched.error) == "Error: the audio session daemon stopped")
    launched.process.waitUntilExit()
    #expect(launched.process.terminationStatus == 1)
    let output = String(
      decoding: launched.output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(output == "the audio session daemon stopped (mediaServicesWereLost)\n")
  }

  @Test(
    "watch all --json --exit-on-close prints {\"event\":\"mediaServicesWereLost\"} before it exits 1 (docs/contract.md Commands, watch)"
  )
  func watch_jsonExitOnClose_printsLostAsJSON() async throws {
    // Given a watcher in JSON that exits when the daemon closes
    let daemon = try await DaemonHarness.start()
    let launched = try SessionctlProcess.launch(
      ["watch", "all", "--json", "--exit-on-close", "--socket", daemon.socketPath])
    _ = SessionctlProcess.readLine(launched.error)
    // When the daemon stops
    await daemon.stop()
    launched.process.waitUntilExit()
    // Then the last thing on standard output is the loss, as JSON, and the status is 1
    #expect(launched.process.terminationStatus == 1)
    let output = String(
      decoding: launched.output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(output == #"{"event":"mediaServicesWereLost"}"# + "\n")
  }
}
