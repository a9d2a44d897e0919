import AudioSession
import AudioSessionSystem
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Set by SIGINT and SIGTERM: the run stops after the step it is in, and stops what it started.
nonisolated(unsafe) var soakInterrupted: sig_atomic_t = 0

/// Running other programs and reading what they print: every child is started with the
/// package's spawner and stopped by its PID (docs/style.md, the house rules on processes).
enum Shell {
  /// What a program printed and how it exited; `nil` status when it outlived `seconds`.
  struct Result {
    var status: Int32?
    var output: String
  }

  /// Runs `executable` to its end (at most `seconds`), its standard output (and error, with
  /// `errors`) read from a scratch file.
  static func run(
    _ executable: String, _ arguments: [String], environment: [String: String],
    seconds: Double = 20, errors: Bool = false
  ) -> Result {
    let path = scratch + "/out-\(UUID().uuidString)"
    defer { unlink(path) }
    guard
      let child = try? ChildProcess.spawn(
        executable, arguments: arguments, environment: environment, output: .appending(path),
        error: errors ? .output : .null)
    else { return Result(status: -1, output: "") }
    if !child.waitForExit(seconds: seconds) {
      child.end(SIGKILL, seconds: 1)
      return Result(status: nil, output: read(path))
    }
    return Result(status: child.exitStatus, output: read(path))
  }

  /// A file's text, empty when unreadable.
  static func read(_ path: String) -> String {
    guard let data = FileManager.default.contents(atPath: path) else { return "" }
    return String(decoding: data, as: UTF8.self)
  }

  /// The folder for scratch files of this process.
  nonisolated(unsafe) static var scratch = NSTemporaryDirectory()

  /// Sends `signal` to every process of the group, then waits (at most `seconds`) until none
  /// is left, and kills what is.
  static func endGroup(_ group: pid_t, child: ChildProcess?, signal: Int32, seconds: Double = 5) {
    guard group > 1 else { return }
    kill(-group, signal)
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
      _ = child?.isRunning  // reaps the leader once it exits
      if kill(-group, 0) != 0 && errno == ESRCH { return }
      usleep(10_000)
    }
    kill(-group, SIGKILL)
    _ = child?.waitForExit(seconds: 2)
    while kill(-group, 0) == 0 { usleep(10_000) }
  }

  /// The process group of `pid` (`/proc/PID/stat`'s fifth field), if it runs.
  static func processGroup(of pid: Int) -> Int? {
    let stat = read("/proc/\(pid)/stat")
    guard let close = stat.lastIndex(of: ")") else { return nil }
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    return fields.count > 2 ? Int(fields[2]) : nil
  }

  /// Sleeps `milliseconds`, in steps that notice an interrupt.
  static func pause(milliseconds: Int) {
    var left = milliseconds
    while left > 0 && soakInterrupted == 0 {
      usleep(UInt32(min(left, 50)) * 1000)
      left -= 50
    }
  }

  /// JSON text parsed, `nil` when it is not JSON.
  static func json(_ text: String) -> JSONValue? {
    try? JSONParser.parse(text.trimmingCharacters(in: .whitespacesAndNewlines))
  }
}
