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

/// A `sessionctl daemon --backend pulse` on a private PulseAudio server that goes away and comes
/// back (docs/pulseaudio-layer.md "Loss and reconnection"): the sessions the daemon holds for the
/// command line are configured again after `mediaServicesWereReset` (the daemon is their app;
/// docs/engine.md "Media services"), the state file is never rewritten by a reset, and `status`
/// shows the server's state.
@Suite(.serialized) struct PulseDaemonServerLossTests {
  /// A daemon process on the pulse backend, on a private server and a private socket.
  enum Kind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case pulseaudio, pipewire
    var testDescription: String { rawValue }
    /// What `status` calls a server of this kind that the daemon did not start.
    var serverName: String { self == .pulseaudio ? "PulseAudio server" : "PipeWire server" }
  }

  struct Rig {
    let server: any PulseServerProcess
    let folder: String
    let socket: String
    let daemon: Process
    /// The daemon's standard error (its log).
    let log: Pipe
    var environment: [String: String] {
      Self.environment(server)
    }

    /// Loads the built-in speaker (`speaker`, a null sink) and makes it the default sink.
    static func loadSpeaker(_ server: any PulseServerProcess) throws {
      let speaker = try PulseTestDevices.speaker()
      for arguments in [
        ["load-module", speaker.name, speaker.arguments], ["set-default-sink", "speaker"],
      ] {
        let child = try ChildProcess.spawn(
          "/usr/bin/pactl", arguments: arguments,
          environment: ProcessInfo.processInfo.environment.merging(environment(server)) { $1 },
          output: .null)
        guard child.waitForExit(seconds: 10), child.exitStatus == 0 else {
          throw ConnectionFailure("pactl \(arguments) failed")
        }
      }
    }

    static func environment(_ server: any PulseServerProcess) -> [String: String] {
      var environment = ["PULSE_SERVER": server.serverString]
      if let cookie = server.cookieFile { environment["PULSE_COOKIE"] = cookie }
      return environment
    }
    var statePath: String { WireProtocol.defaultStatePath(socketPath: socket) }

    /// - Parameter bus: The D-Bus session bus whose media players the daemon pauses and plays
    ///   (docs/mpris.md); without one, `--no-mpris`: the test runner's own bus is never used.
    ///   `rolePolicy`: on PipeWire, WirePlumber runs its role-based policy (docs/pulseaudio.md
    ///   §2.2).
    static func start(
      _ kind: Kind = .pulseaudio, bus: String? = nil, rolePolicy: Bool = false
    ) async throws -> Rig {
      let server: any PulseServerProcess =
        switch kind {
        // As a desktop's default.pa loads it: the server's stream database, which restores a
        // program's volume and mute by its role or name (docs/apps.md "On the server").
        case .pulseaudio:
          try PulsePrivateServer.start(modules: [
            PulseTestDevices.speaker(), .init("module-stream-restore", arguments: ""),
          ])
        case .pipewire: try await PipeWirePrivateServer.start(rolePolicy: rolePolicy)
        }

      let folder = try TemporaryFolder.make()
      let socket = folder + "/daemon.sock"
      var daemonEnvironment = environment(server)
      if let bus { daemonEnvironment["DBUS_SESSION_BUS_ADDRESS"] = bus }
      let launched: SessionctlProcess.Launched
      do {
        launched = try SessionctlProcess.launch(
          ["daemon", "--backend", "pulse", "--socket", socket] + (bus == nil ? ["--no-mpris"] : []),
          environment: daemonEnvironment)
      } catch {
        server.stop()
        try? FileManager.default.removeItem(atPath: folder)
        throw error
      }
      // Its first lines may be about the session bus (docs/mpris.md).
      var listening = false
      while !listening, let line = SessionctlProcess.readLine(launched.error) {
        listening = line.contains("listening on")
      }
      guard listening else {
        // Nothing it started outlives the failure.
        launched.process.terminate()
        launched.process.waitUntilExit()
        server.stop()
        try? FileManager.default.removeItem(atPath: folder)
        throw ConnectionFailure("the daemon never said it listens on \(socket)")
      }
      return Rig(
        server: server, folder: folder, socket: socket, daemon: launched.process,
        log: launched.error)
    }

    func stop() {
      daemon.terminate()
      daemon.waitUntilExit()
      server.stop()
      try? FileManager.default.removeItem(atPath: folder)
    }

    /// Runs a live command against the daemon; it must succeed.
    @discardableResult
    func run(_ arguments: [String]) throws -> String {
      let run = try SessionctlProcess.run(arguments + ["--socket", socket])
      #expect(run.status == 0, "\(arguments): \(run.error)")
      return run.output
    }

    /// `status --json`'s `status` object.
    func status() throws -> JSONObject {
      let output = try run(["status", "--json"])
      guard case .object(let reply) = try JSONParser.parse(Array(output.utf8)),
        case .object(let status)? = reply["status"]
      else { throw ConnectionFailure("status --json is not a status: \(output)") }
      return status
    }

    /// `status.system.server`.
    func serverState() throws -> JSONObject? {
      guard case .object(let system)? = try status()["system"],
        case .object(let server)? = system["server"]
      else { return nil }
      return server
    }

    /// The `media.role` of every playback stream on the server, as `pactl` lists them.
    func streamRoles() throws -> [String] {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/usr/bin/pactl")
      process.arguments = ["list", "sink-inputs"]
      process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
      let pipe = Pipe()
      process.standardOutput = pipe
      try process.run()
      let text = String(
        decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      process.waitUntilExit()
      return text.split(separator: "\n").compactMap { line in
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix("media.role = ") else { return nil }
        return String(trimmed.dropFirst("media.role = ".count)).replacingOccurrences(
          of: "\"", with: "")
      }
    }
  }

  @Test(
    "the server restarts: the daemon's own session gets its configuration back, the state file is untouched, and its next stream has the right role (docs/protocol.md Sessions, owners and lifetime)",
    arguments: Kind.allCases)
  func serverRestart_heldSession_keepsConfiguration(kind: Kind) async throws {
    let rig = try await Rig.start(kind)
    defer { rig.stop() }
    // Given a movie session held by the daemon, saved in its state file
    try rig.run(["set", "playback", "--mode", "moviePlayback", "--session", "movie"])
    let saved = try Data(contentsOf: URL(fileURLWithPath: rig.statePath))
    let watcher = try SessionctlProcess.launch(["watch", "all", "--json", "--socket", rig.socket])
    defer {
      watcher.process.terminate()
      watcher.process.waitUntilExit()
    }
    #expect(SessionctlProcess.readLine(watcher.error)?.contains("watching all") == true)
    // When the PulseAudio server restarts
    try rig.server.restart()
    var lines: [String] = []
    while let line = SessionctlProcess.readLine(watcher.output) {
      lines.append(line)
      if line.contains("mediaServicesWereReset") { break }
    }
    // Then the session is told the media services were lost and reset
    #expect(
      lines == [
        #"{"session":"movie","event":"mediaServicesWereLost"}"#,
        #"{"session":"movie","event":"mediaServicesWereReset"}"#,
      ])
    // and it has its configuration back, inactive
    guard case .object(let sessions)? = try rig.status()["sessions"],
      case .object(let movie)? = sessions["movie"]
    else {
      Issue.record("no session 'movie' after the reset")
      return
    }
    #expect(movie["category"] == .string("playback"))
    #expect(movie["mode"] == .string("moviePlayback"))
    #expect(movie["active"] == .bool(false))
    // and the state file was not rewritten
    #expect(try Data(contentsOf: URL(fileURLWithPath: rig.statePath)) == saved)
    // and when it plays again, its stream is a movie's (media.role=video), not a game's
    try rig.run(["activate", "--session", "movie"])
    try rig.run(["play", "--session", "movie"])
    #expect(try rig.streamRoles() == ["video"])
  }

  @Test(
    "status shows the server connected, then lost and reconnecting since when, then connected again (docs/protocol.md The server in status)",
    arguments: Kind.allCases)
  func status_serverOutage_isShown(kind: Kind) async throws {
    let rig = try await Rig.start(kind)
    defer { rig.stop() }
    // Given a daemon connected to its server
    let connected = try #require(try rig.serverState())
    #expect(connected["state"] == .string("connected"))
    #expect(connected["name"] == .string(kind.serverName))
    #expect(connected["address"] == .string(rig.server.serverString))
    // When the server dies
    rig.server.kill()
    // Then status (which still answers) says it is lost and being reconnected, with a time and
    // the attempts so far, in JSON and in text
    var lost: JSONObject?
    for _ in 0..<200 {
      if let state = try rig.serverState(), state["state"] == .string("reconnecting") {
        lost = state
        break
      }
      usleep(20_000)
    }
    let state = try #require(lost, "status never said the server was lost")
    guard case .string(let since)? = state["since"] else {
      Issue.record("a lost server has no 'since': \(state)")
      return
    }
    #expect(WallTime(iso8601: since) != nil)
    // and the attempts to reconnect are counted while it stays away
    var attempts = 0
    for _ in 0..<200 where attempts < 2 {
      if case .int(let count)? = try rig.serverState()?["attempts"] { attempts = count }
      if attempts < 2 { usleep(20_000) }
    }
    #expect(attempts >= 2, "status never counted two reconnection attempts")
    let text = try rig.run(["status"])
    #expect(
      text.contains("server: \(kind.serverName) (\(rig.server.serverString)), LOST since \(since)"),
      "\(text)")
    // When it comes back, status says connected again
    try rig.server.restart()
    var back = false
    for _ in 0..<250 where !back {
      back = try rig.serverState()?["state"] == .string("connected")
      if !back { usleep(20_000) }
    }
    #expect(back, "status never said the server was back")
    // And the daemon logged the loss as a warning and the return, each with the server's address
    // (README "Running the daemon": logging)
    var lines: [String] = []
    while !lines.contains(where: { $0.contains("again") }),
      let line = SessionctlProcess.readLine(rig.log, timeout: 10)
    {
      lines.append(line)
    }
    let address = "server=\(rig.server.serverString)"
    #expect(
      lines.contains {
        $0.hasPrefix(
          "audiosessiond: warning: lost the connection to the \(kind.serverName) (")
          && $0.hasSuffix("; reconnecting {\(address)}")
      }, "\(lines)")
    #expect(
      lines.contains {
        $0.hasPrefix("audiosessiond: connected to the \(kind.serverName) again {")
          && $0.contains(address)
      }, "\(lines)")
  }

  @Test(
    "the daemon outlives ten restarts of its server in a row, and its session is reset each time (docs/pulseaudio-layer.md Loss and reconnection)"
  )
  func serverRestartedTenTimes_daemonSurvives() async throws {
    let rig = try await Rig.start()
    defer { rig.stop() }
    try rig.run(["set", "playback", "--mode", "moviePlayback", "--session", "movie"])
    let watcher = try SessionctlProcess.launch(["watch", "all", "--json", "--socket", rig.socket])
    defer {
      watcher.process.terminate()
      watcher.process.waitUntilExit()
    }
    #expect(SessionctlProcess.readLine(watcher.error)?.contains("watching all") == true)
    for round in 1...10 {
      // When the server restarts
      try rig.server.restart()
      // Then the session is told lost, then reset, and the daemon is still there
      #expect(
        SessionctlProcess.readLine(watcher.output)
          == #"{"session":"movie","event":"mediaServicesWereLost"}"#, "round \(round)")
      #expect(
        SessionctlProcess.readLine(watcher.output)
          == #"{"session":"movie","event":"mediaServicesWereReset"}"#, "round \(round)")
      #expect(rig.daemon.isRunning, "the daemon died in round \(round)")
      guard rig.daemon.isRunning else { return }
    }
  }
}
