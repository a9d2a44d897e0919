import AudioSession
import AudioSessionDaemon
import AudioSessionPulse
import AudioSessionPulseTestSupport
import AudioSessionTestSupport
import AudioSessionWire
import Foundation
import Logging
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A daemon started before its sound server (docs/install.md "The service"): it waits and tries
/// again, with the address it tried in its log and in its status for systemd, instead of exiting;
/// once the server answers it serves, and tells systemd it is ready (`sd_notify`, `Type=notify` in
/// contrib/audiosession.service).
@Suite(.serialized) struct DaemonServerWaitTests {
  /// A datagram socket standing in for systemd's `$NOTIFY_SOCKET`: what the daemon notifies.
  final class NotifySocket {
    let path: String
    let descriptor: Int32

    init(path: String) throws {
      self.path = path
      descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
      var address = sockaddr_un()
      address.sun_family = sa_family_t(AF_UNIX)
      withUnsafeMutableBytes(of: &address.sun_path) { bytes in
        for (index, byte) in path.utf8.enumerated() { bytes[index] = byte }
      }
      let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
        }
      }
      guard bound == 0 else {
        close(descriptor)
        throw ConnectionFailure("cannot bind \(path): \(String(cString: strerror(errno)))")
      }
    }

    deinit { close(descriptor) }

    /// The next notification, or nil after `timeout` seconds.
    func next(timeout: TimeInterval = 20) -> String? {
      var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      guard poll(&poller, 1, Int32(timeout * 1000)) > 0 else { return nil }
      var buffer = [UInt8](repeating: 0, count: 4096)
      let count = recv(descriptor, &buffer, buffer.count, 0)
      guard count > 0 else { return nil }
      return String(decoding: buffer[..<count], as: UTF8.self)
    }

    /// Notifications until one satisfies `done`, or nil after `timeout` seconds.
    func wait(timeout: TimeInterval = 20, until done: (String) -> Bool) -> String? {
      let deadline = Date(timeIntervalSinceNow: timeout)
      while deadline.timeIntervalSinceNow > 0 {
        guard let message = next(timeout: deadline.timeIntervalSinceNow) else { return nil }
        if done(message) { return message }
      }
      return nil
    }
  }

  /// The daemon's log lines until one contains `text` (nil if it ends or 20 s pass first).
  static func line(containing text: String, in pipe: Pipe) -> String? {
    while let line = SessionctlProcess.readLine(pipe) {
      if line.contains(text) { return line }
    }
    return nil
  }

  @Test(
    "with no server answering, the daemon waits, naming the address in its log and its status (docs/install.md The service)"
  )
  func daemon_noServer_waitsNamingTheAddress() throws {
    let folder = try TemporaryFolder.make()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let notify = try NotifySocket(path: folder + "/notify")
    let address = "unix:\(folder)/no-server"
    // Given no server at the address PULSE_SERVER names
    let daemon = try SessionctlProcess.launch(
      ["daemon", "--backend", "pulse", "--no-mpris", "--socket", folder + "/daemon.sock"],
      environment: ["PULSE_SERVER": address, "NOTIFY_SOCKET": notify.path])
    defer {
      daemon.process.terminate()
      daemon.process.waitUntilExit()
    }
    // Then it says which address it tried and that it waits
    let warning = Self.line(containing: "warning:", in: daemon.error)
    #expect(
      warning?.hasPrefix(
        "audiosessiond: warning: cannot connect to the PulseAudio server at \(address): ")
        == true, "\(warning ?? "no warning")")
    #expect(
      warning?.hasSuffix(
        "Waiting for it: next attempt in 0.1 s, then each time twice as long, up to every 5.0 s")
        == true, "\(warning ?? "no warning")")
    // and tells systemd so, without being ready
    let status = notify.next()
    #expect(
      status?.hasPrefix(
        "STATUS=waiting for the sound server (attempt 1): cannot connect to the PulseAudio server at \(address): "
      ) == true, "\(status ?? "no notification")")
    #expect(status?.contains("READY=1") == false)
    // and is still running, trying again
    #expect(notify.next()?.hasPrefix("STATUS=waiting for the sound server (attempt 2)") == true)
    #expect(daemon.process.isRunning)
  }

  @Test(
    "a daemon started before its server connects once the server answers, then is ready (docs/install.md The service)"
  )
  func daemon_serverStartsLater_connectsAndNotifiesReady() async throws {
    // Given a server that is not running yet (killed, its socket left behind: refused)
    let server = try PulsePrivateServer.start(modules: [PulseTestDevices.speaker()])
    defer { server.stop() }
    server.kill()
    let folder = try TemporaryFolder.make()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let socket = folder + "/daemon.sock"
    let notify = try NotifySocket(path: folder + "/notify")
    let daemon = try SessionctlProcess.launch(
      ["daemon", "--backend", "pulse", "--no-mpris", "--socket", socket],
      environment: [
        "PULSE_SERVER": server.serverString, "PULSE_COOKIE": server.cookiePath,
        "NOTIFY_SOCKET": notify.path,
      ])
    defer {
      daemon.process.terminate()
      daemon.process.waitUntilExit()
    }
    // When the daemon has found no server at the address
    let warning = Self.line(containing: "warning:", in: daemon.error)
    #expect(
      warning?.contains("cannot connect to the PulseAudio server at \(server.serverString): ")
        == true, "\(warning ?? "no warning")")
    // and the server then starts
    try server.restart()
    // Then the daemon connects and serves
    let notice = Self.line(containing: "the server answers after", in: daemon.error)
    #expect(notice != nil)
    #expect(Self.line(containing: "listening on \(socket)", in: daemon.error) != nil)
    // and tells systemd it is ready, once
    let ready = notify.wait { $0.contains("READY=1") }
    #expect(ready == "READY=1\nSTATUS=listening on \(socket) (pulse backend)")
    let run = try SessionctlProcess.run(["status", "--socket", socket])
    #expect(run.status == 0, "\(run.error)")
    #expect(run.output.hasPrefix("no sessions"))
  }

  @Test("ServerWait: other errors, and any error when not retrying, end the wait at once")
  func serverWait_otherErrors_areThrown() async throws {
    let logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
    var attempts = 0
    await #expect(throws: SessionError.self) {
      try await ServerWait(retrying: false, logger: logger).core { () throws -> Int in
        attempts += 1
        throw SessionError(.mediaServicesFailed, "cannot connect")
      }
    }
    #expect(attempts == 1)
    await #expect(throws: SessionError.self) {
      try await ServerWait(retrying: true, logger: logger).core { () throws -> Int in
        attempts += 1
        throw SessionError(.badParam, "no such preset")
      }
    }
    #expect(attempts == 2)
    // A server that answers on the third attempt: two waits, then the result.
    let value = try await ServerWait(
      retrying: true, logger: logger, first: .milliseconds(1), longest: .milliseconds(2)
    ).core { () throws -> Int in
      attempts += 1
      if attempts < 5 { throw SessionError(.mediaServicesFailed, "cannot connect") }
      return 42
    }
    #expect(value == 42)
    #expect(attempts == 5)
  }
}
