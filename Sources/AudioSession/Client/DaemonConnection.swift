import Foundation

/// A client's connection to the daemon (or to an embedded engine): synchronous requests, and the
/// notifications pushed to it, handed in order to a callback on a serial queue of their own.
///
/// Requests may come from any thread, including the notification callback (an interruption
/// handler that reactivates its session); each waits for its own reply.
public final class DaemonConnection: @unchecked Sendable {
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

  private let link: any LineConnection
  private let delivery = DispatchQueue(label: "audiosession.notifications")
  private let condition = NSCondition()
  private var nextID = 1
  private var replies: [Int: DaemonReply] = [:]
  private var waiting: Set<Int> = []
  private var isOpen = true
  private var unreadable: WireDecodingError?

  /// Connects to the daemon's socket.
  public convenience init(socketPath: String, handlers: Handlers = Handlers())
    throws(ConnectionFailure)
  {
    self.init(link: try SocketLineConnection(path: socketPath), handlers: handlers)
  }

  init(link: any LineConnection, handlers: Handlers) {
    self.link = link
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

  /// Sends a request and waits for its reply.
  ///
  /// - Returns: The reply; a refused request is a reply with ``DaemonReply/error`` set.
  /// - Throws: ``ConnectionFailure`` when the connection ends before the reply arrives.
  public func request(_ operation: DaemonRequest.Operation) throws(ConnectionFailure)
    -> DaemonReply
  {
    condition.lock()
    guard isOpen else {
      condition.unlock()
      throw ConnectionFailure("the connection to the daemon is closed")
    }
    let id = nextID
    nextID += 1
    waiting.insert(id)
    condition.unlock()
    do {
      try link.write(DaemonRequest(id: id, operation).json.serialized)
    } catch {
      condition.lock()
      waiting.remove(id)
      condition.unlock()
      throw error
    }
    condition.lock()
    defer { condition.unlock() }
    while replies[id] == nil, isOpen { condition.wait() }
    waiting.remove(id)
    guard let reply = replies.removeValue(forKey: id) else {
      if let unreadable { throw ConnectionFailure(unreadable.description) }
      throw ConnectionFailure("the daemon closed the connection before answering")
    }
    return reply
  }

  /// Closes the connection; the daemon ends the sessions it owns.
  public func close() { link.close() }

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
        }
        condition.unlock()
      } else {
        let notification = try WireNotification.decode(object)
        delivery.async { handlers.notification(notification) }
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
