import AudioSession
import AudioSessionPulse
import AudioSessionSystem
import AudioSessionWire
import FoundationEssentials

/// Records the events of a libpulse-backed `AsyncStream` and lets a test wait, with a bounded
/// timeout that fails the test, for the next event that matches.
///
/// ``next(_:timeout:where:)`` searches from just after the previous match, so a sequence of
/// `next` calls asserts the events' order. No sleeps: a wait ends as soon as the event arrives.
package actor PulseEventRecorder<Event: Sendable & CustomStringConvertible> {
  /// Every event received so far, in order.
  package private(set) var events: [Event] = []
  private var cursor = 0
  private var waiter: Waiter?
  private var pump: Task<Void, Never>?
  private var finished = false

  private struct Waiter {
    var id: Int
    var matches: @Sendable (Event) -> Bool
    var continuation: CheckedContinuation<Event?, Never>
  }

  private var nextWaiterID = 0

  /// How many times longer every wait may last: `AUDIOSESSION_TEST_WAIT_SCALE` (a whole number
  /// from 1 to 100; 1 when unset or not one). `make sanitize` sets 4: under ThreadSanitizer the
  /// suite runs several times slower, and a server killed and started again reached the backend
  /// after more than the 40 s a plain run allows (docs/fuzzing.md "Sanitizers").
  package static var waitScale: Int {
    let text = ProcessInfo.processInfo.environment["AUDIOSESSION_TEST_WAIT_SCALE"] ?? ""
    guard let scale = Int(text), (1...100).contains(scale) else { return 1 }
    return scale
  }

  /// Starts recording `stream` (which must not be iterated elsewhere).
  package static func recording(_ stream: AsyncStream<Event>) async -> PulseEventRecorder {
    let recorder = PulseEventRecorder()
    await recorder.start(stream)
    return recorder
  }

  private func start(_ stream: AsyncStream<Event>) {
    pump = Task { [weak self] in
      for await event in stream {
        await self?.record(event)
      }
      await self?.finish()
    }
  }

  deinit { pump?.cancel() }

  /// The position of the next event to be recorded, for ``next(_:since:timeout:where:)``.
  package func mark() -> Int { events.count }

  /// Waits for the next event that satisfies `matches`, searching from `mark` if given (for
  /// events whose relative order does not matter), else from just after the previous match.
  ///
  /// - Throws: ``PulseWaitTimeout`` naming `what` and listing every event seen, if none arrives
  ///   within `timeout` or the stream ends first. 30 s by default: with both cores taken by
  ///   other work, a call's end on pipewire-pulse reached the backend after more than 10 s
  ///   (the test process stalls for seconds at a time under such load); a wait that succeeds
  ///   returns as soon as the event comes.
  @discardableResult
  package func next(
    _ what: String, since mark: Int? = nil, timeout: Duration = .seconds(30),
    where matches: @escaping @Sendable (Event) -> Bool
  ) async throws -> Event {
    if let mark { cursor = mark }
    if let found = events[cursor...].firstIndex(where: matches) {
      cursor = found + 1
      return events[found]
    }
    cursor = events.count
    guard !finished else { throw timeoutError(what, timeout) }
    nextWaiterID += 1
    let id = nextWaiterID
    let timeout = timeout * Self.waitScale
    let event: Event? = await withCheckedContinuation { continuation in
      waiter = Waiter(id: id, matches: matches, continuation: continuation)
      Task { [weak self] in
        try? await Task.sleep(for: timeout)
        await self?.expire(id)
      }
    }
    guard let event else { throw timeoutError(what, timeout) }
    return event
  }

  /// Whether any event recorded so far satisfies `matches`.
  package func contains(where matches: (Event) -> Bool) -> Bool { events.contains(where: matches) }

  private func record(_ event: Event) {
    events.append(event)
    guard let current = waiter, current.matches(event) else { return }
    waiter = nil
    cursor = events.count
    current.continuation.resume(returning: event)
  }

  private func finish() {
    finished = true
    if let current = waiter {
      waiter = nil
      current.continuation.resume(returning: nil)
    }
  }

  private func expire(_ id: Int) {
    guard let current = waiter, current.id == id else { return }
    waiter = nil
    current.continuation.resume(returning: nil)
  }

  private func timeoutError(_ what: String, _ timeout: Duration) -> PulseWaitTimeout {
    PulseWaitTimeout(
      message: "no \(what) within \(timeout)\(finished ? " (stream ended)" : ""); events seen: "
        + (events.isEmpty ? "none" : events.map(\.description).joined(separator: ", ")))
  }
}

/// A bounded wait for an event ran out.
package struct PulseWaitTimeout: Error, CustomStringConvertible {
  package var message: String
  package var description: String { message }

  package init(message: String) { self.message = message }
}
