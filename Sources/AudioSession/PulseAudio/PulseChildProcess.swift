import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A program the private servers start and later stop by PID, spawned with a clean signal
/// state.
///
/// Swift's concurrency runs on libdispatch worker threads, which block most signals; a child
/// spawned from one (as `Foundation.Process` does) inherits that mask, and programs that handle
/// SIGTERM with an ordinary handler (`dbus-daemon`, `wireplumber`) then never see it. So the
/// child gets an empty signal mask and default dispositions (`POSIX_SPAWN_SETSIGMASK`,
/// `POSIX_SPAWN_SETSIGDEF`). Its output goes to a log file; it is reaped with `waitpid`.
final class PulseChildProcess: @unchecked Sendable {
  let pid: pid_t
  private let lock = NSLock()
  private var exited = false
  private var status: Int32?

  private init(pid: pid_t) {
    self.pid = pid
  }

  /// Starts `executable` with `arguments` and `environment`; stdin is /dev/null, stdout and
  /// stderr append to `log`.
  static func spawn(
    _ executable: String, arguments: [String], environment: [String: String], log: String
  ) throws(PulseServerError) -> PulseChildProcess {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_APPEND, 0o600)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)

    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var empty = sigset_t()
    sigemptyset(&empty)
    var all = sigset_t()
    sigfillset(&all)
    posix_spawnattr_setsigmask(&attributes, &empty)
    posix_spawnattr_setsigdefault(&attributes, &all)
    posix_spawnattr_setflags(
      &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      for pointer in argv { free(pointer) }
      for pointer in envp { free(pointer) }
    }
    var pid: pid_t = 0
    let status = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
    guard status == 0 else {
      throw PulseServerError(
        .startFailed, "cannot run \(executable): \(String(cString: strerror(status)))")
    }
    return PulseChildProcess(pid: pid)
  }

  /// Whether the child is alive (reaps it once it has exited).
  var isRunning: Bool {
    lock.lock()
    defer { lock.unlock() }
    guard !exited else { return false }
    var waitStatus: Int32 = 0
    let result = waitpid(pid, &waitStatus, WNOHANG)
    if result == pid {
      exited = true
      // WIFEXITED / WEXITSTATUS (macros Swift does not import); a signal leaves it nil.
      status = waitStatus & 0x7f == 0 ? (waitStatus >> 8) & 0xff : nil
    } else if result < 0, errno == ECHILD {
      exited = true
    }
    return !exited
  }

  /// The exit status once the child has exited normally (nil while it runs, or when a signal
  /// ended it).
  var exitStatus: Int32? {
    guard !isRunning else { return nil }
    lock.lock()
    defer { lock.unlock() }
    return status
  }

  /// Sends `signal`, waits up to `seconds` for the child to exit, then kills it with SIGKILL
  /// and reaps it.
  func end(_ signal: Int32, seconds: Double = 5) {
    guard isRunning else { return }
    kill(pid, signal)
    let deadline = Date().addingTimeInterval(seconds)
    while isRunning, Date() < deadline { usleep(2_000) }
    guard isRunning else { return }
    kill(pid, SIGKILL)
    while isRunning { usleep(2_000) }
  }
}
