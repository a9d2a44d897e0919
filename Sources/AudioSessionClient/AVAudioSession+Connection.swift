public import AudioSession
import AudioSessionSystem
import AudioSessionWire
public import Foundation

#if canImport(Glibc)
  import Glibc
#endif

// Connecting, losing the daemon, and coming back.

extension AVAudioSession {
  /// The socket a `.daemon` connection uses.
  static func socketPath(_ explicit: String?) -> String {
    WireProtocol.socketPath(
      explicit: explicit, environment: ProcessInfo.processInfo.environment, userID: getuid())
  }

  /// Connects, opens the session and registers the configuration set so far.
  func connect() throws {
    let generation = UUID()
    let handlers = DaemonConnection.Handlers(
      notification: { [weak self] notification in self?.deliver(notification) },
      closed: { [weak self] in self?.connectionLost(generation) })
    let link: DaemonConnection
    switch connection {
    case .daemon(let path, let timeout):
      link = try DaemonConnection(
        socketPath: Self.socketPath(path), handlers: handlers, requestTimeout: timeout)
    case .embedded(let system):
      link = system.connect(handlers)
    }
    do {
      _ = try link.request(.hello(client: name))
      try Self.check(try link.request(.open(session: name)))
      lock.lock()
      let configuration = self.configuration
      let configured = self.configured
      lock.unlock()
      if configured {
        try Self.check(
          try link.request(
            .command(
              .input(
                .setCategory(
                  session: name, category: configuration.category, mode: configuration.mode,
                  options: configuration.options, policy: configuration.policy)))))
      }
    } catch {
      link.close()
      throw error
    }
    lock.lock()
    if invalidated {
      lock.unlock()
      link.close()
      return
    }
    // The daemon may have gone while this connection was being set up.
    guard link.isConnected else {
      lock.unlock()
      throw ConnectionFailure("the daemon closed the connection while the session was opened")
    }
    self.link = link
    linkGeneration = generation
    lock.unlock()
  }

  /// The daemon went away: tell the app, then reconnect in the background.
  func connectionLost(_ generation: UUID? = nil) {
    lock.lock()
    guard !invalidated, generation == nil || generation == linkGeneration, !reconnecting else {
      lock.unlock()
      return
    }
    link = nil
    linkGeneration = nil
    reconnecting = true
    knownActive = false
    lock.unlock()
    publish(.mediaServicesWereLost)
    SystemThread.detach(name: "audiosession-reconnect") { [weak self] in self?.reconnectLoop() }
  }

  /// Retries after 50 ms, backing off to once a second (``ReconnectBackoff``), until connected
  /// or invalidated.
  private func reconnectLoop() {
    var backoff = ReconnectBackoff()
    while true {
      Thread.sleep(forTimeInterval: backoff.nextDelay().seconds)
      lock.lock()
      let stop = invalidated
      lock.unlock()
      if stop { return }
      do {
        try connect()
        lock.lock()
        reconnecting = false
        lock.unlock()
        publish(.mediaServicesWereReset)
        return
      } catch {
        continue
      }
    }
  }

  /// Sends a request for this session and returns the reply, or throws its error: a session
  /// error as iOS throws it, an `NSError` of `NSOSStatusErrorDomain` (``SessionError/nsError``).
  @discardableResult
  func perform(_ operation: DaemonRequest.Operation) throws -> DaemonReply {
    do {
      return try performOrThrowSessionError(operation)
    } catch let error as SessionError {
      throw error.nsError
    }
  }

  /// Runs `body`, throwing its session error as iOS does, as an `NSError`.
  static func throwingNSError<T>(_ body: () throws(SessionError) -> T) throws -> T {
    do {
      return try body()
    } catch {
      throw error.nsError
    }
  }

  /// Runs `body` on the thread this session's notifications are posted from, once those
  /// already on their way are posted (with no connection, here): what an app's observers wrote
  /// can be read there without a race (docs/fuzzing.md "Sanitizers").
  package func onNotificationThread<T>(_ body: () -> T) -> T {
    lock.lock()
    let link = self.link
    lock.unlock()
    return link?.onDeliveryQueue(body) ?? body()
  }

  private func performOrThrowSessionError(_ operation: DaemonRequest.Operation) throws
    -> DaemonReply
  {
    lock.lock()
    let link = self.link
    let invalidated = self.invalidated
    lock.unlock()
    if invalidated {
      throw SessionError(.expiredSession, "the session '\(name)' was invalidated")
    }
    guard let link else {
      throw SessionError(
        .mediaServicesFailed,
        "the audio session daemon is not reachable; calls fail until it is back and "
          + "mediaServicesWereReset is posted (start it with 'sessionctl daemon')")
    }
    let reply: DaemonReply
    do {
      reply = try link.request(operation)
    } catch {
      // A daemon that does not answer is treated as gone: whether the call took effect is
      // unknown, so the session starts afresh (lost, reconnect, register again, reset).
      if error.isTimeout { link.close() }
      throw SessionError(.mediaServicesFailed, "\(error.description); reconnecting")
    }
    try Self.check(reply)
    return reply
  }

  /// Throws a reply's error.
  static func check(_ reply: DaemonReply) throws {
    switch reply.error {
    case .session(let error)?: throw error
    case .protocolError(let error)?: throw error
    case nil: return
    }
  }
}

/// The key of an `NSError`'s `userInfo` that holds the ``SessionError`` it was made from.
public let AudioSessionErrorKey = "AudioSessionErrorKey"

extension SessionError: CustomNSError {
  public static var errorDomain: String { NSOSStatusErrorDomain }
  public var errorCode: Int { code.rawValue }
  public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: message] }

  /// The error as AVAudioSession throws it: an `NSError` of `NSOSStatusErrorDomain` whose code is
  /// ``SessionErrorCode``'s raw value (`AVAudioSession.ErrorCode.isBusy.rawValue`, …), its message
  /// as the localized description, and this error under ``AudioSessionErrorKey``. On Linux a
  /// `catch let error as NSError` matches only an `NSError` itself, so the client throws this.
  public var nsError: NSError {
    NSError(
      domain: NSOSStatusErrorDomain, code: code.rawValue,
      userInfo: [NSLocalizedDescriptionKey: message, AudioSessionErrorKey: self])
  }
}

extension NSError {
  /// The session error this `NSError` was made from (``SessionError/nsError``), if any.
  public var sessionError: SessionError? { userInfo[AudioSessionErrorKey] as? SessionError }
}
