import AudioSessionSystem
import Testing

#if canImport(Glibc)
  import Glibc
#endif

// docs/modules.md "What sessionctl links": the daemon's engine thread trims once it has been
// without work for a while after each burst, and makes no timed wakeup while nothing happens.
@Suite struct DedicatedThreadExecutorTests {
  /// What ran on the executor's thread, in order: its jobs and its quiet work.
  final class Events: Sendable {
    enum Event: Equatable { case job, quiet }

    private let condition = Condition()
    nonisolated(unsafe) private var events: [Event] = []

    func append(_ event: Event) {
      condition.lock()
      events.append(event)
      condition.broadcast()
      condition.unlock()
    }

    var all: [Event] {
      condition.lock()
      defer { condition.unlock() }
      return events
    }

    /// Waits until the last event is the quiet work's, or 10 s; the events then.
    func waitForQuiet() -> [Event] {
      let deadline = MonotonicInstant.now().adding(seconds: 10)
      condition.lock()
      defer { condition.unlock() }
      while events.last != .quiet, MonotonicInstant.now() < deadline {
        condition.wait(until: deadline)
      }
      return events
    }
  }

  @Test(
    "quiet work runs after start and after each burst of jobs, never twice without a job between (docs/modules.md What sessionctl links)"
  )
  func quietWork_runsAfterBursts_neverWhileIdle() async throws {
    let quiet = 0.2
    let idle = useconds_t(quiet * 3 * 1_000_000)
    let events = Events()
    let executor = DedicatedThreadExecutor(
      name: "test-quiet", whenQuiet: .init(after: quiet) { events.append(.quiet) })
    defer { executor.stop() }
    // Given a thread that has started: its start is a burst
    #expect(events.waitForQuiet() == [.quiet])
    // When it stays idle for several quiet periods, then the work does not run again
    usleep(idle)
    #expect(events.all == [.quiet])
    // When a burst of jobs runs, then the work runs after the last of them
    for _ in 0..<20 {
      await Task(executorPreference: executor) { events.append(.job) }.value
    }
    let afterBurst = events.waitForQuiet()
    #expect(afterBurst.last == .quiet)
    #expect(afterBurst.filter { $0 == .job }.count == 20)
    // and not again while nothing happens
    usleep(idle)
    #expect(events.all == afterBurst)
    // When one more job runs, then the work runs after it
    await Task(executorPreference: executor) { events.append(.job) }.value
    let afterJob = events.waitForQuiet()
    #expect(afterJob.suffix(2) == [.job, .quiet])
    // and never twice in a row: only after work (one run, unless the machine stalled mid-burst
    // for a quiet period)
    #expect(!zip(afterJob, afterJob.dropFirst()).contains { $0 == .quiet && $1 == .quiet })
  }

  @Test("an executor without quiet work runs its jobs (docs/modules.md)")
  func withoutQuietWork_runsJobs() async {
    let executor = DedicatedThreadExecutor(name: "test-plain")
    defer { executor.stop() }
    let value = await Task(executorPreference: executor) { 6 * 7 }.value
    #expect(value == 42)
  }
}
