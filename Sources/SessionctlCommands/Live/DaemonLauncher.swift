import AudioSession
import AudioSessionSystem
import AudioSessionWire
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// Starts the daemon program (`audiosessiond`, ``DaemonProgram``) in the background for the live commands: a new session of its own
/// (so the terminal's Ctrl-C does not reach it), on the same socket, with the backend
/// ``BackendChoice/automatic()`` picks.
enum DaemonLauncher {
  /// A daemon that answers on its socket.
  struct Started {
    var pid: pid_t
    var backend: BackendChoice
    /// What the user is told: which daemon, which backend and why, and how to stop it; nil when
    /// another daemon, started at the same moment (by the user or another command), took the
    /// socket's lock first and answered instead of this one.
    var announcement: String?
  }

  /// Starts a daemon and waits until a daemon answers on the socket: this one, or, when another
  /// took the socket's lock first (this one then exits at once), that one.
  static func start(socketPath: String, timeout: Duration) throws(DaemonStartFailure) -> Started {
    let (backend, reason) = BackendChoice.automatic()
    let executable: String
    do {
      executable = try DaemonProgram.locate()
    } catch {
      throw DaemonStartFailure("\(error)")
    }
    let arguments = ["--socket", socketPath, "--backend", backend.rawValue]
    closeOnExec()
    var pipeEnds: [Int32] = [0, 0]
    guard pipe(&pipeEnds) == 0 else {
      throw DaemonStartFailure("cannot create a pipe: \(String(cString: strerror(errno)))")
    }
    let child: ChildProcess
    do {
      child = try ChildProcess.spawn(
        executable, arguments: arguments, error: .descriptor(pipeEnds[1]), newSession: true)
    } catch {
      close(pipeEnds[0])
      close(pipeEnds[1])
      throw DaemonStartFailure("cannot start '\(executable)': \(error.reason)")
    }
    let pid = child.pid
    close(pipeEnds[1])
    defer { close(pipeEnds[0]) }
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    var exited = false
    var winner: Int32?
    while clock.now < deadline {
      if (try? DaemonConnection(socketPath: socketPath)) != nil {
        // Whoever answers holds the lock, and wrote its pid before it listened.
        let holder = DaemonLockFile.holder(socketPath: socketPath)
        guard !exited, holder == .daemon(pid: pid) || holder == .none else {
          // Another daemon took the lock first; this one exits (or has exited) at once: reap
          // it, so that one daemon runs on the socket when this command goes on.
          if !exited { child.waitForExit(seconds: (deadline - clock.now) / .seconds(1)) }
          return Started(pid: holder.pid ?? pid, backend: backend, announcement: nil)
        }
        return Started(
          pid: pid, backend: backend,
          announcement: """
            sessionctl: started the audio session daemon (pid \(pid)) on \(socketPath) with the \
            \(backend.rawValue) backend (\(reason)); stop it with 'kill \(pid)'
            """)
      }
      if !exited, !child.isRunning {
        exited = true
        let output = readAll(pipeEnds[0]).trimmingWhitespace()
        // The loser of the lock waits for the winner.
        let holder = DaemonLockFile.holder(socketPath: socketPath)
        guard holder != .none, holder != .daemon(pid: pid) else {
          throw DaemonStartFailure(
            "the daemon started for this command exited at once"
              + (output.isEmpty ? "" : ": \(output)"))
        }
        winner = holder.pid
      } else if exited, DaemonLockFile.holder(socketPath: socketPath) == .none {
        let who = winner.map { " (pid \($0))" } ?? ""
        throw DaemonStartFailure(
          "another daemon\(who), started on '\(socketPath)' at the same moment, exited before "
            + "it answered")
      }
      usleep(10_000)
    }
    guard exited else {
      kill(pid, SIGTERM)
      throw DaemonStartFailure(
        "the daemon started for this command (pid \(pid)) did not answer on '\(socketPath)' "
          + "within \(timeout)")
    }
    let who = winner.map { " (pid \($0))" } ?? ""
    throw DaemonStartFailure(
      "another daemon\(who), started on '\(socketPath)' at the same moment, did not answer "
        + "within \(timeout)")
  }

  /// Marks every descriptor above standard error close-on-exec, so that the daemon, which
  /// outlives this command, holds none of its pipes open (a caller reading this command's output
  /// to its end would wait for the daemon).
  static func closeOnExec() {
    guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")
    else { return }
    for fd in entries.compactMap(Int32.init) where fd > 2 {
      let flags = fcntl(fd, F_GETFD)
      if flags >= 0 { _ = fcntl(fd, F_SETFD, flags | FD_CLOEXEC) }
    }
  }

  /// This program's path, from `/proc/self/exe`.
  static func ownExecutable() -> String {
    var buffer = [CChar](repeating: 0, count: 4096)
    let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard count > 0 else { return CommandLine.arguments[0] }
    return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  private static func readAll(_ fd: Int32) -> String {
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if count <= 0 { break }
      bytes += buffer[0..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}

/// A daemon could not be started for a live command.
struct DaemonStartFailure: Error, CustomStringConvertible {
  var reason: String

  init(_ reason: String) { self.reason = reason }

  var description: String {
    "no audio session daemon was running, and starting one failed: \(reason). Start it yourself "
      + "with 'sessionctl daemon' to see why."
  }
}
