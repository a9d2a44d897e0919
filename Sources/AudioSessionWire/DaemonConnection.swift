public import AudioSession
import AudioSessionSystem
import Dispatch

/// A client's connection to the daemon (or to an embedded engine): synchronous requests, and the
/// notifications pushed to it, handed in order to a callback on a serial queue of their own.
///
/// Requests may come from any thread, including the notification callback (an interruption
/// handler that reactivates its session); each waits for its own reply, at most
/// ``requestTimeout``. A connection opened `readingOnCaller` has no reader thread and no queue:
/// what the daemon sends is read while a request waits, on its thread, and the handlers are
/// called there (a one-shot command; one request at a time).
public final class DaemonConnection: @unchecked Sendable {
  /// How long a request waits for its reply unless told otherwise: 5 seconds.
  public static let defaultRequestTimeout: Duration = .seconds(5)

  /// What the connection reports besides replies.
  public struct Handlers: Sendable {
    /// A notification pushed by the daemon.
    public var notification: @Sendable (SessionNotification) -> Void
    /// The connection ended (the daemon stopped, or ``close()`` was called).
    public var closed: @Sendable () -> Void

    public init(
      notification: @escaping @Sendable (SessionNotification) -> Void = { _ in },
      closed: @escaping @Sendable () -> Void = {}
    ) {
      self.notification = notification
      self.closed = closed
    }
  }

  /// How long ``request(_:)`` waits for a reply before it gives up.
  public let requestTimeout: Duration
  private let link: any LineConnection
  /// The socket when replies are read on the requesting thread, else nil (a reader thread).
  private let callerLink: SocketLineConnection?
  private var callerLines = LineSplitter()
  private let handlers: Handlers
  /// Who answers, for messages: `the audio session daemon on '<socket>'`.
  private let peerName: String
  private let delivery = DispatchQueue(label: "audiosession.notifications")
  private let condition = Condition()
  private var nextID = 1
  private var replies: [Int: DaemonReply] = [:]
  private var waiting: Set<Int> = []
  private var isOpen = true
  private var unreadable: WireDecodingError?
  /// The last error reply that answered no request (`"id":null`): when the daemon then closes
  /// the connection, it is why (a process of another user is refused this way).
  private var unanswered: DaemonError?

  /// Runs `body` on the queue that hands notifications to their callback, once those already
  /// handed to it are done: tests read there what an app's observers wrote there
  /// (docs/fuzzing.md "Sanitizers").
  package func onDeliveryQueue<T>(_ body: () throws -> T) rethrows -> T {
    try delivery.sync(execute: body)
  }

  /// Connects to the daemon's socket.
  ///
  /// - Parameter requestTimeout: How long each request waits for its reply (must be positive).
  /// - Parameter readingOnCaller: Start no reader thread; read replies on the requesting
  ///   thread (see the type's discussion).
  public convenience init(
    socketPath: String, handlers: Handlers = Handlers(),
    requestTimeout: Duration = DaemonConnection.defaultRequestTimeout,
    readingOnCaller: Bool = false
  ) throws(ConnectionFailure) {
    let socket = try SocketLineConnection(path: socketPath)
    self.init(
      link: socket, handlers: handlers, requestTimeout: requestTimeout,
      peerName: "the audio session daemon on '\(socketPath)'",
      callerLink: readingOnCaller ? socket : nil)
  }

  package convenience init(
    link: any LineConnection, handlers: Handlers,
    requestTimeout: Duration = DaemonConnection.defaultRequestTimeout,
    peerName: String = "the audio session engine"
  ) {
    self.init(
      link: link, handlers: handlers, requestTimeout: requestTimeout, peerName: peerName,
      callerLink: nil)
  }

  private init(
    link: any LineConnection, handlers: Handlers, requestTimeout: Duration, peerName: String,
    callerLink: SocketLineConnection?
  ) {
    precondition(requestTimeout > .zero, "a request timeout must be positive")
    self.link = link
    self.requestTimeout = requestTimeout
    self.peerName = peerName
    self.handlers = handlers
    self.callerLink = callerLink
    guard callerLink == nil else { return }
    link.start(
      onMessage: { [weak self] bytes in self?.received(bytes, handlers) },
      onClose: { [weak self] in
        self?.ended()
        // After the notifications received before the end.
        if let delivery = self?.delivery {
          delivery.async { handlers.closed() }
        } else {
          handlers.closed()
        }
      })
  }

  deinit {
    link.close()
  }

  /// Whether the connection is still open.
  public var isConnected: Bool {
    condition.lock()
    defer { condition.unlock() }
    return isOpen
  }

