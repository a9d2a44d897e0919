import AudioSessionCore
import AudioSessionSystem
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A private PipeWire stack with its PulseAudio server, for tests and `--spawn-server
/// pipewire`: a D-Bus session bus, `pipewire`, `wireplumber` and `pipewire-pulse`, all in a
/// scratch runtime directory (docs/pulseaudio.md §2.1: wireplumber exits without a session bus,
/// so the stack brings its own).
///
/// ``start()`` returns once `pipewire-pulse` accepts connections and wireplumber manages the
/// graph (a sink exists: wireplumber makes `auto_null` when there is none). Processes are
/// stopped by the PIDs recorded when they were started, never by name. ``restart()`` restarts
/// `pipewire-pulse` only (the PulseAudio server: modules loaded through it disappear);
/// ``kill()`` kills it with SIGKILL.
public final class PipeWirePrivateServer: @unchecked Sendable {
  /// The scratch `XDG_RUNTIME_DIR`.
  public let runtimeDirectory: String

  private let lock = RecursiveLock()
  private var processes: [String: ChildProcess] = [:]
  private var stopped = false
  private let environment: [String: String]
  private let executables: [String: String]

  /// The programs of the stack, in start order.
  private static let programs = ["dbus-daemon", "pipewire", "wireplumber", "pipewire-pulse"]

  private init(
    runtimeDirectory: String, environment: [String: String], executables: [String: String]
  ) {
    self.runtimeDirectory = runtimeDirectory
    self.environment = environment
    self.executables = executables
  }

  deinit { stop() }

  /// The PulseAudio protocol socket of pipewire-pulse.
  public var socketPath: String { runtimeDirectory + "/pulse/native" }
  public var serverString: String { "unix:" + socketPath }
  /// pipewire-pulse does not check cookies.
  public var cookieFile: String? { nil }

  /// Starts the stack and waits (at most 20 s) until it is ready.
  ///
  /// - Throws: ``PulseServerError``: `binaryMissing` ("install pipewire pipewire-pulse
  ///   wireplumber dbus: apt-get install …"), or `startFailed` with the logs.
  public static func start() async throws(PulseServerError) -> PipeWirePrivateServer {
    var executables: [String: String] = [:]
    for program in programs {
      executables[program] = try PulsePrivateServer.locate(
        program, server: "PipeWire server",
        package: "pipewire pipewire-pulse wireplumber dbus")
    }
    let directory = try PulsePrivateServer.makeRuntimeDirectory(
      prefix: "/tmp/audiosession-pipewire-")
    var environment = ProcessInfo.processInfo.environment.filter {
      !$0.key.hasPrefix("PULSE_") && !$0.key.hasPrefix("PIPEWIRE_") && !$0.key.hasPrefix("DBUS_")
    }
    environment["XDG_RUNTIME_DIR"] = directory
    environment["HOME"] = directory + "/home"
    environment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=\(directory)/bus"
    let server = PipeWirePrivateServer(
      runtimeDirectory: directory, environment: environment, executables: executables)
    do {
      try server.launch("dbus-daemon", waitingFor: directory + "/bus")
      try server.launch("pipewire", waitingFor: directory + "/pipewire-0")
      try server.launch("wireplumber", waitingFor: nil)
      try server.launch("pipewire-pulse", waitingFor: server.socketPath)
      try await server.waitForSessionManager()
    } catch {
      server.stop()
      throw error
    }
    return server
  }

  /// Whether pipewire-pulse is alive.
  public var isRunning: Bool {
    lock.lock()
    defer { lock.unlock() }
    return processes["pipewire-pulse"]?.isRunning ?? false
  }

  /// Restarts pipewire-pulse: its clients see the connection fail; the address stays.
  public func restart() throws(PulseServerError) {
    lock.lock()
    defer { lock.unlock() }
    guard !stopped else {
      throw PulseServerError(.startFailed, "the private PipeWire server was stopped for good")
    }
    end("pipewire-pulse", signal: SIGTERM)
    try launch("pipewire-pulse", waitingFor: socketPath)
  }

  /// Kills pipewire-pulse with SIGKILL.
  public func kill() {
    lock.lock()
    defer { lock.unlock() }
    guard !stopped else { return }
    end("pipewire-pulse", signal: SIGKILL)
  }

  /// Stops every process (SIGTERM, SIGKILL after 5 s), last started first, and removes the
  /// runtime directory. Idempotent.
  public func stop() {
    lock.lock()
    defer { lock.unlock() }
    guard !stopped else { return }
    stopped = true
    for program in Self.programs.reversed() { end(program, signal: SIGTERM) }
    try? FileManager.default.removeItem(atPath: runtimeDirectory)
  }

  /// The logs of the stack's programs so far.
  public var log: String {
    Self.programs.map { program in
      "== \(program)\n" + PulsePrivateServer.read(logPath(program))
    }.joined(separator: "\n")
  }

  // MARK: Processes

  private func logPath(_ program: String) -> String { runtimeDirectory + "/\(program).log" }

  private func launch(_ program: String, waitingFor socket: String?) throws(PulseServerError) {
    guard let executable = executables[program] else {
      preconditionFailure("no executable located for \(program)")
    }
    let arguments =
      program == "dbus-daemon"
      ? ["--session", "--nofork", "--nopidfile", "--address=unix:path=\(runtimeDirectory)/bus"]
      : []
    let process: ChildProcess
    do {
      process = try ChildProcess.spawn(
        executable, arguments: arguments, environment: environment,
        output: .appending(logPath(program)))
    } catch {
      throw PulseServerError(.startFailed, error.description)
    }
    processes[program] = process
    guard let socket else { return }
    let deadline = Date().addingTimeInterval(20)
    while !FileManager.default.fileExists(atPath: socket) {
      guard process.isRunning, Date() < deadline else {
        throw PulseServerError(
          .startFailed,
          "the private PipeWire server's \(program) "
            + (process.isRunning ? "did not create \(socket) within 20 s" : "exited")
            + "; its logs:\n\(log)")
      }
      usleep(10_000)
    }
  }

  /// Sends `signal` to a program we started and waits (5 s, then SIGKILL) until it is gone.
  private func end(_ program: String, signal: Int32) {
    processes.removeValue(forKey: program)?.end(signal)
  }

  /// Waits until wireplumber manages the graph: some sink exists (it makes `auto_null` when
  /// there is none).
  private func waitForSessionManager() async throws(PulseServerError) {
    let deadline = ContinuousClock.now + .seconds(20)
    while ContinuousClock.now < deadline {
      if let client = try? PulseContext(name: "audiosession-pipewire-start") {
        defer { client.disconnect() }
        if (try? await client.connect(to: serverString)) != nil,
          let sinks = try? await client.sinks(), !sinks.isEmpty
        {
          return
        }
      }
      try? await Task.sleep(for: .milliseconds(50))
    }
    throw PulseServerError(
      .startFailed,
      "the private PipeWire server did not get ready within 20 s (no sink appeared: is "
        + "wireplumber running?); its logs:\n\(log)")
  }
}

extension PipeWirePrivateServer: PulseServerProcess {}
