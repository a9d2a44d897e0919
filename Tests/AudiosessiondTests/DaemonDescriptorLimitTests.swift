import AudioSession
import AudioSessionSystem
import AudioSessionTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The daemon and the open-file limit (docs/protocol.md "Limits"): it raises its
/// soft limit to the hard one, serves no more clients than its descriptors allow and tells the
/// others why, and out of descriptors it pauses and logs instead of spinning on `accept`.
/// Each test runs `sessionctl daemon` under a lowered limit (`ulimit` in a shell that execs it).
@Suite(.serialized) struct DaemonDescriptorLimitTests {
  /// A daemon started by `sh -c 'ulimit …; exec sessionctl daemon --socket PATH ARGUMENTS'`.
  struct LimitedDaemon {
    var launched: SessionctlProcess.Launched
    var folder: String
    var socketPath: String
    var pid: pid_t { launched.process.processIdentifier }

    init(ulimit: String, arguments: [String] = []) throws {
      folder = try TemporaryFolder.make()
      socketPath = folder + "/daemon.sock"
      launched = try SessionctlProcess.launch(
        [
          "-c", "\(ulimit) && exec \"$0\" daemon --socket \"$@\"", SessionctlProcess.executable,
          socketPath,
        ] + arguments, program: "/bin/sh")
    }

    /// The daemon's log lines up to the one that says it listens.
    func waitUntilListening() -> [String] {
      var lines: [String] = []
      while let line = SessionctlProcess.readLine(launched.error) {
        lines.append(line)
        if line.contains("listening on") { break }
      }
      return lines
    }

    /// Its CPU time so far, in clock ticks (utime + stime of /proc/PID/stat).
    func cpuTicks() -> Int {
      guard let line = ProcFile.lines("/proc/\(pid)/stat")?.first,
        let end = line.lastIndex(of: ")")
      else { return 0 }
      let fields = line[line.index(after: end)...].split(separator: " ")
      return (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0)
    }

    func stop() {
      kill(pid, SIGTERM)
      launched.process.waitUntilExit()
      try? FileManager.default.removeItem(atPath: folder)
    }
  }

  /// The soft and hard open-file limits /proc/PID/limits shows.
  static func openFileLimits(_ pid: pid_t) -> (soft: String, hard: String)? {
    guard
      let line = ProcFile.lines("/proc/\(pid)/limits")?.first(where: {
        $0.hasPrefix("Max open files")
      })
    else { return nil }
    let fields = line.dropFirst("Max open files".count).split(separator: " ")
    guard fields.count >= 2 else { return nil }
    return (String(fields[0]), String(fields[1]))
  }

  @Test("the daemon raises its soft open-file limit to the hard one, and says so")
  func start_lowSoftLimit_raisedToHard() throws {
    let hard = DescriptorLimit.current().hard
    try #require(hard > 64, "the test needs a hard open-file limit above 64")
    let daemon = try LimitedDaemon(ulimit: "ulimit -Sn 64")
    defer { daemon.stop() }
    let log = daemon.waitUntilListening()
    let limits = try #require(Self.openFileLimits(daemon.pid))
    #expect(limits.soft == limits.hard)
    #expect(
      log.contains { $0.hasSuffix("raised the open-file limit from 64 to \(limits.soft)") },
      "\(log)")
  }

  @Test(
    "out of descriptors the daemon pauses and logs instead of spinning, and serves again once clients leave"
  )
  func accept_outOfDescriptors_noSpinAndRecovers() throws {
    // Given a daemon allowed 100 descriptors but told to take 1,000 clients
    let daemon = try LimitedDaemon(
      ulimit: "ulimit -n 100", arguments: ["--max-connections", "1000"])
    defer { daemon.stop() }
    _ = daemon.waitUntilListening()
    // When 150 clients connect (those it cannot accept wait in the listening queue)
    var clients = try (0..<150).map { _ in try RawSocketClient(path: daemon.socketPath) }
    let warning = SessionctlProcess.readLine(daemon.launched.error, timeout: 10)
    // Then it says why it cannot accept them, and what to do
    #expect(
      warning?.contains(
        "warning: cannot accept connections: Too many open files (") == true, "\(warning ?? "")")
    #expect(warning?.contains("raise the limit (LimitNOFILE= in the service, ulimit -n)") == true)
    // and it does not spin: well under a tenth of a CPU over 2 s (it spun at a whole one)
    let before = daemon.cpuTicks()
    sleep(2)
    let used = daemon.cpuTicks() - before
    #expect(used < Int(sysconf(Int32(_SC_CLK_TCK))) / 5, "\(used) ticks in 2 s")
    // And once clients leave, a new one is served
    clients.removeAll()
    let run = try SessionctlProcess.run([
      "status", "--socket", daemon.socketPath, "--timeout", "10",
    ])
    #expect(run.status == 0, "\(run.error)")
  }

  @Test("with few descriptors the daemon serves fewer clients and tells the next one why")
  func start_fewDescriptors_capsConnectionsWithReason() throws {
    // Given a daemon allowed 100 descriptors: half kept for itself, 50 clients
    let daemon = try LimitedDaemon(ulimit: "ulimit -n 100")
    defer { daemon.stop() }
    let log = daemon.waitUntilListening()
    #expect(
      log.contains {
        $0.contains("warning: serving at most 50 clients: the open-file limit is 100")
      }, "\(log)")
    let clients = try (0..<50).map { _ in try RawSocketClient(path: daemon.socketPath) }
    for client in clients {
      #expect(try client.exchange(#"{"v":1,"op":"status"}"#)["result"] == "ok")
    }
    // When one more command connects, it is refused with the reason
    let run = try SessionctlProcess.run(["status", "--socket", daemon.socketPath])
    #expect(run.status == 1)
    #expect(
      run.error.contains(
        "refused this connection: tooManyConnections: this daemon already serves 50 connections"),
      "\(run.error)")
  }

  @Test(
    "under an open-file limit of 64 a running watch does not lock the other commands out (docs/protocol.md Limits)"
  )
  func start_limit64_watchLeavesRoomForCommands() throws {
    // Given a daemon started under `ulimit -n 64` (soft and hard: nothing to raise), which kept
    // all 64 descriptors for itself and so served one client
    let daemon = try LimitedDaemon(ulimit: "ulimit -n 64")
    defer { daemon.stop() }
    let log = daemon.waitUntilListening()
    #expect(
      log.contains {
        $0.contains("warning: serving at most 32 clients: the open-file limit is 64")
      }, "\(log)")
    // and a `sessionctl watch` connected to it
    let watch = try SessionctlProcess.launch(["watch", "all", "--socket", daemon.socketPath])
    defer {
      watch.process.terminate()
      watch.process.waitUntilExit()
    }
    let watching = SessionctlProcess.readLine(watch.error, timeout: 10)
    #expect(watching?.contains("watching all on \(daemon.socketPath)") == true, "\(watching ?? "")")
    // When other commands run while it watches
    for command in [
      ["set", "playback", "--session", "music"], ["activate", "--session", "music"],
      ["set", "playback", "--options", "duckOthers", "--session", "nav"],
      ["activate", "--session", "nav"], ["status"],
    ] {
      let run = try SessionctlProcess.run(
        command + ["--socket", daemon.socketPath, "--timeout", "10"])
      // Then each is answered
      #expect(run.status == 0, "\(command): \(run.error)")
    }
    // and the watch saw what they did
    let seen = SessionctlProcess.readLine(watch.output, timeout: 10)
    #expect(seen == "music  duck (by: nav)", "\(seen ?? "")")
    #expect(watch.process.isRunning)
  }
}