  /// Sends a request and waits for its reply, at most ``requestTimeout``.
  ///
  /// A reply that comes after the timeout is dropped; the connection stays open (requests are
  /// answered in order, so a later request gets its own reply).
  ///
  /// - Returns: The reply; a refused request is a reply with ``DaemonReply/error`` set.
  /// - Throws: ``ConnectionFailure`` when the connection ends before the reply arrives, or (with
  ///   ``ConnectionFailure/isTimeout`` set) when no reply came within ``requestTimeout``.
  public func request(_ operation: DaemonRequest.Operation) throws(ConnectionFailure)
    -> DaemonReply
  {
    condition.lock()
    guard isOpen else {
      defer { condition.unlock() }
      // A refused connection may already be closed: say why.
      if unanswered != nil || unreadable != nil { throw closedFailure() }
      throw ConnectionFailure("the connection to the daemon is closed")
    }
    let id = nextID
    nextID += 1
    waiting.insert(id)
    condition.unlock()
    // The daemon runs no request it comes to after its client stopped waiting.
    let wallDeadline = WallClock.milliseconds() + Int(requestTimeout.seconds * 1000)
    let message = DaemonRequest(id: id, operation, deadline: wallDeadline).json
    let deadline = MonotonicInstant.now().adding(seconds: requestTimeout.seconds)
    do {
      try link.write(message.serialized)
    } catch {
      // A daemon that refused the connection said why before it closed it: wait (at most the
      // request timeout) for the reader to reach the end, so that its reason is known.
      readOnCaller(until: deadline) { false }
      condition.lock()
      defer { condition.unlock() }
      waiting.remove(id)
      while isOpen, condition.wait(until: deadline) {}
      if !isOpen, unanswered != nil || unreadable != nil { throw closedFailure() }
      throw error
    }
    readOnCaller(until: deadline) { self.replies[id] != nil }
    condition.lock()
    defer { condition.unlock() }
    while replies[id] == nil, isOpen, condition.wait(until: deadline) {}
    waiting.remove(id)
    guard let reply = replies.removeValue(forKey: id) else {
      if let unreadable { throw ConnectionFailure(unreadable.description) }
      guard isOpen else { throw closedFailure() }
      let op: String
      if case .string(let name)? = message["op"] { op = " '\(name)'" } else { op = "" }
      throw ConnectionFailure(
        """
        \(peerName) did not answer\(op) within \(Self.describe(requestTimeout)); it may be \
        stuck or overloaded: restart it, or allow a longer request timeout. The daemon does not \
        run a request it reaches after that, but if it had started this one it may still take \
        effect: check before you repeat a change
        """,
        isTimeout: true)
    }
    return reply
  }

  /// Why a request got no reply on a connection that closed: the error the daemon sent before
  /// it closed it, if it sent one. Call with `condition` locked.
  private func closedFailure() -> ConnectionFailure {
    if let unreadable { return ConnectionFailure(unreadable.description) }
    guard let unanswered else {
      return ConnectionFailure("the daemon closed the connection before answering")
    }
    let reason: String
    switch unanswered {
    case .protocolError(let error): reason = "\(error.code.name): \(error.message)"
    case .session: reason = unanswered.description
    }
    return ConnectionFailure("\(peerName) refused this connection: \(reason)")
  }

  /// A timeout as messages write it: `5 s`, `0.25 s`.
  public static func describe(_ duration: Duration) -> String {
    let seconds = duration.seconds
    if seconds == seconds.rounded(), seconds < 1e15 { return "\(Int(seconds)) s" }
    return "\((seconds * 1000).rounded() / 1000) s"
  }

  /// Closes the connection; the daemon ends the sessions it owns.
  public func close() { link.close() }

  /// On a connection read on the caller's thread: reads until `done` (checked with `condition`
  /// locked), the end of the connection, or `deadline`. Nothing on a connection with a reader.
  private func readOnCaller(until deadline: MonotonicInstant, done: () -> Bool) {
    guard let callerLink else { return }
    while true {
      condition.lock()
      let finished = done() || !isOpen
      condition.unlock()
      if finished { return }
      switch callerLink.read(
        until: deadline, lines: &callerLines, onMessage: { received($0, handlers) })
      {
      case .read: continue
      case .timedOut: return
      case .ended:
        ended()
        handlers.closed()
        return
      }
    }
  }

  private func received(_ bytes: [UInt8], _ handlers: Handlers) {
    do throws(WireDecodingError) {
      guard case .object(let object) = try? JSONParser.parse(bytes) else {
        throw WireDecodingError("a message is not a JSON object")
      }
      if object["result"] != nil {
        let reply = try DaemonReply(object: object)
        condition.lock()
        if let id = reply.id, waiting.contains(id) {
          replies[id] = reply
          condition.broadcast()
        } else if reply.id == nil, let error = reply.error {
          unanswered = error
        }
        condition.unlock()
      } else {
        let notification = try WireNotification.decode(object)
        if callerLink != nil {
          handlers.notification(notification)
        } else {
          delivery.async { handlers.notification(notification) }
        }
      }
    } catch {
      condition.lock()
      unreadable = error
      condition.unlock()
      link.close()
    }
  }

  private func ended() {
    condition.lock()
    isOpen = false
    condition.broadcast()
    condition.unlock()
  }
}

extension Duration {
  /// The duration in seconds, as a floating-point number.
  package var seconds: Double {
    let (seconds, attoseconds) = components
    return Double(seconds) + Double(attoseconds) / 1e18
  }
}
