import AudioSession
import AudioSessionSystem
import CPulse
import FoundationEssentials

/// A client connection to a PulseAudio (or pipewire-pulse) server, on a threaded mainloop of its
/// own.
///
/// State changes and subscription events arrive on ``events``; requests (introspection, module
/// loading, stream volume) are `async` methods that resume when the server answers. A context is
/// single-use, as in libpulse: after `failed` (the server died) or ``disconnect()``, make a new
/// one. The corresponding C type is `pa_context`.
///
/// Threading: every mutable member is touched only on the mainloop thread (inside callbacks, which
/// run with the loop lock held) or by other threads while they hold the loop lock
/// (``PulseMainloop/withLock(_:)``); that is why the class is `@unchecked Sendable`. Callbacks
/// receive `self` unretained: ``deinit`` removes them under the lock before the object goes away.
package final class PulseContext: @unchecked Sendable {
  let mainloop: PulseMainloop
  /// The `pa_context*`, owned (one reference, dropped in ``deinit``).
  let context: OpaquePointer

  /// State changes and subscription events, in the order libpulse delivered them. Buffering is
  /// unbounded (events are small, and dropping one would corrupt a consumer's device cache);
  /// the stream finishes on ``disconnect()``. After a `failed` state event nothing more arrives.
  /// Iterate it from one task only.
  package let events: AsyncStream<PulseContextEvent>
  private let eventSink: AsyncStream<PulseContextEvent>.Continuation

  // Guarded by the loop lock.
  private var currentState = PulseContextState.unconnected
  private var pendingConnect: CheckedContinuation<Result<Void, PulseError>, Never>?
  private var closed = false
  private var eventHandler: (@Sendable (PulseContextEvent) -> Void)?

  /// Creates an unconnected client named `name` (`application.name`) with extra client
  /// properties. The corresponding C function is `pa_context_new_with_proplist`.
  package init(name: String, properties: [String: String] = [:]) throws(PulseError) {
    let mainloop = try PulseMainloop(name: "pulse-client")
    let proplist = try Self.makeProplist(properties.merging(["application.name": name]) { $1 })
    // libpulse copies the initial property list (docs/pulseaudio.md §6), so ours is freed now.
    defer { pa_proplist_free(proplist) }
    let created = mainloop.withLock { pa_context_new_with_proplist(mainloop.api, name, proplist) }
    guard let created else { throw .internalError }
    self.mainloop = mainloop
    self.context = created
    (events, eventSink) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
    let userdata = Unmanaged.passUnretained(self).toOpaque()
    mainloop.withLock {
      pa_context_set_state_callback(created, Self.stateChanged, userdata)
      pa_context_set_subscribe_callback(created, Self.subscriptionEvent, userdata)
    }
  }

  deinit {
    guard mainloop.isLoopThread else {
      close(announce: false)
      mainloop.withLock { pa_context_unref(context) }
      return
    }
    // A callback dropped the last reference (a request that finished after its owner let the
    // context go, as when the server restarts). The loop cannot stop on its own thread, and
    // disconnecting inside a callback re-enters libpulse, so the callbacks are cleared here
    // (the lock is held) and a thread of its own disconnects and frees the context once this
    // callback has returned; the mainloop goes with it.
    closed = true
    clearCallbacks()
    resumeConnect(.failure(.connectionTerminated))
    eventSink.finish()
    let handle = UnsafeSendable(self.context)
    let mainloop = self.mainloop
    SystemThread.detach(name: "pulse-release") {
      mainloop.withLock {
        pa_context_disconnect(handle.value)
        pa_context_unref(handle.value)
      }
    }
  }

  /// The current connection state.
  package var state: PulseContextState { mainloop.withLock { currentState } }

  /// Hands every later event to `handler` on the loop thread, as libpulse delivers it, instead
  /// of queueing it on ``events`` (nil: back to ``events``).
  ///
  /// For code that must react within the same loop iteration (``PulseServerMonitor`` sends its
  /// follow-up requests from here) or timestamp events as a raw libpulse subscriber sees them.
  /// The handler runs with the loop lock held: it may start libpulse requests (which never
  /// block), but it must not block, sleep, await, or call ``connect(to:cookieFile:)`` or
  /// ``disconnect()``.
  package func setEventHandler(_ handler: (@Sendable (PulseContextEvent) -> Void)?) {
    mainloop.withLock { eventHandler = handler }
  }

  /// The client index the server gave this connection, once ready: the `client` of its streams
  /// in ``PulseSinkInput/clientIndex``. The corresponding C function is `pa_context_get_index`.
  package var clientIndex: UInt32? {
    mainloop.withLock {
      guard currentState == .ready else { return nil }
      return PulseCopy.index(pa_context_get_index(context))
    }
  }

  /// Connects to `server` (`unix:/run/…/native`), or to the server the environment names
  /// (`PULSE_SERVER`, `XDG_RUNTIME_DIR`) when nil, and returns once the context is ready.
  ///
  /// Never autospawns a server (`PA_CONTEXT_NOAUTOSPAWN`). Throws the connection's error, e.g.
  /// ``PulseError/connectionRefused`` when nothing listens. The corresponding C function is
  /// `pa_context_connect`.
  ///
  /// - Parameter cookieFile: the server's authentication cookie
  ///   (``PulsePrivateServer/cookiePath``). When nil, libpulse loads (and if missing creates)
  ///   `~/.config/pulse/cookie`; a private server's clients pass its own, so the user's home is
  ///   left alone. The corresponding C function is `pa_context_load_cookie_from_file`.
  package func connect(to server: String? = nil, cookieFile: String? = nil) async throws(PulseError)
  {
    let result = await withCheckedContinuation {
      (continuation: CheckedContinuation<Result<Void, PulseError>, Never>) in
      mainloop.withLock {
        guard pendingConnect == nil, currentState == .unconnected else {
          continuation.resume(returning: .failure(.badState))
          return
        }
        if let cookieFile {
          let status = pa_context_load_cookie_from_file(context, cookieFile)
          guard status >= 0 else {
            continuation.resume(returning: .failure(PulseError(rawValue: status)))
            return
          }
        }
        pendingConnect = continuation
        // A refused connection fails synchronously: the state callback (FAILED) runs inside
        // pa_context_connect, which then also returns < 0. Resume in one place only.
        if pa_context_connect(context, server, PA_CONTEXT_NOAUTOSPAWN, nil) < 0 {
          resumeConnect(.failure(Self.lastError(of: context)))
        }
      }
    }
    try result.get()
  }

  /// Asks the server to report changes of these object kinds on ``events`` (replacing any
  /// earlier set). The corresponding C function is `pa_context_subscribe`.
  package func subscribe(to facilities: Set<PulseFacility>) async throws(PulseError) {
    let mask = facilities.reduce(UInt32(0)) { $0 | Self.mask(for: $1) }
    try await succeed { userdata in
      pa_context_subscribe(context, pa_subscription_mask_t(mask), Self.succeeded, userdata)
    }
  }

  /// Disconnects (state `terminated`) and finishes ``events``. Pending requests fail with
  /// ``PulseError/connectionTerminated``. Idempotent. The corresponding C function is
  /// `pa_context_disconnect`.
  package func disconnect() {
    close(announce: true)
  }

  private func close(announce: Bool) {
    mainloop.withLock {
      guard !closed else { return }
      closed = true
      if !announce { clearCallbacks() }
      // Unlinks the context: its pending operations are cancelled (their boxes resume their
      // tasks), and a good context goes to TERMINATED.
      pa_context_disconnect(context)
      clearCallbacks()
      resumeConnect(.failure(.connectionTerminated))
    }
    eventSink.finish()
  }

  private func clearCallbacks() {
    pa_context_set_state_callback(context, nil, nil)
    pa_context_set_subscribe_callback(context, nil, nil)
    eventHandler = nil
  }

  /// On the loop thread: to the handler if one is set, else onto ``events``.
  private func deliver(_ event: PulseContextEvent) {
    if let eventHandler {
      eventHandler(event)
    } else {
      eventSink.yield(event)
    }
  }

  // MARK: Requests

  /// Sends a request whose reply is a success flag (`pa_context_success_cb_t`); a failure
  /// throws the context's error.
  func succeed(_ start: (UnsafeMutableRawPointer) -> OpaquePointer?) async throws(PulseError) {
    _ = try await PulseRequest<Bool>.send(on: mainloop, context: context, start).get()
  }

  /// Sends a list request and awaits all entries.
  func list<Element: Sendable>(
    _ start: (UnsafeMutableRawPointer) -> OpaquePointer?
  ) async throws(PulseError) -> [Element] {
    try await PulseRequest<Element>.send(on: mainloop, context: context, start).get()
  }

  /// The reply callback of requests answered by a success flag.
  static let succeeded: pa_context_success_cb_t = { context, success, userdata in
    let request = PulseRequest<Bool>.from(userdata)
    if success != 0 {
      request.finish(.success([true]))
    } else {
      request.finish(.failure(lastError(of: context)))
    }
  }

  /// The context's last error (`pa_context_errno`: "Return the error number of the last failed
  /// operation"); a context that reports none yields ``PulseError/unknown``.
  static func lastError(of context: OpaquePointer?) -> PulseError {
    guard let context else { return .unknown }
    let code = pa_context_errno(context)
    return code == 0 ? .unknown : PulseError(rawValue: code)
  }

  static func makeProplist(_ properties: [String: String]) throws(PulseError) -> OpaquePointer {
    guard let proplist = pa_proplist_new() else { throw .internalError }
    for (key, value) in properties where pa_proplist_sets(proplist, key, value) < 0 {
      pa_proplist_free(proplist)
      throw .invalidArgument
    }
    return proplist
  }

  // MARK: Callbacks (nonisolated: they run on the loop thread)

  private static func instance(_ userdata: UnsafeMutableRawPointer?) -> PulseContext {
    guard let userdata else { preconditionFailure("pa_context callback without userdata") }
    return Unmanaged<PulseContext>.fromOpaque(userdata).takeUnretainedValue()
  }

  private static let stateChanged: pa_context_notify_cb_t = { context, userdata in
    guard let context else { preconditionFailure("pa_context state callback without context") }
    instance(userdata).stateChanged(to: state(of: context))
  }

  private static let subscriptionEvent: pa_context_subscribe_cb_t = { _, type, index, userdata in
    guard let event = subscriptionEvent(type.rawValue, index: index) else { return }
    instance(userdata).deliver(.subscription(event))
  }

  private func stateChanged(to state: PulseContextState) {
    currentState = state
    deliver(.state(state))
    switch state {
    case .ready: resumeConnect(.success(()))
    case .failed(let error): resumeConnect(.failure(error))
    case .terminated: resumeConnect(.failure(.connectionTerminated))
    case .unconnected, .connecting, .authorizing, .settingName: break
    }
  }

  private func resumeConnect(_ result: Result<Void, PulseError>) {
    guard let pending = pendingConnect else { return }
    pendingConnect = nil
    pending.resume(returning: result)
  }

  // MARK: C conversions

  private static func state(of context: OpaquePointer) -> PulseContextState {
    switch pa_context_get_state(context) {
    case PA_CONTEXT_CONNECTING: .connecting
    case PA_CONTEXT_AUTHORIZING: .authorizing
    case PA_CONTEXT_SETTING_NAME: .settingName
    case PA_CONTEXT_READY: .ready
    case PA_CONTEXT_FAILED: .failed(lastError(of: context))
    case PA_CONTEXT_TERMINATED: .terminated
    default: .unconnected
    }
  }

  private static let facilities:
    [(PulseFacility, pa_subscription_event_type, pa_subscription_mask)] = [
      (.sink, PA_SUBSCRIPTION_EVENT_SINK, PA_SUBSCRIPTION_MASK_SINK),
      (.source, PA_SUBSCRIPTION_EVENT_SOURCE, PA_SUBSCRIPTION_MASK_SOURCE),
      (.sinkInput, PA_SUBSCRIPTION_EVENT_SINK_INPUT, PA_SUBSCRIPTION_MASK_SINK_INPUT),
      (.sourceOutput, PA_SUBSCRIPTION_EVENT_SOURCE_OUTPUT, PA_SUBSCRIPTION_MASK_SOURCE_OUTPUT),
      (.module, PA_SUBSCRIPTION_EVENT_MODULE, PA_SUBSCRIPTION_MASK_MODULE),
      (.client, PA_SUBSCRIPTION_EVENT_CLIENT, PA_SUBSCRIPTION_MASK_CLIENT),
      (.sampleCache, PA_SUBSCRIPTION_EVENT_SAMPLE_CACHE, PA_SUBSCRIPTION_MASK_SAMPLE_CACHE),
      (.server, PA_SUBSCRIPTION_EVENT_SERVER, PA_SUBSCRIPTION_MASK_SERVER),
      (.card, PA_SUBSCRIPTION_EVENT_CARD, PA_SUBSCRIPTION_MASK_CARD),
    ]

  private static func mask(for facility: PulseFacility) -> UInt32 {
    guard let entry = facilities.first(where: { $0.0 == facility }) else {
      preconditionFailure("no subscription mask for \(facility)")
    }
    return entry.2.rawValue
  }

  /// Decodes `pa_subscription_event_type_t`: facility in `FACILITY_MASK`, kind in `TYPE_MASK`.
  private static func subscriptionEvent(_ type: UInt32, index: UInt32) -> PulseSubscriptionEvent? {
    let facilityBits = type & PA_SUBSCRIPTION_EVENT_FACILITY_MASK.rawValue
    let kindBits = type & PA_SUBSCRIPTION_EVENT_TYPE_MASK.rawValue
    guard let facility = facilities.first(where: { $0.1.rawValue == facilityBits })?.0 else {
      return nil
    }
    let kind: PulseSubscriptionKind
    switch kindBits {
    case PA_SUBSCRIPTION_EVENT_NEW.rawValue: kind = .new
    case PA_SUBSCRIPTION_EVENT_CHANGE.rawValue: kind = .change
    case PA_SUBSCRIPTION_EVENT_REMOVE.rawValue: kind = .remove
    default: return nil
    }
    return PulseSubscriptionEvent(
      kind: kind, facility: facility, index: index == cpulse_invalid_index ? nil : index)
  }
}

/// A C pointer handed to another thread that is its only user from then on.
private struct UnsafeSendable<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}
