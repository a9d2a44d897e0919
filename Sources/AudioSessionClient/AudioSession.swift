@_exported public import AudioSessionCore
public import AudioSessionWire
public import Foundation

/// An app's audio session, as `AVAudioSession` is on iOS: declare what the audio is for, activate
/// it, and be told about interruptions and route changes.
///
/// ```swift
/// let session = AudioSession.sharedInstance()
/// try session.setCategory(.playback, mode: .moviePlayback)
/// try session.setActive(true)
/// for await event in session.events { … }
/// ```
///
/// The session lives in the audio session daemon (`sessionctl daemon`) and belongs to this
/// connection: when the process exits or crashes the daemon deactivates it, as iOS does for an
/// app that vanished. With ``Connection/embedded(_:)`` it lives in an in-process engine instead.
///
/// Calls are synchronous and block until the daemon has decided, like `AVAudioSession`'s, at most
/// the connection's request timeout (5 s by default). If the daemon goes away or does not answer
/// in time, the session is told `mediaServicesWereLost`, calls fail with `mediaServicesFailed`,
/// and the session reconnects by itself; once its configuration is registered again it is told
/// `mediaServicesWereReset`, and the app reactivates as on iOS.
public final class AudioSession: @unchecked Sendable {
  /// Where the session lives.
  public enum Connection: Sendable {
    /// The daemon on a socket path (nil: `$AUDIOSESSION_SOCKET`, else
    /// `$XDG_RUNTIME_DIR/audiosession/daemon.sock`). A call whose answer takes longer than
    /// `requestTimeout` fails with `mediaServicesFailed`, and the session reconnects as if the
    /// daemon had gone away.
    case daemon(
      socketPath: String? = nil,
      requestTimeout: Duration = DaemonConnection.defaultRequestTimeout)
    /// An in-process engine shared by the sessions made with it (`EmbeddedAudioSystem`).
    case embedded(any EmbeddedEngine)
  }

  /// The session's name in the daemon (`status`, `watch`, and other sessions' `by`).
  public let name: String
  /// Where notifications are posted with AVFoundation's names; the object is this session.
  public let notificationCenter: NotificationCenter

  let connection: Connection
  let lock = NSLock()
  var link: DaemonConnection?
  /// Which connection ``link`` is, so that the end of an older one is ignored.
  var linkGeneration: UUID?
  /// The configuration last set, registered again after a reconnection.
  var configuration = SessionConfiguration.initial
  var configured = false
  var subscribers: [UUID: AsyncStream<SessionEvent>.Continuation] = [:]
  var invalidated = false
  var reconnecting = false

  /// Opens a session in the daemon (or the embedded engine).
  ///
  /// - Parameters:
  ///   - name: The session's name; nil: the process name and its pid (`player-4242`).
  ///   - connection: Where the session lives.
  ///   - notificationCenter: Where notifications are posted (default: `.default`).
  /// - Throws: ``ConnectionFailure`` when no daemon answers; a ``ProtocolError``
  ///   (`sessionExists`) when the name is taken.
  public init(
    name: String? = nil, connection: Connection = .daemon(),
    notificationCenter: NotificationCenter = .default
  ) throws {
    self.name = name ?? Self.defaultName()
    self.connection = connection
    self.notificationCenter = notificationCenter
    if let problem = Command.sessionNameProblem(self.name) {
      throw SessionError(.badParam, problem)
    }
    try connect()
  }

  private init(unconnectedName name: String) {
    self.name = name
    self.connection = .daemon()
    self.notificationCenter = .default
  }

  private static let shared: AudioSession = {
    let session = AudioSession(unconnectedName: defaultName())
    do {
      try session.connect()
    } catch {
      session.connectionLost()
    }
    return session
  }()

  /// The process's session in the daemon at the default socket, named after the process. If no
  /// daemon answers yet, calls fail with `mediaServicesFailed` until one does.
  public static func sharedInstance() -> AudioSession { shared }

  deinit {
    invalidate()
  }

  /// Ends the session: the daemon deactivates it (notifying the sessions it interrupted) and
  /// forgets it. Further calls fail with `expiredSession`.
  public func invalidate() {
    lock.lock()
    invalidated = true
    let link = self.link
    self.link = nil
    let continuations = Array(subscribers.values)
    subscribers.removeAll()
    lock.unlock()
    link?.close()
    continuations.forEach { $0.finish() }
  }

  /// `<process name>-<pid>`, reduced to the characters a session name may use.
  static func defaultName() -> String {
    let process = ProcessInfo.processInfo.processName
    let allowed = process.unicodeScalars.map { scalar -> String in
      let ok =
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
        || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "." || scalar == "-"
      return ok ? String(scalar) : "_"
    }.joined()
    let base = allowed.isEmpty || allowed.hasPrefix("-") ? "app" : allowed
    return "\(base)-\(ProcessInfo.processInfo.processIdentifier)"
  }
}
