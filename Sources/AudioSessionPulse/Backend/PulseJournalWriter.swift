import AudioSessionSystem
import Logging

#if canImport(Glibc)
  import Glibc
#endif

/// Writes the changes file on a thread of its own, at a lower priority and ``delay`` after it
/// is handed a text: the file is for a daemon killed later, and its writing (a file beside,
/// then a rename) must not take the CPU from the decision whose requests have just left (two
/// cores, the server busy with the change: measured in pulse-bench section 4, p99 +150–280 µs
/// when written at once). The last text given in the meantime is the one written; an empty
/// text removes the file. The thread sleeps while there is nothing to write (no wakeups when
/// idle).
final class PulseJournalWriter: @unchecked Sendable {
  /// How long after a decision its changes are written: a daemon killed within it leaves that
  /// decision's changes as they are.
  static let delay = 0.05
  private let condition = Condition()
  private var pending: (text: String, path: String)?
  private var writing = false
  private var started = false
  private let logger: Logger

  init(logger: Logger) {
    self.logger = logger
  }

  /// Hands `text` to the writer thread (started the first time).
  func write(_ text: String, to path: String) {
    condition.lock()
    pending = (text, path)
    let start = !started
    started = true
    condition.broadcast()
    condition.unlock()
    if start { SystemThread.detach(name: "audiosession-journal") { [self] in run() } }
  }

  /// Waits until what was handed over has been written (the backend stops: the process may
  /// exit next).
  func flush() {
    condition.lock()
    while pending != nil || writing { condition.wait() }
    condition.unlock()
  }

  private func run() {
    // Lower than the daemon's other threads: on Linux the nice value is a thread's, and `0`
    // names the calling thread (setpriority(2), "Bugs"); raising it needs no privilege.
    _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
    while true {
      condition.lock()
      while pending == nil { condition.wait() }
      // Later texts replace this one meanwhile; the last is written.
      let deadline = MonotonicInstant.now().adding(seconds: Self.delay)
      while condition.wait(until: deadline) {}
      guard let (text, path) = pending else {
        condition.unlock()
        continue
      }
      pending = nil
      writing = true
      condition.unlock()
      Self.store(text, at: path, logger: logger)
      condition.lock()
      writing = false
      condition.broadcast()
      condition.unlock()
    }
  }

  private static func store(_ text: String, at path: String, logger: Logger) {
    guard !text.isEmpty else {
      unlink(path)
      return
    }
    // Written to a new file beside (O_EXCL, O_NOFOLLOW, mode 0600: nothing planted there is
    // followed), then renamed: a reader never sees half a file (docs/protocol.md "The socket"). Not
    // flushed to disk: it is for a daemon killed, not for a power cut, after which the server's
    // streams are gone too.
    do {
      try SafeFile.replace(path, with: Array(text.utf8), durable: false)
    } catch {
      logger.warning(
        "\(error); a daemon killed now would leave other programs' streams as they are")
    }
  }
}
