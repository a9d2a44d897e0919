import AudioSessionSystem
import AudioSessionTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// One daemon per socket (docs/protocol.md "The socket"): a daemon owns its
/// socket path from its first instant through the lock file beside it, a second one refuses, and
/// a live command that finds a daemon starting waits for it instead of starting another. Real
/// `sessionctl` processes on private sockets.
@Suite struct DaemonLockTests {
  /// The environment of a user whose live commands may start a daemon, with no PulseAudio.
  static func environment(_ folder: String) -> [String: String] {
    ["AUDIOSESSION_AUTOSTART": "1", "XDG_RUNTIME_DIR": folder, "PULSE_SERVER": ""]
  }

  @Test(
    "'sessionctl daemon &' then at once a live command: that daemon serves it, no second one starts (docs/protocol.md The socket)"
  )
  func daemonThenCommandAtOnce_oneDaemonServes() throws {
    for round in 1...10 {
      let folder = try TemporaryFolder.make()
      defer { try? FileManager.default.removeItem(atPath: folder) }
      let socket = folder + "/audiosession/daemon.sock"
      let environment = Self.environment(folder)
      // Given `sessionctl daemon &`
      let daemon = try SessionctlProcess.launch(
        ["daemon", "--socket", socket], environment: environment
      ).process
      // When a live command follows at once
      let command = try SessionctlProcess.run(
        ["set", "playback", "--mode", "moviePlayback", "--session", "music", "--socket", socket],
        environment: environment)
      // Then it succeeds, served by that daemon: it started none, only that one runs on the
      // socket, and the lock names it
      let daemons = Self.daemons(on: socket)
      let lock = try? String(contentsOfFile: socket + ".lock", encoding: .utf8)
      #expect(command.status == 0, "round \(round): \(command.error)")
      #expect(
        !command.error.contains("started the audio session daemon"),
        "round \(round): \(command.error)")
      #expect(daemons == [daemon.processIdentifier], "round \(round)")
      #expect(lock == "\(daemon.processIdentifier)\n", "round \(round)")
      for pid in Set(daemons + [daemon.processIdentifier]) { kill(pid, SIGTERM) }
      daemon.waitUntilExit()
      Self.waitUntilGone(socket)
    }
  }

  @Test(
    "a second 'sessionctl daemon' on the same socket refuses and names the first one's pid (docs/protocol.md The socket)"
  )
  func secondDaemon_sameSocket_refusesNamingThePid() throws {
    let folder = try TemporaryFolder.make()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let socket = folder + "/daemon.sock"
    let first = try SessionctlProcess.startDaemon(socketPath: socket)
    let pid = first.processIdentifier
    let second = try SessionctlProcess.run(["daemon", "--socket", socket])
    #expect(second.status == 1)
    #expect(
      second.error
        == """
        Error: another audio session daemon (pid \(pid)) is running or starting on '\(socket)' \
        (it holds '\(socket).lock'); stop it first ('kill \(pid)'), or pass another --socket

        """)
    // The first one still serves.
    #expect(
      try SessionctlProcess.run(["status", "--socket", socket]).lines.first == "no sessions")
    first.terminate()
    first.waitUntilExit()
    // Once it stopped, its socket is gone and a new daemon may start there.
    #expect(!FileManager.default.fileExists(atPath: socket))
    let next = try SessionctlProcess.startDaemon(socketPath: socket)
    next.terminate()
    next.waitUntilExit()
  }

  @Test(
    "a live command that finds a daemon still starting waits for it, then says which pid and what to do; it starts no other (docs/protocol.md The socket)"
  )
  func liveCommand_daemonStillStarting_waitsThenSaysWhich() throws {
    // A daemon whose PulseAudio server accepts but never answers stays in its start.
    let silent = try SilentSocketServer()
    defer { silent.stop() }
    let folder = try TemporaryFolder.make()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let socket = folder + "/daemon.sock"
    let daemon = try SessionctlProcess.launch(
      ["daemon", "--backend", "pulse", "--socket", socket],
      environment: ["PULSE_SERVER": "unix:" + silent.path]
    ).process
    defer {
      daemon.terminate()
      daemon.waitUntilExit()
    }
    let pid = daemon.processIdentifier
    try Self.waitForLock(socket, pid: pid)
    // A second daemon refuses while the first is still starting.
    let second = try SessionctlProcess.run(["daemon", "--socket", socket])
    #expect(second.status == 1)
    #expect(
      second.error.contains("another audio session daemon (pid \(pid)) is running or starting"))
    // A live command waits (here 1 s), then says which daemon and what to do.
    let command = try SessionctlProcess.run(
      ["status", "--socket", socket, "--timeout", "1"], environment: Self.environment(folder))
    #expect(command.status == 1)
    #expect(
      command.error.hasPrefix(
        "Error: the audio session daemon (pid \(pid)) holds '\(socket).lock' but did not answer "
          + "on '\(socket)' within 1 s: it is still starting"))
    #expect(command.error.contains("'kill \(pid)'"))
    #expect(!command.error.contains("started the audio session daemon"))
    #expect(Self.daemons(on: socket) == [pid])
  }

  @Test(
    "two live commands at once with no daemon start one between them (docs/protocol.md The socket, docs/contract.md Commands)"
  )
  func twoCommandsAtOnce_noDaemon_startOne() throws {
    for round in 1...5 {
      let folder = try TemporaryFolder.make()
      defer { try? FileManager.default.removeItem(atPath: folder) }
      let socket = folder + "/daemon.sock"
      let environment = Self.environment(folder)
      let arguments = ["status", "--socket", socket]
      let first = try SessionctlProcess.launch(arguments, environment: environment)
      let second = try SessionctlProcess.launch(arguments, environment: environment)
      let runs = [first, second].map { launched in
        let output = launched.output.fileHandleForReading.readDataToEndOfFile()
        let error = launched.error.fileHandleForReading.readDataToEndOfFile()
        launched.process.waitUntilExit()
        return SessionctlProcess.Run(
          status: launched.process.terminationStatus,
          output: String(decoding: output, as: UTF8.self),
          error: String(decoding: error, as: UTF8.self))
      }
      let daemons = Self.daemons(on: socket)
      #expect(runs.map(\.status) == [0, 0], "round \(round): \(runs.map(\.error))")
      #expect(daemons.count == 1, "round \(round): \(daemons)")
      // At most one of them started it, and says so.
      let announcements = runs.filter { $0.error.contains("started the audio session daemon") }
      #expect(announcements.count <= 1, "round \(round): \(runs.map(\.error))")
      for pid in daemons { kill(pid, SIGTERM) }
      Self.waitUntilGone(socket)
    }
  }

  /// The daemon processes serving `socket`, from `/proc/*/cmdline`.
  static func daemons(on socket: String) -> [pid_t] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.compactMap(pid_t.init).filter { pid in
      guard let data = ProcFile.bytes("/proc/\(pid)/cmdline").map({ Data($0) }) else {
        return false
      }
      let arguments = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
      // `audiosessiond …`, or `sessionctl daemon …` before it runs audiosessiond in its place.
      let daemon =
        arguments.first?.hasSuffix("/audiosessiond") == true
        || (arguments.count >= 2 && arguments[0].hasSuffix("sessionctl")
          && arguments[1] == "daemon")
      guard daemon, let index = arguments.firstIndex(of: "--socket"), index + 1 < arguments.count
      else { return false }
      // A zombie (exited, not yet reaped) serves nothing.
      let state = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
      let fields = state.split(separator: ")").last?.split(separator: " ")
      return arguments[index + 1] == socket && fields?.first != "Z"
    }.sorted()
  }

  /// Waits (bounded) until the daemon on `socket` has removed it.
  static func waitUntilGone(_ socket: String) {
    let deadline = Date(timeIntervalSinceNow: 20)
    while FileManager.default.fileExists(atPath: socket) || !daemons(on: socket).isEmpty,
      Date() < deadline
    {
      usleep(20_000)
    }
  }

  /// Waits (bounded) until `pid` has written itself into the socket's lock file.
  static func waitForLock(_ socket: String, pid: pid_t) throws {
    let deadline = Date(timeIntervalSinceNow: 20)
    while Date() < deadline {
      if (try? String(contentsOfFile: socket + ".lock", encoding: .utf8)) == "\(pid)\n" {
        return
      }
      usleep(20_000)
    }
    throw CocoaError(.fileReadNoSuchFile)
  }
}
