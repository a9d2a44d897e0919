import AudioSession
import CPulse

/// Owns one libpulse threaded mainloop: the thread on which every callback of the contexts and
/// streams attached to it runs.
///
/// Threading rules (from `thread-mainloop.h`):
/// - "The lock needs to be held whenever you call any PulseAudio function that uses an object
///   associated with this main loop" → every wrapper call goes through ``withLock(_:)``.
/// - "Events that are dispatched from the event loop thread are executed with this lock held" →
///   callbacks never lock again, never block and never await; they copy data out and resume or
///   yield.
/// - `pa_threaded_mainloop_stop` "must be called without the lock (see below) held", and
///   stopping from the loop thread itself would deadlock → ``deinit`` traps when it runs on the
///   loop thread.
///
/// The corresponding C type is `pa_threaded_mainloop`.
final class PulseMainloop: @unchecked Sendable {
  /// The `pa_threaded_mainloop*`; valid until ``deinit``.
  let loop: OpaquePointer

  /// Creates the loop and starts its thread, named `name` in backtraces.
  /// The corresponding C functions are `pa_threaded_mainloop_new` and `…_start`.
  init(name: String) throws(PulseError) {
    guard let loop = pa_threaded_mainloop_new() else { throw .internalError }
    pa_threaded_mainloop_set_name(loop, name)
    let status = pa_threaded_mainloop_start(loop)
    guard status >= 0 else {
      pa_threaded_mainloop_free(loop)
      throw PulseError(rawValue: status)
    }
    self.loop = loop
  }

  deinit {
    guard pa_threaded_mainloop_in_thread(loop) == 0 else {
      preconditionFailure("a PulseAudio mainloop was released on its own thread; it cannot stop")
    }
    // "Terminate the event loop thread cleanly. Make sure to unlock the mainloop object before
    // calling this function." (pa_threaded_mainloop_stop)
    pa_threaded_mainloop_stop(loop)
    pa_threaded_mainloop_free(loop)
  }

  /// The vtable contexts are created with. The corresponding C function is
  /// `pa_threaded_mainloop_get_api`.
  var api: UnsafeMutablePointer<pa_mainloop_api> {
    guard let api = pa_threaded_mainloop_get_api(loop) else {
      preconditionFailure("pa_threaded_mainloop_get_api returned NULL")
    }
    return api
  }

  /// Whether the caller runs on the loop thread (inside a callback, where the lock is held).
  var isLoopThread: Bool { pa_threaded_mainloop_in_thread(loop) != 0 }

  /// Runs `body` with the loop lock held. On the loop thread the lock is already held ("This
  /// function may not be called inside the event loop thread"), so `body` runs directly.
  func withLock<Result, Failure: Error>(
    _ body: () throws(Failure) -> Result
  ) throws(Failure) -> Result {
    if isLoopThread { return try body() }
    pa_threaded_mainloop_lock(loop)
    defer { pa_threaded_mainloop_unlock(loop) }
    return try body()
  }
}
