package import AudioSession
import AudioSessionSystem
import AudioSessionWire
package import Foundation

/// Records notifications delivered on other threads, in order, and lets a test wait until a
/// number of them (or the end of the connection) has arrived — a bounded wait, never a sleep.
package final class NotificationRecorder: @unchecked Sendable {
  private let condition = NSCondition()
  private var recorded: [SessionNotification] = []
  private var isClosed = false

  package init() {}

  package func record(_ notification: SessionNotification) {
    condition.lock()
    recorded.append(notification)
    condition.broadcast()
    condition.unlock()
  }

  package func close() {
    condition.lock()
    isClosed = true
    condition.broadcast()
    condition.unlock()
  }

  package var notifications: [SessionNotification] {
    condition.lock()
    defer { condition.unlock() }
    return recorded
  }

  package var closed: Bool {
    condition.lock()
    defer { condition.unlock() }
    return isClosed
  }

  /// Waits until at least `count` notifications arrived (at most `timeout` seconds); returns
  /// them all.
  @discardableResult
  package func wait(for count: Int, timeout: TimeInterval = 10) -> [SessionNotification] {
    let deadline = Date(timeIntervalSinceNow: timeout)
    condition.lock()
    defer { condition.unlock() }
    while recorded.count < count, !isClosed, condition.wait(until: deadline) {}
    return recorded
  }

  /// Waits until the notifications so far satisfy `predicate` (at most `timeout` seconds);
  /// returns whether they do.
  package func wait(
    timeout: TimeInterval = 10, until predicate: ([SessionNotification]) -> Bool
  ) -> Bool {
    let deadline = Date(timeIntervalSinceNow: timeout)
    condition.lock()
    defer { condition.unlock() }
    while !predicate(recorded), condition.wait(until: deadline) {}
    return predicate(recorded)
  }

  /// Waits until the connection ended (at most `timeout` seconds).
  @discardableResult
  package func waitUntilClosed(timeout: TimeInterval = 10) -> Bool {
    let deadline = Date(timeIntervalSinceNow: timeout)
    condition.lock()
    defer { condition.unlock() }
    while !isClosed, condition.wait(until: deadline) {}
    return isClosed
  }
}

/// Records a library session's typed events, in order.
package final class EventRecorder: @unchecked Sendable {
  private let condition = NSCondition()
  private var recorded: [SessionEvent] = []
  private var task: Task<Void, Never>?
  private let executor = DedicatedThreadExecutor(name: "event-recorder")

  /// Starts recording `events` (the subscription exists when this returns). The stream is read
  /// on a thread of its own, so the recorder keeps up while the test blocks pool threads.
  package init(_ events: AsyncStream<SessionEvent>) {
    task = Task(executorPreference: executor) { [weak self] in
      for await event in events { self?.record(event) }
    }
  }

  deinit {
    task?.cancel()
    executor.stop()
  }

  private func record(_ event: SessionEvent) {
    condition.lock()
    recorded.append(event)
    condition.broadcast()
    condition.unlock()
  }

  package var events: [SessionEvent] {
    condition.lock()
    defer { condition.unlock() }
    return recorded
  }

  /// Waits until an event satisfying `predicate` arrived (at most `timeout` seconds).
  @discardableResult
  package func wait(
    timeout: TimeInterval = 10, until predicate: ([SessionEvent]) -> Bool
  ) -> [SessionEvent] {
    let deadline = Date(timeIntervalSinceNow: timeout)
    condition.lock()
    defer { condition.unlock() }
    while !predicate(recorded), condition.wait(until: deadline) {}
    return recorded
  }
}
