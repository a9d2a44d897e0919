import AudioSessionSystem
import Foundation
import Testing

/// ``TimerThread``: the daemon's `Task.sleep` that keeps libdispatch's pool asleep (an idle
/// daemon makes no wakeups: docs/style.md §3.12). Behaviour only; no figure is asserted.
@Suite struct TimerThreadTests {
  actor Order {
    var ended: [Int] = []
    func end(_ number: Int) { ended.append(number) }
  }

  @Test("a sleep lasts at least its duration, as Task.sleep's does")
  func sleep_returnsNoEarlierThanItsDuration() async throws {
    let clock = ContinuousClock()
    let start = clock.now
    try await TimerThread.sleep(for: .milliseconds(30))
    #expect(clock.now - start >= .milliseconds(30))
  }

  @Test("sleeps end in deadline order, whatever order they began in")
  func sleeps_endInDeadlineOrder() async throws {
    let order = Order()
    try await withThrowingTaskGroup(of: Void.self) { group in
      for (number, milliseconds) in [(3, 400), (1, 10), (2, 200)] {
        group.addTask {
          try await TimerThread.sleep(for: .milliseconds(milliseconds))
          await order.end(number)
        }
      }
      try await group.waitForAll()
    }
    #expect(await order.ended == [1, 2, 3])
  }

  @Test("cancelling a task ends its sleep with CancellationError, like Task.sleep")
  func sleep_cancelled_throwsCancellationError() async throws {
    // An hour-long sleep: the test can only finish if cancellation ends it.
    let sleeper = Task { try await TimerThread.sleep(for: .seconds(3600)) }
    try await TimerThread.sleep(for: .milliseconds(20))
    sleeper.cancel()
    await #expect(throws: CancellationError.self) { try await sleeper.value }
  }

  @Test("a task cancelled before it sleeps does not sleep")
  func sleep_alreadyCancelled_throwsAtOnce() async throws {
    let sleeper = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      try await TimerThread.sleep(for: .seconds(3600))
    }
    await #expect(throws: CancellationError.self) { try await sleeper.value }
  }

  @Test("zero and negative durations return at once")
  func sleep_zeroOrNegative_returns() async throws {
    try await TimerThread.sleep(for: .zero)
    try await TimerThread.sleep(for: .seconds(-1))
  }
}
