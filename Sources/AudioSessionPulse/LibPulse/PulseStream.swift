import AudioSession
import CPulse

/// What playback and record streams share: a `pa_stream` with properties (`media.role`), its
/// state, cork/uncork, and the server's events for it (request-cork, request-uncork, moves).
///
/// Use ``PulsePlaybackStream`` or ``PulseRecordStream``. A stream keeps its ``context`` alive and
/// is disconnected and released in `deinit`. Threading as in ``PulseContext``: mutable members
/// only on the loop thread or under the loop lock. The corresponding C type is `pa_stream`.
package class PulseStream: @unchecked Sendable {
  /// The context the stream belongs to (kept alive by the stream).
  package let context: PulseContext
  /// The `pa_stream*`, owned (one reference, dropped in `deinit`).
  let stream: OpaquePointer

  /// State changes and server events, in delivery order. Buffering is unbounded; the stream
  /// finishes on ``disconnect()``. Iterate it from one task only.
  package let events: AsyncStream<PulseStreamEvent>
  private let eventSink: AsyncStream<PulseStreamEvent>.Continuation

  // Guarded by the loop lock.
  private var currentState = PulseStreamState.unconnected
  private var pendingConnect: CheckedContinuation<Result<Void, PulseError>, Never>?
  private var closed = false
  private var eventHandler: (@Sendable (PulseStreamEvent) -> Void)?

  /// The buffer target of a stream whose session asked for no buffer duration, in microseconds.
  package static let defaultLatency: UInt64 = 50_000

  /// 16-bit stereo at 44.1 kHz, a null sink's native format (no resampling).
  static let sampleSpec = pa_sample_spec(format: PA_SAMPLE_S16LE, rate: 44_100, channels: 2)

  init(
    context: PulseContext, name: String, properties: [String: String],
    sampleSpec: pa_sample_spec = PulseStream.sampleSpec
  ) throws(PulseError) {
    let proplist = try PulseContext.makeProplist(properties)
    // libpulse copies the initial property list (docs/pulseaudio.md §6), so ours is freed now.
    defer { pa_proplist_free(proplist) }
    let created = context.mainloop.withLock {
      withUnsafePointer(to: sampleSpec) {
        pa_stream_new_with_proplist(context.context, name, $0, nil, proplist)
      }
    }
    guard let created else { throw PulseContext.lastError(of: context.context) }
    self.context = context
    self.stream = created
    (events, eventSink) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
    let userdata = Unmanaged.passUnretained(self).toOpaque()
    context.mainloop.withLock {
      pa_stream_set_state_callback(created, Self.stateChanged, userdata)
      pa_stream_set_event_callback(created, Self.eventReceived, userdata)
      pa_stream_set_moved_callback(created, Self.moved, userdata)
      pa_stream_set_suspended_callback(created, Self.suspended, userdata)
      installDataCallback(userdata)
    }
  }

  deinit {
    close(announce: false)
    context.mainloop.withLock { pa_stream_unref(stream) }
  }

  /// Sets the write or read callback (subclasses); runs with the loop lock held.
  func installDataCallback(_ userdata: UnsafeMutableRawPointer) {}

  /// Clears the write or read callback (subclasses); runs with the loop lock held.
  func removeDataCallback() {}

  /// The current state.
  package var state: PulseStreamState { context.mainloop.withLock { currentState } }

  /// The stream's index on the server once ready: its sink input (playback) or source output
  /// (record). The corresponding C function is `pa_stream_get_index`.
  package var index: UInt32? {
    context.mainloop.withLock {
      guard currentState == .ready else { return nil }
      return PulseCopy.index(pa_stream_get_index(stream))
    }
  }

  /// Whether the stream is corked (paused). The corresponding C function is
  /// `pa_stream_is_corked`.
  package var isCorked: Bool {
    context.mainloop.withLock { pa_stream_is_corked(stream) == 1 }
  }

  /// Hands every later event to `handler` on the loop thread instead of queueing it on
  /// ``events`` (nil: back to ``events``). The rules of ``PulseContext/setEventHandler(_:)``
  /// apply: the handler must return quickly and never block.
  package func setEventHandler(_ handler: (@Sendable (PulseStreamEvent) -> Void)?) {
    context.mainloop.withLock { eventHandler = handler }
  }

  /// Corks (pauses) or uncorks the stream, as a client does after ``PulseStreamEvent/requestCork``
  /// and ``PulseStreamEvent/requestUncork``. The corresponding C function is `pa_stream_cork`.
  package func setCorked(_ corked: Bool) async throws(PulseError) {
    let reply = await PulseRequest<Bool>.send(on: context.mainloop, context: context.context) {
      userdata in
      pa_stream_cork(stream, corked ? 1 : 0, Self.succeeded, userdata)
    }
    _ = try reply.get()
  }

  /// Sends a cork or uncork request now and returns without waiting; `completion` receives
  /// the outcome on the loop thread (nil: done). Requests on one connection are carried out in
  /// the order they were sent. The corresponding C function is `pa_stream_cork`.
  package func setCorked(_ corked: Bool, completion: @escaping @Sendable (PulseError?) -> Void) {
    PulseRequest<Bool>.start(
      on: context.mainloop, context: context.context,
      completion: { completion($0.failure) }
    ) { userdata in
      pa_stream_cork(stream, corked ? 1 : 0, Self.succeeded, userdata)
    }
  }

  /// Disconnects the stream (it disappears from the server; state `terminated`) and finishes
  /// ``events``. Idempotent. The corresponding C function is `pa_stream_disconnect`.
  package func disconnect() {
    close(announce: true)
  }

  /// Starts connecting with `start` (which calls `pa_stream_connect_*` with the loop lock held
  /// and returns its status) and returns once the stream is ready.
  func connect(_ start: () -> Int32) async throws(PulseError) {
    let mainloop = context.mainloop
    let result = await withCheckedContinuation {
      (continuation: CheckedContinuation<Result<Void, PulseError>, Never>) in
      mainloop.withLock {
        guard pendingConnect == nil, currentState == .unconnected, !closed else {
          continuation.resume(returning: .failure(.badState))
          return
        }
        pendingConnect = continuation
        let status = start()
        if status < 0 {
          resumeConnect(.failure(PulseError(rawValue: status)))
        }
      }
    }
    try result.get()
  }

  /// A short target buffer (50 ms) so that corking takes effect promptly.
  /// A target of `latency` microseconds (50 ms unless a session asked for another buffer
  /// duration) for playback (`tlength`) and recording (`fragsize`).
  static func bufferAttributes(latency: UInt64 = defaultLatency) -> pa_buffer_attr {
    let target = withUnsafePointer(to: sampleSpec) { pa_usec_to_bytes(latency, $0) }
    return pa_buffer_attr(
      maxlength: UInt32.max, tlength: UInt32(target), prebuf: UInt32.max, minreq: UInt32.max,
      fragsize: UInt32(target))
  }

  private func close(announce: Bool) {
    context.mainloop.withLock {
      guard !closed else { return }
      closed = true
      clearCallbacks()
      if currentState == .ready || currentState == .creating {
        // The server confirms asynchronously (TERMINATED after its reply); the callbacks are
        // gone by then, so the final state is recorded here.
        pa_stream_disconnect(stream)
        currentState = .terminated
        if announce { eventSink.yield(.state(.terminated)) }
      }
      resumeConnect(.failure(.badState))
    }
    eventSink.finish()
  }

  private func clearCallbacks() {
    pa_stream_set_state_callback(stream, nil, nil)
    pa_stream_set_event_callback(stream, nil, nil)
    pa_stream_set_moved_callback(stream, nil, nil)
    pa_stream_set_suspended_callback(stream, nil, nil)
    removeDataCallback()
    eventHandler = nil
  }

  private func resumeConnect(_ result: Result<Void, PulseError>) {
    guard let pending = pendingConnect else { return }
    pendingConnect = nil
    pending.resume(returning: result)
  }

  /// On the loop thread: to the handler if one is set, else onto ``events``.
  private func deliver(_ event: PulseStreamEvent) {
    if let eventHandler {
      eventHandler(event)
    } else {
      eventSink.yield(event)
    }
  }

  // MARK: Callbacks (nonisolated: they run on the loop thread)

  static func instance(_ userdata: UnsafeMutableRawPointer?) -> PulseStream {
    guard let userdata else { preconditionFailure("pa_stream callback without userdata") }
    return Unmanaged<PulseStream>.fromOpaque(userdata).takeUnretainedValue()
  }

  private static let stateChanged: pa_stream_notify_cb_t = { stream, userdata in
    guard let stream else { preconditionFailure("pa_stream state callback without stream") }
    let owner = instance(userdata)
    let state: PulseStreamState
    switch pa_stream_get_state(stream) {
    case PA_STREAM_CREATING: state = .creating
    case PA_STREAM_READY: state = .ready
    case PA_STREAM_FAILED:
      state = .failed(PulseContext.lastError(of: pa_stream_get_context(stream)))
    case PA_STREAM_TERMINATED: state = .terminated
    default: state = .unconnected
    }
    owner.currentState = state
    owner.deliver(.state(state))
    switch state {
    case .ready: owner.resumeConnect(.success(()))
    case .failed(let error): owner.resumeConnect(.failure(error))
    case .terminated: owner.resumeConnect(.failure(.badState))
    case .unconnected, .creating: break
    }
  }

  private static let eventReceived: pa_stream_event_cb_t = { _, name, proplist, userdata in
    let owner = instance(userdata)
    switch PulseCopy.string(name) ?? "" {
    case PA_STREAM_EVENT_REQUEST_CORK: owner.deliver(.requestCork)
    case PA_STREAM_EVENT_REQUEST_UNCORK: owner.deliver(.requestUncork)
    case let other:
      owner.deliver(.other(name: other, properties: PulseCopy.properties(proplist)))
    }
  }

  private static let moved: pa_stream_notify_cb_t = { stream, userdata in
    instance(userdata).deliver(
      .moved(sinkName: PulseCopy.string(pa_stream_get_device_name(stream))))
  }

  private static let suspended: pa_stream_notify_cb_t = { stream, userdata in
    instance(userdata).deliver(.suspended(pa_stream_is_suspended(stream) == 1))
  }

  private static let succeeded: pa_stream_success_cb_t = { stream, success, userdata in
    let request = PulseRequest<Bool>.from(userdata)
    if success != 0 {
      request.finish(.success([true]))
    } else {
      request.finish(.failure(PulseContext.lastError(of: pa_stream_get_context(stream))))
    }
  }
}
