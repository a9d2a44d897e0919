import AudioSession
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
package final class PipeWirePrivateServer: @unchecked Sendable {
  /// The scratch `XDG_RUNTIME_DIR`.
  package let runtimeDirectory: String

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
  package var socketPath: String { runtimeDirectory + "/pulse/native" }
  package var serverString: String { "unix:" + socketPath }
  /// pipewire-pulse does not check cookies.
  package var cookieFile: String? { nil }

  /// Where Debian's wireplumber-doc puts WirePlumber 0.5's role-policy example, which
  /// ``start(rolePolicy:)`` enables (docs/pulseaudio.md §2.2).
  package static let rolePolicyExample =
    "/usr/share/doc/wireplumber/examples/wireplumber.conf.d/media-role-nodes.conf"

  /// The sink every one of the example's role sinks plays on is ready when this one is.
  static let firstRoleSink = "input.loopback.sink.role.multimedia"

  /// Starts the stack and waits (at most 60 s: a loaded machine running several stacks at once
  /// has needed more than 20) until it is ready. With `rolePolicy`, WirePlumber runs its
  /// role-based policy, as its example enables it
  /// (``rolePolicyExample``): a role sink per media role, which ducks or corks the streams of
  /// lower roles; the stack is ready once they exist.
  ///
  /// - Throws: ``PulseServerError``: `binaryMissing` ("install pipewire pipewire-pulse
  ///   wireplumber dbus: apt-get install …"; the role example's package), or `startFailed` with
  ///   the logs.
  package static func start(rolePolicy: Bool = false) async throws(PulseServerError)
    -> PipeWirePrivateServer
  {
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
      if rolePolicy { try server.enableRolePolicy() }
      try server.launch("dbus-daemon", waitingFor: directory + "/bus")
      try server.launch("pipewire", waitingFor: directory + "/pipewire-0")
      if rolePolicy { try server.createSpeaker() }
      try server.launch("wireplumber", waitingFor: nil)
      try server.launch("pipewire-pulse", waitingFor: server.socketPath)
      try await server.waitForSessionManager(sink: rolePolicy ? firstRoleSink : nil)
    } catch {
      server.stop()
      throw error
    }
    return server
  }

  /// Whether pipewire-pulse is alive.
  package var isRunning: Bool {
    lock.lock()
    defer { lock.unlock() }
    return processes["pipewire-pulse"]?.isRunning ?? false
  }

  /// Restarts pipewire-pulse: its clients see the connection fail; the address stays.
  package func restart() throws(PulseServerError) {
    lock.lock()
    defer { lock.unlock() }
    guard !stopped else {
      throw PulseServerError(.startFailed, "the private PipeWire server was stopped for good")
    }
    end("pipewire-pulse", signal: SIGTERM)
    try launch("pipewire-pulse", waitingFor: socketPath)
  }

  /// Kills pipewire-pulse with SIGKILL.
  package func kill() {
    lock.lock()
    defer { lock.unlock() }
    guard !stopped else { return }
    end("pipewire-pulse", signal: SIGKILL)
  }

  /// Stops every process (SIGTERM, SIGKILL after 5 s), last started first, and removes the
  /// runtime directory. Idempotent.
  package func stop() {
    lock.lock()
    defer { lock.unlock() }
    guard !stopped else { return }
    stopped = true
    for program in Self.programs.reversed() { end(program, signal: SIGTERM) }
    try? FileManager.default.removeItem(atPath: runtimeDirectory)
  }

  /// The logs of the stack's programs so far.
  package var log: String {
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
    let deadline = Date().addingTimeInterval(60)
    while !FileManager.default.fileExists(atPath: socket) {
      guard process.isRunning, Date() < deadline else {
        throw PulseServerError(
          .startFailed,
          "the private PipeWire server's \(program) "
            + (process.isRunning ? "did not create \(socket) within 60 s" : "exited")
            + "; its logs:\n\(log)")
      }
      usleep(10_000)
    }
  }

  /// Sends `signal` to a program we started and waits (5 s, then SIGKILL) until it is gone.
  private func end(_ program: String, signal: Int32) {
    processes.removeValue(forKey: program)?.end(signal)
  }

  /// The built-in speaker of a stack with the role policy: a null sink made before
  /// WirePlumber starts, as a desktop's sound card is there before its session manager (with no
  /// device, WirePlumber 0.5.8 links the role sinks into one another), and kept through
  /// restarts of pipewire-pulse (`object.linger`: it belongs to no client).
  package static let speakerSink = "speaker"

  private func createSpeaker() throws(PulseServerError) {
    let pwcli = try PulsePrivateServer.locate(
      "pw-cli", server: "PipeWire server", package: "pipewire-bin")
    let properties = [
      "factory.name=support.null-audio-sink", "node.name=\(Self.speakerSink)",
      "node.description=Speaker", "media.class=Audio/Sink", "object.linger=true",
      "audio.position=[ FL FR ]", "device.form_factor=internal", "monitor.channel-volumes=true",
    ].joined(separator: " ")
    do {
      let child = try ChildProcess.spawn(
        pwcli, arguments: ["create-node", "adapter", "{ \(properties) }"],
        environment: environment, output: .appending(logPath("pw-cli")))
      guard child.waitForExit(seconds: 10), child.exitStatus == 0 else {
        throw PulseServerError(
          .startFailed, "pw-cli could not make the speaker sink; its log:\n\(log)")
      }
    } catch let error as PulseServerError {
      throw error
    } catch {
      throw PulseServerError(.startFailed, "cannot run pw-cli: \(error)")
    }
  }

  /// Copies WirePlumber's role-policy example into the stack's configuration folder.
  private func enableRolePolicy() throws(PulseServerError) {
    guard FileManager.default.fileExists(atPath: Self.rolePolicyExample) else {
      throw PulseServerError(
        .binaryMissing,
        "WirePlumber's role-policy example \(Self.rolePolicyExample) is missing: install "
          + "wireplumber-doc 0.5 from bookworm-backports (scripts/install-deps.sh pipewire)")
    }
    let folder = runtimeDirectory + "/home/.config/wireplumber/wireplumber.conf.d"
    do {
      try FileManager.default.createDirectory(
        atPath: folder, withIntermediateDirectories: true)
      try FileManager.default.copyItem(
        atPath: Self.rolePolicyExample, toPath: folder + "/media-role-nodes.conf")
    } catch {
      throw PulseServerError(.startFailed, "cannot enable WirePlumber's role policy: \(error)")
    }
  }

  /// Waits until wireplumber manages the graph: some sink exists (it makes `auto_null` when
  /// there is none), or the sink named `sink`. With the role policy, the speaker is then the
  /// default sink.
  private func waitForSessionManager(sink wanted: String?) async throws(PulseServerError) {
    let deadline = ContinuousClock.now + .seconds(60)
    while ContinuousClock.now < deadline {
      if let client = try? PulseContext(name: "audiosession-pipewire-start") {
        defer { client.disconnect() }
        if (try? await client.connect(to: serverString)) != nil,
          let sinks = try? await client.sinks(), !sinks.isEmpty,
          wanted.map({ name in sinks.contains { $0.name == name } }) ?? true
        {
          return
        }
      }
      // Not Task.sleep: `--spawn-server pipewire` runs this in the daemon (docs/style.md §3.12).
      try? await TimerThread.sleep(for: .milliseconds(50))
    }
    throw PulseServerError(
      .startFailed,
      "the private PipeWire server did not get ready within 60 s (no sink appeared: is "
        + "wireplumber running?); its logs:\n\(log)")
  }
}

extension PipeWirePrivateServer: PulseServerProcess {}
