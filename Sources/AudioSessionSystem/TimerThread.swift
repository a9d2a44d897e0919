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

  /// Guards what follows; signalled when a sleep starts.
  private let condition = Condition()
  private var sleepers: [Int: Sleeper] = [:]
  /// Sleeps cancelled before they were registered.
  private var cancelled: Set<Int> = []
  private var lastID = 0
  private var started = false

  private init() {}

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
          condition.signal()
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
    condition.lock()
    while true {
      let current = Self.now()
      let due = sleepers.filter { $0.value.deadline <= current }
      if !due.isEmpty {
        for id in due.keys { sleepers[id] = nil }
        condition.unlock()
        for sleeper in due.values { sleeper.continuation.resume() }
        condition.lock()
        continue
      }
      if let next = sleepers.values.map(\.deadline).min() {
        condition.wait(until: MonotonicInstant(nanoseconds: next))
      } else {
        condition.wait()
      }
    }
  }

  private func locked<Value>(_ body: () -> Value) -> Value {
    condition.lock()
    defer { condition.unlock() }
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
