package import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The built `sessionctl` (beside the test bundle in `.build/<configuration>/`), run as a real
/// process: for the daemon that a test kills, and for the command line as a person types it.
///
/// Every child is started under one lock, with its pipes created inside it: a child started by
/// another test at the same moment cannot inherit the write end of this child's pipe (which would
/// keep a reader waiting for the end of output until that other child exits).
package enum SessionctlProcess {
  private static let spawnLock = NSLock()

  /// A running `sessionctl ARGUMENTS`, with its standard output and error.
  package struct Launched {
    package var process: Process
    package var output: Pipe
    package var error: Pipe
  }

  /// Starts `sessionctl ARGUMENTS` with pipes for its output and error.
  ///
  /// - Parameters:
  ///   - program: The program to run (default: the built `sessionctl`).
  ///   - directory: Its working directory (default: the test's).
  ///   - unset: Variables removed from its environment after `extra` is merged.
  package static func launch(
    _ arguments: [String], environment extra: [String: String] = [:],
    program: String = executable, directory: String? = nil, unset: [String] = []
  ) throws -> Launched {
    spawnLock.lock()
    defer { spawnLock.unlock() }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    var childEnvironment = environment(extra)
    for name in unset { childEnvironment[name] = nil }
    process.environment = childEnvironment
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    // Foundation closes the parent's copies of the child's pipe ends once it has started.
    try process.run()
    return Launched(process: process, output: output, error: error)
  }

  package static var executable: String {
    let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    return bundle.appendingPathComponent("sessionctl").path
  }

  /// The environment for a child: the test's, without a socket override and with autostart off
  /// unless asked, plus `extra`.
  package static func environment(_ extra: [String: String] = [:]) -> [String: String] {
    var environment = ProcessInfo.processInfo.environment
    environment["AUDIOSESSION_SOCKET"] = nil
    environment["AUDIOSESSION_AUTOSTART"] = "0"
    environment["AUDIOSESSION_POLICIES"] = Repository.policies
    // A daemon on the PulseAudio backend would watch the test runner's session bus for media
    // players (docs/mpris.md): tests give it a private bus of their own, or none.
    environment["DBUS_SESSION_BUS_ADDRESS"] = nil
    environment.merge(extra) { $1 }
    return environment
  }

  /// Starts `sessionctl daemon --socket PATH` and waits until it answers.
  package static func startDaemon(socketPath: String) throws -> Process {
    let process = try launch(["daemon", "--socket", socketPath]).process
    let deadline = Date(timeIntervalSinceNow: 20)
    while Date() < deadline {
      if (try? RawSocketClient(path: socketPath)) != nil { return process }
      usleep(20_000)
    }
    process.terminate()
    throw CocoaError(.fileNoSuchFile)
  }

  /// What one `sessionctl ARGUMENTS` run printed, and how it exited.
  package struct Run {
    package var status: Int32
    package var output: String
    package var error: String

    package init(status: Int32, output: String, error: String) {
      self.status = status
      self.output = output
      self.error = error
    }

    package var lines: [String] { output.split(separator: "\n").map(String.init) }
  }

  /// Runs `sessionctl ARGUMENTS` to completion.
  package static func run(
    _ arguments: [String], environment extra: [String: String] = [:],
    program: String = executable, directory: String? = nil, unset: [String] = []
  ) throws -> Run {
    let launched = try launch(
      arguments, environment: extra, program: program, directory: directory, unset: unset)
    let out = launched.output.fileHandleForReading.readDataToEndOfFile()
    let err = launched.error.fileHandleForReading.readDataToEndOfFile()
    launched.process.waitUntilExit()
    return Run(
      status: launched.process.terminationStatus, output: String(decoding: out, as: UTF8.self),
      error: String(decoding: err, as: UTF8.self))
  }

  /// The next line a child wrote to `pipe`, or nil after `timeout` seconds or at its end.
  package static func readLine(_ pipe: Pipe, timeout: TimeInterval = 20) -> String? {
    let fd = pipe.fileHandleForReading.fileDescriptor
    let deadline = Date(timeIntervalSinceNow: timeout)
    var bytes: [UInt8] = []
    while true {
      let remaining = deadline.timeIntervalSinceNow
      guard remaining > 0 else { return nil }
      var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      guard poll(&poller, 1, Int32(remaining * 1000)) > 0 else { return nil }
      var byte: UInt8 = 0
      guard read(fd, &byte, 1) == 1 else { return nil }
      if byte == 0x0A { return String(decoding: bytes, as: UTF8.self) }
      bytes.append(byte)
    }
  }
}
