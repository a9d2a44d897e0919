import AudioSessionTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `sessionctl daemon --backend pulse --spawn-server` (docs/pulseaudio-layer.md
/// "Configuration"): the daemon starts a private PulseAudio server of its own, which
/// `simulate server-restart` can restart, and stops it, by its pid, when the daemon stops.
@Suite struct DaemonSpawnServerTests {
  @Test(
    "daemon --spawn-server runs on a private server, restarts it for simulate server-restart, and stops it on SIGTERM (docs/pulseaudio-layer.md Configuration)"
  )
  func daemon_spawnServer_ownsAndStopsItsServer() throws {
    let folder = try TemporaryFolder.make()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let socket = folder + "/daemon.sock"
    let launched = try SessionctlProcess.launch(
      ["daemon", "--backend", "pulse", "--spawn-server", "--socket", socket])
    let daemon = launched.process
    // It says where its server is.
    var runtime: String?
    while runtime == nil, let line = SessionctlProcess.readLine(launched.error) {
      guard let range = line.range(of: "started a private server in ") else { continue }
      runtime = String(line[range.upperBound...].prefix { $0 != "," })
    }
    guard let runtime else {
      daemon.terminate()
      daemon.waitUntilExit()
      Issue.record("the daemon did not say it started a private server")
      return
    }
    let pidFile = runtime + "/pulse/pid"
    let first = Self.pid(pidFile)
    #expect(first.map(Self.isAlive) == true)
    // The live commands reach the daemon, whose backend is pulse on that server.
    let socketArguments = ["--socket", socket]
    #expect(
      try SessionctlProcess.run(["set", "playback", "--session", "movie"] + socketArguments)
        .status == 0)
    #expect(
      try SessionctlProcess.run(["activate", "--session", "movie"] + socketArguments).status == 0)
    // server-restart restarts it: lost, then reset, and a new server process.
    let restart = try SessionctlProcess.run(["simulate", "server-restart"] + socketArguments)
    #expect(restart.status == 0, "\(restart.error)")
    #expect(
      restart.lines == ["movie  mediaServicesWereLost", "movie  mediaServicesWereReset"])
    let second = Self.pid(pidFile)
    #expect(second != nil && second != first)
    // When the daemon stops, so does its server, and its folder is gone.
    daemon.terminate()
    daemon.waitUntilExit()
    #expect(daemon.terminationStatus == 0)
    #expect(second.map(Self.isAlive) == false)
    #expect(!FileManager.default.fileExists(atPath: runtime))
  }

  @Test(
    "daemon --spawn-server without --backend pulse is a usage error saying what to add (docs/pulseaudio-layer.md Configuration)"
  )
  func daemon_spawnServerWithoutPulse_isRejected() throws {
    let run = try SessionctlProcess.run([
      "daemon", "--spawn-server", "--socket", "/tmp/unused.sock",
    ])
    #expect(run.status == 64)
    #expect(
      run.error.hasPrefix(
        "Error: --spawn-server starts a server for the PulseAudio backend; add --backend pulse"))
  }

  @Test(
    "simulate --help says what plug does to the user's own server and how to remove it, and where server-restart works (docs/pulseaudio-layer.md Simulation)"
  )
  func simulateHelp_saysWhatItDoesToARealServer() throws {
    let help = try SessionctlProcess.run(["simulate", "--help"]).output
      .split(whereSeparator: \.isWhitespace).joined(separator: " ")
    #expect(
      help.contains("'plug' loads a virtual device there (a module-null-sink per output port"))
    #expect(
      help.contains(
        "On the user's own server (the daemon without --spawn-server) the plugged device may "
          + "become the server's default output"))
    #expect(help.contains("until 'simulate unplug' removes it"))
    #expect(
      help.contains(
        "'server-restart' restarts only a server the daemon started ('sessionctl daemon "
          + "--backend pulse --spawn-server'"))
  }

  static func pid(_ file: String) -> pid_t? {
    (try? String(contentsOfFile: file, encoding: .utf8))
      .flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
  }

  /// Whether a process runs (an exited one that nobody reaped yet does not).
  static func isAlive(_ pid: pid_t) -> Bool {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else {
      return false
    }
    return stat.split(separator: ")").last?.split(separator: " ").first != "Z"
  }
}
