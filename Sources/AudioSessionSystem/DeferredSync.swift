#if canImport(Glibc)
  import Glibc
#endif

/// Flushes a file to disk a while after it was written, on a thread of its own: the writes of a
/// burst reach the disk with one `fdatasync`, and the writer never waits for the disk (4 ms and
/// more on ext4, against a few microseconds for the write itself). A write survives the process
/// being killed as soon as `write` returns; this is for a power cut.
///
/// The thread starts with the first ``schedule(_:)`` and then sleeps without a timeout while
/// nothing waits (an idle daemon makes no wakeups).
public final class DeferredSync: @unchecked Sendable {
  /// How long after the first write of a burst it is flushed.
  public let delay: Double
  private let condition = Condition()
  /// A duplicate of the descriptor to flush, while a flush waits.
  private var pending: Int32 = -1
  private var deadline = MonotonicInstant.now()
  private var syncing = false
  private var started = false
  private var stopped = false

  public init(delay: Double = 1) { self.delay = delay }

  /// Flushes the file `fd` is open on within ``delay`` (the descriptor is duplicated: the
  /// caller may close its own).
  public func schedule(_ fd: Int32) {
    condition.lock()
    defer { condition.unlock() }
    guard pending < 0, !stopped else { return }
    pending = dup(fd)
    guard pending >= 0 else { return }
    _ = fcntl(pending, F_SETFD, FD_CLOEXEC)
    deadline = MonotonicInstant.now().adding(seconds: delay)
    if !started {
      started = true
      SystemThread.detach(name: "audiosession-sync") { [self] in run() }
    }
    condition.broadcast()
  }

  /// Flushes at once what waits, and returns when it is on disk.
  public func flush() {
    condition.lock()
    while syncing { condition.wait() }
    let fd = pending
    pending = -1
    condition.unlock()
    if fd >= 0 {
      _ = fdatasync(fd)
      close(fd)
    }
  }

  /// Flushes what waits and ends the thread; later ``schedule(_:)`` calls do nothing.
  public func stop() {
    flush()
    condition.lock()
    stopped = true
    condition.broadcast()
    condition.unlock()
  }

  private func run() {
    condition.lock()
    while true {
      while pending < 0, !stopped { condition.wait() }
      if stopped {
        condition.unlock()
        return
      }
      while pending >= 0, condition.wait(until: deadline) {}
      guard pending >= 0 else { continue }
      let fd = pending
      pending = -1
      syncing = true
      condition.unlock()
      _ = fdatasync(fd)
      close(fd)
      condition.lock()
      syncing = false
      condition.broadcast()
    }
  }
}
