import AudioSession
import AudioSessionSystem
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A private, headless PulseAudio daemon in a scratch runtime directory: for tests and for the
/// backend's `--spawn-server`. It never touches the user's server.
///
/// ``start(modules:binary:)`` runs (docs/pulseaudio.md §1.1)
///
///     pulseaudio --daemonize=yes -n --exit-idle-time=-1 --use-pid-file=yes \
///       -L module-native-protocol-unix -L <each module>
///
/// with `XDG_RUNTIME_DIR` set to a fresh mode-0700 directory and `HOME` inside it, and returns
/// once the daemon reports ready (`--daemonize` returns after "Daemon startup complete"). `-n`
/// skips default.pa, so the server holds exactly the modules given. ``stop()`` sends SIGTERM to
/// the PID the daemon wrote to `$XDG_RUNTIME_DIR/pulse/pid` (never `pkill`), then removes the
/// directory; ``kill()`` sends SIGKILL, for fault tests; ``restart()`` starts the daemon again
/// in the same directory (same socket, new PID, empty state). The server is stopped on `deinit`.
package final class PulsePrivateServer: @unchecked Sendable {
  /// The scratch `XDG_RUNTIME_DIR`; everything the server writes lives under it.
  package let runtimeDirectory: String
  private let executable: String
  private let options: LaunchOptions

  private let lock = RecursiveLock()
  private var stopped = false
  private var currentPID: Int32

  /// What a start and every restart pass to the daemon.
  private struct LaunchOptions {
    var modules: [Module]
    var exitIdleTime: Int?
  }

  private init(
    runtimeDirectory: String, executable: String, options: LaunchOptions, pid: Int32
  ) {
    self.runtimeDirectory = runtimeDirectory
    self.executable = executable
    self.options = options
    self.currentPID = pid
  }

  /// The daemon's PID, read from `pulse/pid` once it was ready (a restart changes it).
  package var pid: Int32 {
    lock.lock()
    defer { lock.unlock() }
    return currentPID
  }

  deinit { stop() }

  /// The native protocol socket: `<runtime>/pulse/native`.
  package var socketPath: String { runtimeDirectory + "/pulse/native" }
  /// The server string for ``PulseContext/connect(to:cookieFile:)`` and `PULSE_SERVER`:
  /// `unix:<socket>`.
  package var serverString: String { "unix:" + socketPath }
  /// The authentication cookie the daemon created in its `HOME`; pass it to
  /// ``PulseContext/connect(to:cookieFile:)``.
  package var cookiePath: String { runtimeDirectory + "/home/.config/pulse/cookie" }
  /// The daemon's log file.
  package var logPath: String { runtimeDirectory + "/pulse.log" }
  /// The daemon's log so far (empty if unreadable).
  package var log: String { Self.read(logPath) }

  /// A module the daemon loads at start (`-L "name arguments"`).
  package struct Module: Sendable, Hashable {
    package var name: String
    package var arguments: String

    package init(_ name: String, arguments: String = "") {
      self.name = name
      self.arguments = arguments
    }
  }

  /// Starts a daemon with `module-native-protocol-unix` and then `modules`, and waits until it is
  /// ready (at most 20 s).
  ///
  /// - Parameters:
  ///   - binary: the daemon to run: a name looked up in `PATH`, or a path.
  ///   - exitIdleTime: seconds without clients after which the daemon exits by itself (a safety
  ///     net for a server whose owner died without stopping it); nil: never.
  /// - Throws: ``PulseServerError`` with code `binaryMissing` ("install pulseaudio: apt-get
  ///   install pulseaudio") or `startFailed` (the daemon exited with an error, did not get
  ///   ready, or logged an error such as a module that failed to load; the message includes the
  ///   daemon's log).
  package static func start(
    modules: [Module] = [], binary: String = "pulseaudio", exitIdleTime: Int? = nil
  ) throws(PulseServerError) -> PulsePrivateServer {
    let executable = try locate(binary)
    let directory = try makeRuntimeDirectory()
    let launched: (pid: Int32, command: String)
    let options = LaunchOptions(modules: modules, exitIdleTime: exitIdleTime)
    do {
      launched = try launch(executable, in: directory, options)
    } catch {
      try? FileManager.default.removeItem(atPath: directory)
      throw error
    }
    let server = PulsePrivateServer(
      runtimeDirectory: directory, executable: executable, options: options, pid: launched.pid)
    // A module given with -L that fails to load does not fail the start (measured: rc 0 even
    // with --fail=yes); the daemon logs it as an error, so errors in the log fail the start.
    if hasErrors(server.log) {
      let failure = startFailure(
        "reported errors while starting", launched.command, server.logPath,
        directory + "/launcher.log")
      server.stop()
      throw failure
    }
    return server
  }

  /// Stops the daemon (SIGTERM, then SIGKILL after 5 s) if it runs, and starts it again in the
  /// same runtime directory with the same modules: clients see the connection fail, and find the
  /// server again at the same address, empty (docs/pulseaudio.md §5).
  ///
  /// - Throws: ``PulseServerError`` with code `startFailed` (its message has the log).
  package func restart() throws(PulseServerError) {
    lock.lock()
    defer { lock.unlock() }
    guard !stopped else {
      throw PulseServerError(.startFailed, "the private PulseAudio server was stopped for good")
    }
    if isRunning {
      signal(SIGTERM)
      if !waitUntilGone(seconds: 5) {
        signal(SIGKILL)
        _ = waitUntilGone(seconds: 5)
      }
    }
    // A killed daemon stays a zombie until init reaps it, and pulseaudio takes a zombie's PID
    // in a stale pid file for a running daemon ("Daemon already running"); it is ours and
    // gone, so the file goes.
    try? FileManager.default.removeItem(atPath: runtimeDirectory + "/pulse/pid")
    let before = log.utf8.count
    let launched = try Self.launch(executable, in: runtimeDirectory, options)
    currentPID = launched.pid
    if Self.hasErrors(String(log.utf8.dropFirst(before)) ?? "") {
      throw Self.startFailure(
        "reported errors while restarting", launched.command, logPath,
        runtimeDirectory + "/launcher.log")
    }
  }

  private static func hasErrors(_ log: String) -> Bool {
    log.split(separator: "\n").contains { $0.hasPrefix("E: ") }
  }

  /// Whether the daemon is alive (a zombie or another process that reused the PID counts as
  /// gone: the command line must name this server's runtime directory).
  package var isRunning: Bool {
    Self.read("/proc/\(pid)/cmdline").contains(runtimeDirectory)
  }

  /// Loads a module over a short-lived client connection and returns its index.
  package func loadModule(_ name: String, arguments: String = "") async throws(PulseError) -> UInt32
  {
    let client = try PulseContext(name: "audiosession-server-control")
    defer { client.disconnect() }
    try await client.connect(to: serverString, cookieFile: cookiePath)
    return try await client.loadModule(name, arguments: arguments)
  }

  /// Stops the daemon (SIGTERM, then SIGKILL if it is still alive after 5 s) and removes the
  /// runtime directory. Idempotent.
  package func stop() {
    lock.lock()
    defer { lock.unlock() }
    guard !stopped else { return }
    stopped = true
    if isRunning {
      signal(SIGTERM)
      if !waitUntilGone(seconds: 5) {
        signal(SIGKILL)
        _ = waitUntilGone(seconds: 5)
      }
    }
    try? FileManager.default.removeItem(atPath: runtimeDirectory)
  }

  /// Kills the daemon with SIGKILL, as a crash would, and waits until it is gone. The runtime
  /// directory (with a stale socket and pid file) stays until ``stop()``.
  package func kill() {
    lock.lock()
    defer { lock.unlock() }
    guard !stopped, isRunning else { return }
    signal(SIGKILL)
    _ = waitUntilGone(seconds: 5)
  }

  private func signal(_ number: Int32) {
    #if canImport(Glibc)
      _ = Glibc.kill(currentPID, number)
    #elseif canImport(Darwin)
      _ = Darwin.kill(currentPID, number)
    #endif
  }

  private func waitUntilGone(seconds: Double) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while isRunning {
      guard Date() < deadline else { return false }
      usleep(5_000)
    }
    return true
  }

  // MARK: Start

  /// The executable for `binary` (a name looked up in `PATH`, or a path).
  static func locate(
    _ binary: String, server: String = "PulseAudio server", package: String = "pulseaudio"
  ) throws(PulseServerError) -> String {
    let manager = FileManager.default
    if binary.contains("/") {
      guard manager.isExecutableFile(atPath: binary) else {
        throw PulseServerError(
          .binaryMissing,
          "cannot start a private \(server): \(binary) is not an executable file; "
            + "install \(package): apt-get install \(package)")
      }
      return binary
    }
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for directory in path.split(separator: ":") where !directory.isEmpty {
      let candidate = "\(directory)/\(binary)"
      if manager.isExecutableFile(atPath: candidate) { return candidate }
    }
    throw PulseServerError(
      .binaryMissing,
      "cannot start a private \(server): '\(binary)' was not found in PATH (\(path)); "
        + "install \(package): apt-get install \(package)")
  }

  /// A fresh directory, mode 0700 and owned by us (PulseAudio refuses anything else), with a
  /// `home` inside. It stays short: the socket path must fit in `sun_path` (108 bytes).
  static func makeRuntimeDirectory(
    prefix: String = "/tmp/audiosession-pulse-"
  ) throws(PulseServerError) -> String {
    var template = Array((prefix + "XXXXXX").utf8CString)
    // mkdtemp fills in the X's in place and creates the directory with mode 0700.
    let made = template.withUnsafeMutableBufferPointer { buffer in
      buffer.baseAddress.map { mkdtemp($0) != nil } ?? false
    }
    guard made else {
      throw PulseServerError(
        .runtimeDirectory,
        "cannot make a runtime directory under /tmp for a private PulseAudio server: "
          + String(cString: strerror(errno)))
    }
    let directory = String(
      decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    do {
      try FileManager.default.createDirectory(
        atPath: directory + "/home", withIntermediateDirectories: false,
        attributes: [.posixPermissions: 0o700])
    } catch {
      try? FileManager.default.removeItem(atPath: directory)
      throw PulseServerError(
        .runtimeDirectory, "cannot make \(directory)/home for a private PulseAudio server: \(error)"
      )
    }
    return directory
  }

  private static func launch(
    _ executable: String, in directory: String, _ options: LaunchOptions
  ) throws(PulseServerError) -> (pid: Int32, command: String) {
    let logPath = directory + "/pulse.log"
    let outputPath = directory + "/launcher.log"

    var arguments = [
      "--daemonize=yes", "-n", "--exit-idle-time=\(options.exitIdleTime ?? -1)",
      "--disallow-exit=no", "--use-pid-file=yes", "--log-target=file:\(logPath)",
      "--log-level=notice", "-L", "module-native-protocol-unix",
    ]
    for module in options.modules {
      arguments += [
        "-L", module.arguments.isEmpty ? module.name : "\(module.name) \(module.arguments)",
      ]
    }
    // The daemon must not see a client's server settings (they would point at another server).
    var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("PULSE_") }
    environment["XDG_RUNTIME_DIR"] = directory
    environment["HOME"] = directory + "/home"

    // The launcher (the daemon's parent) exits once the daemon is ready: wait for it with
    // waitpid, not Foundation.Process, whose exit handler needs a free libdispatch worker (a busy
    // test run can hold them all for longer than the deadline), and with a clean signal mask.
    let command = ([executable] + arguments).joined(separator: " ")
    let launcher: ChildProcess
    do {
      launcher = try ChildProcess.spawn(
        executable, arguments: arguments, environment: environment,
        output: .appending(outputPath))
    } catch {
      throw PulseServerError(.startFailed, error.description)
    }
    launcher.waitForExit(seconds: 20)
    guard let status = launcher.exitStatus else {
      launcher.end(SIGKILL)
      throw startFailure("did not report ready within 20 s", command, logPath, outputPath)
    }
    guard status == 0 else {
      throw startFailure("exited with status \(status)", command, logPath, outputPath)
    }
    let pidText = read(directory + "/pulse/pid").trimmingWhitespace()
    guard let pid = Int32(pidText), pid > 0 else {
      throw startFailure("wrote no PID file", command, logPath, outputPath)
    }
    return (pid, command)
  }

  private static func startFailure(
    _ what: String, _ command: String, _ logPath: String, _ outputPath: String
  ) -> PulseServerError {
    let log = (read(outputPath) + read(logPath)).trimmingWhitespace()
    return PulseServerError(
      .startFailed,
      "the private PulseAudio server \(what) (\(command)); its log:\n"
        + (log.isEmpty ? "(empty)" : log))
  }

  static func read(_ path: String) -> String {
    guard let data = ProcFile.bytes(path) else { return "" }
    return String(decoding: data, as: UTF8.self)
  }
}
