import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// `Task.sleep` on a thread of our own, for the code a daemon runs.
///
/// Swift's `Task.sleep` hands its wakeup to libdispatch's global queues (in Swift 6.3 the default
/// executor schedules it there directly, past any executor hook); the first job there starts
/// libdispatch's pool monitor, which then wakes the process every second for good. This thread
/// instead waits on a condition variable (CLOCK_MONOTONIC) for the earliest deadline, or without
/// a timeout when nothing sleeps, so it wakes only when a sleep ends or a new one starts
/// (an idle daemon makes no wakeups: docs/style.md §3.12).
public final class TimerThread: @unchecked Sendable {
  /// The process's timer thread, started on first use.
  public static let shared = TimerThread()

  private struct Sleeper {
    var deadline: UInt64
    var continuation: CheckedContinuation<Void, any Error>
  }

  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
  private var sleepers: [Int: Sleeper] = [:]
  /// Sleeps cancelled before they were registered.
  private var cancelled: Set<Int> = []
  private var lastID = 0
  private var started = false

  private init() {
    pthread_mutex_init(mutex, nil)
    var attributes = pthread_condattr_t()
    pthread_condattr_init(&attributes)
    pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
    pthread_cond_init(condition, &attributes)
    pthread_condattr_destroy(&attributes)
  }

  /// Suspends the task for `duration`, like `Task.sleep(for:)`: throws `CancellationError` as
  /// soon as the task is cancelled.
  public static func sleep(for duration: Duration) async throws {
    try await shared.sleep(until: now() &+ nanoseconds(duration))
  }

  private func sleep(until deadline: UInt64) async throws {
    let id = locked {
      lastID += 1
      return lastID
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<Void, any Error>) in
        let wasCancelled = locked {
          if cancelled.remove(id) != nil { return true }
          sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
          if !started {
            started = true
            SystemThread.detach(name: "audiosession-timers") { [self] in run() }
          }
          pthread_cond_signal(condition)
          return false
        }
        if wasCancelled { continuation.resume(throwing: CancellationError()) }
      }
    } onCancel: {
      let sleeper = locked {
        let sleeper = sleepers.removeValue(forKey: id)
        if sleeper == nil { cancelled.insert(id) }
        return sleeper
      }
      sleeper?.continuation.resume(throwing: CancellationError())
    }
  }

  private func run() {
    pthread_mutex_lock(mutex)
    while true {
      let current = Self.now()
      let due = sleepers.filter { $0.value.deadline <= current }
      if !due.isEmpty {
        for id in due.keys { sleepers[id] = nil }
        pthread_mutex_unlock(mutex)
        for sleeper in due.values { sleeper.continuation.resume() }
        pthread_mutex_lock(mutex)
        continue
      }
      if let next = sleepers.values.map(\.deadline).min() {
        var until = timespec(
          tv_sec: Int(next / 1_000_000_000), tv_nsec: Int(next % 1_000_000_000))
        pthread_cond_timedwait(condition, mutex, &until)
      } else {
        pthread_cond_wait(condition, mutex)
      }
    }
  }

  private func locked<Value>(_ body: () -> Value) -> Value {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return body()
  }

  /// CLOCK_MONOTONIC, in nanoseconds.
  static func now() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
  }

  static func nanoseconds(_ duration: Duration) -> UInt64 {
    let (seconds, attoseconds) = duration.components
    guard seconds >= 0 else { return 0 }
    return UInt64(seconds) &* 1_000_000_000 &+ UInt64(max(attoseconds, 0) / 1_000_000_000)
  }
}
