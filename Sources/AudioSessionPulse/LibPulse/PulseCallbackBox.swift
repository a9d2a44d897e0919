import AudioSession
import CPulse

/// The userdata of one libpulse request: what its C callbacks fill in, and the continuation of the
/// task that awaits it.
///
/// Ownership (pulse-binding-rust's rule for single-use callbacks): the box is passed to libpulse
/// retained once, and released by ``operationStateChanged`` when the operation reaches `DONE` or
/// `CANCELLED`. libpulse fires that state callback exactly once per terminal state, also when a
/// request is cancelled because the context failed or was disconnected ("Registering a state
/// change callback is mainly useful, if you want to get called back also if the operation gets
/// cancelled", `operation.h`), in which case the reply callback is never called and the box
/// resumes its task with ``PulseError/connectionTerminated``. So no awaiting task can hang on a
/// dead server.
class PulseCallbackBox: @unchecked Sendable {
  /// Called on the loop thread when the operation ended: cancelled, or done (after its reply
  /// callbacks ran).
  func operationEnded(cancelled: Bool) {}

  /// Tells the box its operation ended, then releases it.
  static let operationStateChanged: pa_operation_notify_cb_t = { operation, userdata in
    guard let operation, let userdata else {
      preconditionFailure("pa_operation state callback without operation or userdata")
    }
    switch pa_operation_get_state(operation) {
    case PA_OPERATION_DONE:
      Unmanaged<PulseCallbackBox>.fromOpaque(userdata).takeRetainedValue()
        .operationEnded(cancelled: false)
    case PA_OPERATION_CANCELLED:
      Unmanaged<PulseCallbackBox>.fromOpaque(userdata).takeRetainedValue()
        .operationEnded(cancelled: true)
    default:
      break
    }
  }
}

/// A request whose reply is a list of `Element` values (one value for single replies).
///
/// The reply goes to an awaiting task (``send(on:context:_:)``) or to a handler that runs on the
/// loop thread (``start(on:context:completion:_:)``, for code that already lives there, such as
/// ``PulseServerMonitor``). All members are touched with the loop lock held: in callbacks, or
/// while the request is started.
final class PulseRequest<Element: Sendable>: PulseCallbackBox, @unchecked Sendable {
  typealias Reply = Result<[Element], PulseError>

  /// Where the reply goes.
  private enum Completion {
    case resume(CheckedContinuation<Reply, Never>)
    case call(@Sendable (Reply) -> Void)
  }

  private let completion: Completion
  private var items: [Element] = []
  private var finished = false

  private init(_ completion: Completion) {
    self.completion = completion
  }

  /// Delivers the reply once; later calls are ignored.
  func finish(_ reply: Reply) {
    guard !finished else { return }
    finished = true
    switch completion {
    case .resume(let continuation): continuation.resume(returning: reply)
    case .call(let handler): handler(reply)
    }
  }

  /// Finishes with the items collected so far.
  func finishWithItems() { finish(.success(items)) }

  func append(_ item: Element) { items.append(item) }

  /// A cancelled request fails with `connectionTerminated`. A done one has normally finished in
  /// its reply callback; if not, it fails rather than leave its task waiting forever.
  override func operationEnded(cancelled: Bool) {
    finish(.failure(cancelled ? .connectionTerminated : .internalError))
  }

  /// The box behind a callback's userdata (unretained: the operation owns it).
  static func from(_ userdata: UnsafeMutableRawPointer?) -> PulseRequest<Element> {
    guard let userdata else { preconditionFailure("libpulse callback without userdata") }
    return Unmanaged<PulseRequest<Element>>.fromOpaque(userdata).takeUnretainedValue()
  }

  /// Handles one call of a list callback (`pa_sink_info_cb_t` and its siblings).
  ///
  /// `introspect.h`: "When the list has been exhausted, the callback will be called without an
  /// information structure and the eol parameter set to a positive value… If an error occurs,
  /// the callback will be invoked without an information structure and eol set to a negative
  /// value" (by-index lookups of a missing object fail with `PA_ERR_NOENTITY`). `make` copies the
  /// entry: "Data members in the information structures are only valid during the duration of
  /// the callback."
  static func receive(
    context: OpaquePointer?, eol: Int32, userdata: UnsafeMutableRawPointer?,
    _ make: () -> Element?
  ) {
    let request = from(userdata)
    if eol < 0 {
      request.finish(.failure(PulseContext.lastError(of: context)))
    } else if eol > 0 {
      request.finishWithItems()
    } else if let item = make() {
      request.append(item)
    }
  }

  /// Sends a request and awaits its reply.
  ///
  /// `start` runs with the loop lock held and receives the userdata to hand to libpulse; it
  /// returns the `pa_operation*`, or nil when libpulse refused the request at once (then the
  /// context's error is returned). Our reference to the operation is dropped right away
  /// (`pa_operation_unref`, after the NULL check); the context keeps its own until the operation
  /// is done or cancelled.
  static func send(
    on mainloop: PulseMainloop, context: OpaquePointer,
    _ start: (UnsafeMutableRawPointer) -> OpaquePointer?
  ) async -> Reply {
    await withCheckedContinuation { (continuation: CheckedContinuation<Reply, Never>) in
      mainloop.withLock {
        launch(PulseRequest(.resume(continuation)), context: context, start)
      }
    }
  }

  /// Sends a request now and hands its reply to `completion` on the loop thread (also when the
  /// request fails at once). Callable from the loop thread (inside a callback) or from any other
  /// thread; it never blocks on the server.
  static func start(
    on mainloop: PulseMainloop, context: OpaquePointer,
    completion: @escaping @Sendable (Reply) -> Void,
    _ start: (UnsafeMutableRawPointer) -> OpaquePointer?
  ) {
    mainloop.withLock {
      launch(PulseRequest(.call(completion)), context: context, start)
    }
  }

  /// With the loop lock held: hands the box to libpulse (retained once) and starts the request.
  private static func launch(
    _ request: PulseRequest, context: OpaquePointer,
    _ start: (UnsafeMutableRawPointer) -> OpaquePointer?
  ) {
    let userdata = Unmanaged.passRetained(request).toOpaque()
    guard let operation = start(userdata) else {
      Unmanaged<PulseRequest<Element>>.fromOpaque(userdata).release()
      request.finish(.failure(PulseContext.lastError(of: context)))
      return
    }
    pa_operation_set_state_callback(operation, operationStateChanged, userdata)
    pa_operation_unref(operation)
  }
}

extension Result {
  /// The error, or nil on success.
  var failure: Failure? {
    if case .failure(let error) = self { return error }
    return nil
  }
}
