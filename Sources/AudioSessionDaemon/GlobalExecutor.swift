import CSwiftRuntimeHooks
import NIOCore
import NIOPosix

/// Runs Swift concurrency's global executor on NIO's event loops instead of libdispatch's worker
/// pool, so that an idle daemon does not wake up at all (docs/style.md §3.12).
///
/// On Linux, libdispatch starts a pool monitor with its first worker thread: a timer on its
/// manager queue that fires every second for the rest of the process's life. NIO's event loops
/// sleep in `epoll_wait` with no timeout while they have nothing to do. Once installed, every
/// task and default actor runs on `MultiThreadedEventLoopGroup.singleton`, and no Dispatch worker
/// starts, provided the daemon's code uses neither `DispatchQueue` nor `Task.sleep` (whose
/// wakeup Swift 6.3 schedules on libdispatch directly; the daemon sleeps with ``TimerThread``).
public enum GlobalExecutor {
  /// The hook's Swift type (swift/Runtime/Concurrency.h), in the Swift calling convention.
  private typealias Enqueue =
    @convention(thin) (
      UnownedJob, @convention(thin) (UnownedJob) -> Void
    ) -> Void

  /// Installs the hook. Call it first thing in a synchronous `main`, before any task exists;
  /// returns false (changing nothing) when a hook is already set.
  @discardableResult
  public static func takeOver() -> Bool {
    guard cswift_enqueue_hook_is_unset() != 0 else { return false }
    let enqueue: Enqueue = { job, _ in
      MultiThreadedEventLoopGroup.singleton.any().executor.enqueue(ExecutorJob(job))
    }
    cswift_set_enqueue_hook(unsafeBitCast(enqueue, to: UnsafeMutableRawPointer.self))
    return true
  }
}
