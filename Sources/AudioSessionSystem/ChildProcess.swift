import FoundationEssentials
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// A program started with `posix_spawn` and later stopped by PID: the one way the package starts
/// a child (the private servers' programs, the daemon a live command starts, the tests' helpers).
///
/// The child gets an empty signal mask and default signal dispositions
/// (`POSIX_SPAWN_SETSIGMASK`, `POSIX_SPAWN_SETSIGDEF`): Swift's concurrency runs on threads that
/// block most signals, and a child spawned from one (as `Foundation.Process` does) inherits that
/// mask, so programs that handle SIGTERM with an ordinary handler (`dbus-daemon`, `wireplumber`)
/// would never see it. It is reaped with `waitpid`, polled: nothing here starts a thread or a
/// Dispatch queue, so an idle daemon that started a child still never wakes.
///
/// (swift-subprocess runs children from async code with its own monitor thread; the private
/// servers start synchronously, and the daemon must start no thread it does not own.)
package final class ChildProcess: Sendable {
  /// Where one of the child's standard streams goes.
  package enum Stream: Sendable, Hashable {
    /// `/dev/null`.
    case null
    /// The file at the path, created (0600) when missing, appended to.
    case appending(String)
    /// A descriptor of this process (duplicated into the child).
    case descriptor(Int32)
    /// For standard error only: wherever standard output goes.
    case output
    /// This process's own (a program run in the foreground of a terminal).
    case inherited
  }

  /// The child could not be started.
  package struct SpawnError: Error, Sendable, Hashable, CustomStringConvertible {
    package var executable: String
    package var reason: String

    package var description: String { "cannot run \(executable): \(reason)" }
  }

  /// glibc's `posix_spawn_file_actions_addclosefrom_np` (glibc ≥ 2.34; declared only under
  /// `_GNU_SOURCE`, so Swift's Glibc does not import it), looked up at run time: the child closes
  /// every descriptor from 3 up, so none of this process's (its sockets, a file being written
  /// that another thread is about to run: "Text file busy") leaks into the child. Nil on an
  /// older glibc, where children inherit what is not close-on-exec, as before.
  typealias AddCloseFrom =
    @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32
  static let addCloseFrom: AddCloseFrom? = {
    guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return nil }
    return unsafeBitCast(symbol, to: AddCloseFrom.self)
  }()

  /// glibc's `POSIX_SPAWN_SETSID` (`<spawn.h>`: "# define POSIX_SPAWN_SETSID 0x80", glibc ≥ 2.26,
  /// declared only under `_GNU_SOURCE`, so Swift's Glibc does not import it).
  static let spawnSetSID: Int32 = 0x80

  package let pid: Int32
  /// Whether the child has exited (and was reaped), and its exit status if it exited normally.
  private let reaped = Mutex((exited: false, status: Int32?.none))

  private init(pid: pid_t) {
    self.pid = pid
  }

  /// Starts `executable` (a path) with `arguments`.
  ///
  /// - Parameters:
  ///   - environment: The child's environment (nil: this process's).
  ///   - newSession: Starts the child in a session of its own (`setsid`), so a terminal's Ctrl-C
  ///     does not reach it.
  ///   - newProcessGroup: Starts the child in a process group of its own, as a shell with job
  ///     control or a desktop launcher starts a program: the daemon counts a process group's
  ///     streams of one program as one app (docs/apps.md "Sessions of other programs"), so the
  ///     tests' programs, each started on its own, are each their own app.
  ///   - searchingPath: `executable` may be a name to look up in `PATH` (`posix_spawnp`), as a
  ///     shell does.
  /// - Throws: ``SpawnError`` when `posix_spawn` fails (no such program, not executable…).
  package static func spawn(
    _ executable: String, arguments: [String], environment: [String: String]? = nil,
    input: Stream = .null, output: Stream = .null, error: Stream = .output,
    newSession: Bool = false, newProcessGroup: Bool = false, searchingPath: Bool = false
  ) throws(SpawnError) -> ChildProcess {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    for (fd, stream) in [(Int32(0), input), (1, output), (2, error)] {
      switch stream {
      case .null:
        posix_spawn_file_actions_addopen(
          &actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0)
      case .appending(let path):
        posix_spawn_file_actions_addopen(&actions, fd, path, O_WRONLY | O_CREAT | O_APPEND, 0o600)
      case .descriptor(let source):
        posix_spawn_file_actions_adddup2(&actions, source, fd)
      case .output:
        posix_spawn_file_actions_adddup2(&actions, 1, fd)
      case .inherited:
        break
      }
    }
    // After the standard streams are in place: nothing else of this process goes along.
    _ = Self.addCloseFrom?(&actions, 3)

    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var empty = sigset_t()
    sigemptyset(&empty)
    var all = sigset_t()
    sigfillset(&all)
    posix_spawnattr_setsigmask(&attributes, &empty)
    posix_spawnattr_setsigdefault(&attributes, &all)
    var flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
    if newSession { flags |= spawnSetSID }
    if newProcessGroup, !newSession {
      flags |= POSIX_SPAWN_SETPGROUP
      posix_spawnattr_setpgroup(&attributes, 0)
    }
    posix_spawnattr_setflags(&attributes, Int16(flags))

    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } + [nil] }
    defer {
      for pointer in argv { free(pointer) }
      for pointer in envp ?? [] { free(pointer) }
    }
    var pid: pid_t = 0
    let spawn = searchingPath ? posix_spawnp : posix_spawn
    let result =
      if let envp {
        spawn(&pid, executable, &actions, &attributes, argv, envp)
      } else {
        spawn(&pid, executable, &actions, &attributes, argv, environ)
      }
    guard result == 0 else {
      throw SpawnError(executable: executable, reason: String(cString: strerror(result)))
    }
    return ChildProcess(pid: pid)
  }

  /// Whether the child is alive (reaps it once it has exited).
  package var isRunning: Bool {
    reaped.withLock { reaped in
      guard !reaped.exited else { return false }
      var waitStatus: Int32 = 0
      let result = waitpid(pid, &waitStatus, WNOHANG)
      if result == pid {
        reaped.exited = true
        // WIFEXITED / WEXITSTATUS (macros Swift does not import); a signal leaves it nil.
        reaped.status = waitStatus & 0x7f == 0 ? (waitStatus >> 8) & 0xff : nil
      } else if result < 0, errno == ECHILD {
        reaped.exited = true
      }
      return !reaped.exited
    }
  }

  /// The exit status once the child has exited normally (nil while it runs, or when a signal
  /// ended it).
  package var exitStatus: Int32? {
    guard !isRunning else { return nil }
    return reaped.withLock { $0.status }
  }

  /// Waits, blocking, until the child exits, and returns its status as a shell gives it: its
  /// exit code, or 128 + the number of the signal that ended it.
  package func waitUntilExit() -> Int32 {
    reaped.withLock { reaped in
      guard !reaped.exited else { return reaped.status ?? 1 }
      var waitStatus: Int32 = 0
      while waitpid(pid, &waitStatus, 0) < 0 {
        guard errno == EINTR else {
          reaped.exited = true
          return 1
        }
      }
      reaped.exited = true
      let signalled = waitStatus & 0x7f
      reaped.status = signalled == 0 ? (waitStatus >> 8) & 0xff : nil
      return signalled == 0 ? (waitStatus >> 8) & 0xff : 128 + signalled
    }
  }

  /// Waits for the child to exit, polling, up to `seconds`; true once it has.
  @discardableResult
  package func waitForExit(seconds: Double) -> Bool {
    let deadline = MonotonicInstant.now().adding(seconds: seconds)
    while isRunning {
      guard MonotonicInstant.now() < deadline else { return false }
      usleep(2_000)
    }
    return true
  }

  /// Sends `signal`, waits up to `seconds` for the child to exit, then kills it with SIGKILL
  /// and reaps it.
  package func end(_ signal: Int32, seconds: Double = 5) {
    guard isRunning else { return }
    kill(pid, signal)
    guard !waitForExit(seconds: seconds) else { return }
    kill(pid, SIGKILL)
    while isRunning { usleep(2_000) }
  }
}
