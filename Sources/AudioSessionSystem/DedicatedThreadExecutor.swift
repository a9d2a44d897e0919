import FoundationEssentials

/// A task executor with one thread of its own: tasks that prefer it run their default-actor code
/// (the daemon's core and its backend) on this thread, never on the
/// cooperative pool. So the engine makes progress while synchronous callers block pool threads
/// waiting for it (the client library in the same process, as in embedded mode and tests).
///
/// It is also a serial executor, so an actor can be pinned to the thread (``DaemonCore`` is).
///
/// Idle, the thread sleeps in a condition wait with no timer. Given ``Quiet`` work, it runs that
/// work once each time it has been without jobs for the quiet period after running some (and
/// once after it starts): one timed wakeup per burst of work, none while nothing happens.
public final class DedicatedThreadExecutor: TaskExecutor, SerialExecutor, @unchecked Sendable {
  /// Work for the thread to do once it has been without jobs for `seconds`.
  public struct Quiet: Sendable {
    public let seconds: Double
    public let work: @Sendable () -> Void

    public init(after seconds: Double, _ work: @escaping @Sendable () -> Void) {
      self.seconds = seconds
      self.work = work
    }
  }

  private let condition = Condition()
  private var jobs: [UnownedJob] = []
  private var stopped = false
  private let quiet: Quiet?

  /// Starts the thread; it runs until ``stop()``.
  public init(name: String, whenQuiet quiet: Quiet? = nil) {
    self.quiet = quiet
    SystemThread.detach(name: name) { [self] in self.run() }
  }

  public func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    condition.lock()
    jobs.append(job)
    condition.signal()
    condition.unlock()
  }

  private func run() {
    var busySinceQuiet = true
    while true {
      condition.lock()
      if let quiet, busySinceQuiet {
        busySinceQuiet = false
        let deadline = MonotonicInstant.now().adding(seconds: quiet.seconds)
        while jobs.isEmpty, !stopped, MonotonicInstant.now() < deadline {
          condition.wait(until: deadline)
        }
        if jobs.isEmpty, !stopped {
          condition.unlock()
          quiet.work()
          continue
        }
      }
      while jobs.isEmpty, !stopped { condition.wait() }
      if jobs.isEmpty {
        condition.unlock()
        return
      }
      let batch = jobs
      jobs.removeAll(keepingCapacity: true)
      condition.unlock()
      busySinceQuiet = true
      for job in batch {
        job.runSynchronously(
          isolatedTo: asUnownedSerialExecutor(), taskExecutor: asUnownedTaskExecutor())
      }
    }
  }

  /// Lets the thread end once the jobs queued so far have run.
  public func stop() {
    condition.lock()
    stopped = true
    condition.signal()
    condition.unlock()
  }

  /// Runs `body` on this executor and blocks the calling thread until it returns.
  package func runBlocking<Value: Sendable>(_ body: @escaping @Sendable () async -> Value) -> Value
  {
    let box = ResultBox<Value>()
    Task(executorPreference: self) { box.fulfil(await body()) }
    return box.wait()
  }
}

/// A value handed from the executor's thread to a blocked caller.
private final class ResultBox<Value>: @unchecked Sendable {
  private let condition = Condition()
  private var value: Value?

  func fulfil(_ value: Value) {
    condition.lock()
    self.value = value
    condition.signal()
    condition.unlock()
  }

  func wait() -> Value {
    condition.lock()
    defer { condition.unlock() }
    while true {
      if let value { return value }
      condition.wait()
    }
  }
}
