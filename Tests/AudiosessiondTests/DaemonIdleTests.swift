import AudioSession
import AudioSessionClient
import AudioSessionPulse
import AudioSessionPulseTestSupport
import AudioSessionSystem
import AudioSessionTestSupport
import AudioSessionWire
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// An idle daemon makes no periodic wakeups (docs/style.md §3.12).
///
/// The only periodic wakeup a Swift process on Linux has is libdispatch's pool monitor, a
/// once-a-second timer that starts with the first worker thread of its global queues and never
/// stops. The daemon moves Swift concurrency onto NIO's event loops before any task exists
/// (`GlobalExecutor`), so after any amount of work no libdispatch worker thread may exist in it.
/// (How many wakeups an idle daemon makes is measured by `make bench`, not here.)
@Suite struct DaemonIdleTests {
  /// The names of a process's threads; libdispatch names its workers after their queue
  /// (`com.apple.root.default-qos`, `…-qos.overcommit`).
  static func threadNames(_ pid: Int32) -> [String] {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
    return tasks.map {
      ((try? String(contentsOfFile: "/proc/\(pid)/task/\($0)/comm", encoding: .utf8)) ?? "")
        .trimmingCharacters(in: .whitespacesAndNewlines)
    }
  }

  static func dispatchWorkers(_ pid: Int32) -> [String] {
    threadNames(pid).filter { $0.contains("qos") }
  }

  @Test(
    "after commands, simulations and a library client, the daemon has no libdispatch worker"
  )
  func simulatedDaemon_afterWork_hasNoDispatchWorker() async throws {
    let folder = try TemporaryFolder.make()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let socket = folder + "/daemon.sock"
    let daemon = try SessionctlProcess.startDaemon(socketPath: socket)
    defer {
      daemon.terminate()
      daemon.waitUntilExit()
    }
    // Given work of every kind: configuration, activation, interruptions, route changes
    for arguments in [
      ["set", "playback", "--session", "music"], ["activate", "--session", "music"],
      ["play", "--session", "music"], ["simulate", "plug", "headphones"],
      ["simulate", "call", "begin"], ["simulate", "call", "end"],
      ["simulate", "unplug", "headphones"], ["status", "--json"],
    ] {
      let run = try SessionctlProcess.run(arguments + ["--socket", socket])
      #expect(run.status == 0, "\(arguments): \(run.error)")
    }
    // and an app that connects, plays and goes away
    let app = try AVAudioSession(name: "app", connection: .daemon(socketPath: socket))
    try app.setCategory(.playback)
    try app.setActive(true)
    app.invalidate()
    let status = try SessionctlProcess.run(["status", "--socket", socket])
    #expect(status.status == 0)

    // Then the daemon runs on its own threads and NIO's, and libdispatch never started a worker
    let pid = daemon.processIdentifier
    #expect(!Self.threadNames(pid).isEmpty)
    #expect(Self.dispatchWorkers(pid) == [], "threads: \(Self.threadNames(pid))")
  }

  @Test(
    "a pulse daemon that reconnects after its server restarts (TimerThread backoff) starts no libdispatch worker"
  )
  func pulseDaemon_afterServerRestart_hasNoDispatchWorker() async throws {
    let server = try PulsePrivateServer.start(modules: [PulseTestDevices.speaker()])
    defer { server.stop() }
    let folder = try TemporaryFolder.make()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let socket = folder + "/daemon.sock"
    let environment = ["PULSE_SERVER": server.serverString, "PULSE_COOKIE": server.cookiePath]
    let launched = try SessionctlProcess.launch(
      ["daemon", "--backend", "pulse", "--socket", socket], environment: environment)
    let daemon = launched.process
    defer {
      daemon.terminate()
      daemon.waitUntilExit()
    }
    #expect(SessionctlProcess.readLine(launched.error)?.contains("listening on") == true)
    // Given a session that plays a real stream
    for arguments in [
      ["set", "playback", "--session", "music"], ["activate", "--session", "music"],
      ["play", "--session", "music"],
    ] {
      let run = try SessionctlProcess.run(arguments + ["--socket", socket])
      #expect(run.status == 0, "\(arguments): \(run.error)")
    }
    // When the server goes away and comes back, which the backend waits out on its TimerThread
    // between attempts
    let watcher = try SessionctlProcess.launch(["watch", "all", "--socket", socket])
    defer { watcher.process.terminate() }
    #expect(SessionctlProcess.readLine(watcher.error)?.contains("watching all") == true)
    try server.restart()

    // Then the daemon reconnects and tells its clients so
    var lines: [String] = []
    while let line = SessionctlProcess.readLine(watcher.output),
      !line.contains("mediaServicesWereReset")
    {
      lines.append(line)
    }
    #expect(lines.contains { $0.contains("mediaServicesWereLost") }, "\(lines)")
    let status = try SessionctlProcess.run(["status", "--socket", socket])
    #expect(status.status == 0, "\(status.error)")
    // and libdispatch never started a worker
    let pid = daemon.processIdentifier
    #expect(Self.dispatchWorkers(pid) == [], "threads: \(Self.threadNames(pid))")
  }

  /// The daemon's log lines up to the next line of its quiet trim (none within 20 s: up to the end).
  static func linesUntilQuiet(_ error: Pipe) -> [String] {
    var lines: [String] = []
    while let line = SessionctlProcess.readLine(error) {
      lines.append(line)
      if line.contains("free heap pages to the system") { break }
    }
    return lines
  }

  @Test(
    "the daemon trims its heap once quiet after start-up and after commands, and logs it at debug level (docs/modules.md What sessionctl links)"
  )
  func daemon_whenQuiet_trimsHeap() throws {
    let folder = try TemporaryFolder.make()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let socket = folder + "/daemon.sock"
    let launched = try SessionctlProcess.launch(
      ["daemon", "--socket", socket, "--log-level", "debug"])
    defer {
      launched.process.terminate()
      launched.process.waitUntilExit()
    }
    // Given a daemon that has started serving: it goes quiet and trims its heap
    let startUp = Self.linesUntilQuiet(launched.error)
    #expect(startUp.contains { $0.contains("listening on") }, "\(startUp)")
    let trim = try #require(startUp.last, "no log line")
    #expect(trim.hasPrefix("audiosessiond: debug: quiet: "), "\(startUp)")
    // When commands run
    for arguments in [["set", "playback", "--session", "music"], ["status"]] {
      let run = try SessionctlProcess.run(arguments + ["--socket", socket])
      #expect(run.status == 0, "\(arguments): \(run.error)")
    }
    // Then it goes quiet again after them, and trims again
    let afterCommands = Self.linesUntilQuiet(launched.error)
    #expect(
      afterCommands.last?.contains("free heap pages to the system") == true, "\(afterCommands)")
  }
}
