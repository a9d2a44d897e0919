// Condition variables and threads on POSIX directly, in place of Foundation's NSCondition and
// Thread: everything `sessionctl` links stays clear of Foundation, whose internationalisation
// data alone made the binary five times larger and its start-up slower (docs/modules.md "What
// sessionctl links"). A plain lock is the standard library's `Synchronization.Mutex`.
#if canImport(Glibc)
  import Glibc
#endif

/// A point on CLOCK_MONOTONIC, for waits with a timeout that wall-clock changes cannot stretch.
public struct MonotonicInstant: Sendable, Hashable, Comparable {
  public var nanoseconds: UInt64

  public init(nanoseconds: UInt64) {
    self.nanoseconds = nanoseconds
  }

  public static func now() -> MonotonicInstant {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return MonotonicInstant(
      nanoseconds: UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec))
  }

  /// `seconds` later (negative and non-finite values count as none).
  public func adding(seconds: Double) -> MonotonicInstant {
    guard seconds.isFinite, seconds > 0 else { return self }
    let added = min(seconds * 1e9, Double(UInt64.max / 2))
    return MonotonicInstant(nanoseconds: nanoseconds &+ UInt64(added))
  }

  public static func < (lhs: MonotonicInstant, rhs: MonotonicInstant) -> Bool {
    lhs.nanoseconds < rhs.nanoseconds
  }
}

/// The wall clock (CLOCK_REALTIME) in milliseconds since the Unix epoch: the one clock every
/// process of the host reads alike, whatever time namespace it runs in, for a deadline that one
/// process sets and another checks (docs/protocol.md "Request timeout").
public enum WallClock {
  public static func milliseconds() -> Int {
    var time = timespec()
    clock_gettime(CLOCK_REALTIME, &time)
    return time.tv_sec * 1000 + time.tv_nsec / 1_000_000
  }
}

/// Milliseconds on the monotonic clock (`CLOCK_MONOTONIC`): the time between two moments of one
/// process, whatever the wall clock does meanwhile.
public enum MonotonicClock {
  public static func milliseconds() -> Int {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return time.tv_sec * 1000 + time.tv_nsec / 1_000_000
  }
}

/// A lock with a condition variable (CLOCK_MONOTONIC), NSCondition's shape.
public final class Condition: @unchecked Sendable {
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

  public init() {
    pthread_mutex_init(mutex, nil)
    var attributes = pthread_condattr_t()
    pthread_condattr_init(&attributes)
    pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
    pthread_cond_init(condition, &attributes)
    pthread_condattr_destroy(&attributes)
  }

  deinit {
    pthread_cond_destroy(condition)
    pthread_mutex_destroy(mutex)
    condition.deallocate()
    mutex.deallocate()
  }

  public func lock() { pthread_mutex_lock(mutex) }
  public func unlock() { pthread_mutex_unlock(mutex) }
  public func signal() { pthread_cond_signal(condition) }
  public func broadcast() { pthread_cond_broadcast(condition) }

  /// Waits (the lock held) until signalled; wakeups may be spurious, so callers loop.
  public func wait() { pthread_cond_wait(condition, mutex) }

  /// Waits (the lock held) until signalled or `deadline`; false once the deadline has passed.
  @discardableResult
  public func wait(until deadline: MonotonicInstant) -> Bool {
    var until = timespec(
      tv_sec: Int(deadline.nanoseconds / 1_000_000_000),
      tv_nsec: Int(deadline.nanoseconds % 1_000_000_000))
    return pthread_cond_timedwait(condition, mutex, &until) == 0
  }
}

/// Threads of our own (`pthread_create`, detached), Foundation's `Thread { }.start()`.
public enum SystemThread {
  private final class Start {
    let name: String
    let body: () -> Void

    init(name: String, body: @escaping () -> Void) {
      self.name = name
      self.body = body
    }
  }

  /// Starts `body` on a new detached thread named `name` (as `ps -L` and gdb show it; Linux keeps
  /// the first 15 bytes).
  public static func detach(name: String, _ body: @escaping @Sendable () -> Void) {
    let start = Unmanaged.passRetained(Start(name: name, body: body)).toOpaque()
    var thread = pthread_t()
    let result = pthread_create(
      &thread, nil,
      { argument in
        guard let argument else { return nil }
        let start = Unmanaged<Start>.fromOpaque(argument).takeRetainedValue()
        SystemThread.name(start.name)
        start.body()
        return nil
      }, start)
    guard result == 0 else {
      Unmanaged<Start>.fromOpaque(start).release()
      fatalError("cannot start thread '\(name)': pthread_create returned \(result)")
    }
    pthread_detach(thread)
  }

  /// Names the calling thread through /proc (Swift's Glibc module leaves out
  /// `pthread_setname_np`, a GNU extension).
  static func name(_ name: String) {
    let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
    guard fd >= 0 else { return }
    defer { close(fd) }
    let bytes = Array(name.utf8.prefix(15))
    _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
  }
}

/// A lock the thread holding it may take again (`PTHREAD_MUTEX_RECURSIVE`), NSRecursiveLock's
/// shape.
public final class RecursiveLock: @unchecked Sendable {
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

  public init() {
    var attributes = pthread_mutexattr_t()
    pthread_mutexattr_init(&attributes)
    pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
    pthread_mutex_init(mutex, &attributes)
    pthread_mutexattr_destroy(&attributes)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  public func lock() { pthread_mutex_lock(mutex) }
  public func unlock() { pthread_mutex_unlock(mutex) }

  public func withLock<Value>(_ body: () throws -> Value) rethrows -> Value {
    lock()
    defer { unlock() }
    return try body()
  }
}
