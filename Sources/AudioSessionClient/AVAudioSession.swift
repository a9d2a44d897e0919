import AudioSession
public import AudioSessionWire
public import Foundation

/// An app's audio session, Apple's `AVAudioSession` with its name: declare what the audio is for,
/// activate it, and be told about interruptions and route changes.
///
/// ```swift
/// let session = AVAudioSession.sharedInstance()
/// try session.setCategory(.playback, mode: .moviePlayback)
/// try session.setActive(true)
/// for await event in session.events { … }
/// ```
///
/// The session lives in the audio session daemon (`sessionctl daemon`) and belongs to this
/// connection: when the process exits or crashes the daemon deactivates it, as iOS does for an
/// app that vanished. With ``Connection/embedded(_:)`` it lives in an in-process engine instead;
/// ``useInProcessEngine(_:)`` binds ``sharedInstance()`` to one, for tests.
///
/// Errors are thrown as `NSError`s of `NSOSStatusErrorDomain` whose codes are
/// ``ErrorCode``'s raw values, as on iOS (``SessionError/nsError``).
///
/// Calls are synchronous and block until the daemon has decided, like `AVAudioSession`'s, at most
/// the connection's request timeout (5 s by default). If the daemon goes away or does not answer
/// in time, the session is told `mediaServicesWereLost`, calls fail with `mediaServicesFailed`,
/// and the session reconnects by itself; once its configuration is registered again it is told
/// `mediaServicesWereReset`, and the app reactivates as on iOS.
open class AVAudioSession: NSObject, @unchecked Sendable {
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
  /// Whether the session was active when last heard of (an activation, not yet followed by a
  /// deactivation, an interruption or a reset): `didBecomeActiveNotification` is posted when an
  /// activation finds it false.
  var knownActive = false
  /// The settings this process keeps (``LocalSettings``).
  var local = LocalSettings()

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
    super.init()
    if let problem = Command.sessionNameProblem(self.name) {
      throw SessionError(.badParam, problem)
    }
    try connect()
  }

  private init(unconnectedName name: String, connection: Connection, scope: SharedScope? = nil) {
    self.name = name
    self.connection = connection
    self.notificationCenter = .default
    self.scope = scope
    super.init()
  }

  /// The scope whose shared session this is (``withInProcessEngine(_:isolation:_:)``); nil
  /// for the process's. Its notifications are posted inside that scope.
  weak var scope: SharedScope?

  private static let sharedLock = NSLock()
  nonisolated(unsafe) private static var shared: AVAudioSession?

  /// The process's session, named after the process: in the daemon at the default socket, or in
  /// the engine given to ``useInProcessEngine(_:)``. If no daemon answers yet, calls fail with
  /// `mediaServicesFailed` until one does.
  open class func sharedInstance() -> AVAudioSession {
    if let scope = currentScope { return scope.session() }
    sharedLock.lock()
    defer { sharedLock.unlock() }
    if let shared { return shared }
    let session = makeShared(.daemon())
    shared = session
    return session
  }

  /// Binds ``sharedInstance()`` to an in-process engine (`EmbeddedAudioSystem`), so that code
  /// written for iOS, which only ever calls `AVAudioSession.sharedInstance()`, can be driven in a
  /// test with simulated calls and unplugs. The session shared until now is invalidated (the
  /// daemon or engine deactivates it); the next ``sharedInstance()`` is a new session in
  /// `engine`. Pass nil to go back to the daemon.
  public static func useInProcessEngine(_ engine: (any EmbeddedEngine)?) {
    rebindShared(engine.map { .embedded($0) } ?? .daemon())
  }

  /// Runs `body` with ``sharedInstance()`` bound to a session of its own in `engine`, for this
  /// task and the tasks it creates only (a task-local binding): tests that run in parallel, each
  /// in a scope with its own engine, do not see each other's session. Notifications of the
  /// scope's session are posted inside the scope, so an observer's block that calls
  /// ``sharedInstance()`` gets the scope's session, on whatever thread the engine posts from.
  /// The session is made at the first ``sharedInstance()`` inside the scope and invalidated when
  /// `body` returns. ``useInProcessEngine(_:)`` and ``resetSharedState()`` do not reach inside a
  /// scope (docs/ios-compat.md "Scoped engines for parallel tests").
  public static func withInProcessEngine<Result>(
    _ engine: any EmbeddedEngine, isolation: isolated (any Actor)? = #isolation,
    _ body: () async throws -> Result
  ) async rethrows -> Result {
    let scope = SharedScope(.embedded(engine))
    defer { scope.end() }
    return try await $currentScope.withValue(scope, operation: body, isolation: isolation)
  }

  /// ``withInProcessEngine(_:isolation:_:)`` for a synchronous body.
  public static func withInProcessEngine<Result>(
    _ engine: any EmbeddedEngine, _ body: () throws -> Result
  ) rethrows -> Result {
    let scope = SharedScope(.embedded(engine))
    defer { scope.end() }
    return try $currentScope.withValue(scope, operation: body)
  }

  /// ``withInProcessEngine(_:isolation:_:)`` for the daemon at `socketPath`: a session of the
  /// scope's own there, for a test that runs a daemon of its own beside others.
  public static func withDaemon<Result>(
    socketPath: String, isolation: isolated (any Actor)? = #isolation,
    _ body: () async throws -> Result
  ) async rethrows -> Result {
    let scope = SharedScope(.daemon(socketPath: socketPath))
    defer { scope.end() }
    return try await $currentScope.withValue(scope, operation: body, isolation: isolation)
  }

  /// The scope ``sharedInstance()`` answers from, if any.
  @TaskLocal static var currentScope: SharedScope?

  /// The shared session of one ``withInProcessEngine(_:isolation:_:)`` scope.
  final class SharedScope: @unchecked Sendable {
    let connection: Connection
    private let lock = NSLock()
    private var made: AVAudioSession?
    private var ended = false

    init(_ connection: Connection) { self.connection = connection }

    /// The scope's session, made at the first call.
    func session() -> AVAudioSession {
      lock.lock()
      defer { lock.unlock() }
      if let made { return made }
      let session = AVAudioSession(
        unconnectedName: AVAudioSession.scopedName(), connection: connection, scope: self)
      if ended {
        session.invalidate()
      } else {
        do {
          try session.connect()
        } catch {
          session.connectionLost()
        }
      }
      made = session
      return session
    }

    /// The end of the scope: its session goes.
    func end() {
      lock.lock()
      ended = true
      let session = made
      lock.unlock()
      session?.invalidate()
    }
  }

  /// A scoped session's name: `<process>-<pid>-scope<n>`, unique in the process.
  static func scopedName() -> String {
    sharedLock.lock()
    scopes += 1
    let count = scopes
    sharedLock.unlock()
    return "\(defaultName())-scope\(count)"
  }

  nonisolated(unsafe) private static var scopes = 0

  /// Runs `body` inside this session's scope, if it belongs to one: what the session posts,
  /// and what observers do with it, sees the scope's ``sharedInstance()``.
  func insideScope(_ body: () -> Void) {
    if let scope { Self.$currentScope.withValue(scope, operation: body) } else { body() }
  }

  /// Binds ``sharedInstance()`` to the daemon at `socketPath` (nil: the default socket), as
  /// ``useInProcessEngine(_:)`` binds it to an engine.
  public static func useDaemon(socketPath: String? = nil) {
    rebindShared(.daemon(socketPath: socketPath))
  }

  private static func rebindShared(_ connection: Connection) {
    sharedLock.lock()
    let old = shared
    bindings += 1
    shared = makeShared(connection)
    sharedLock.unlock()
    old?.invalidate()
  }

  /// Clears what a test leaves behind in the process: the shared session is invalidated (the next
  /// ``sharedInstance()`` is a new session in the daemon at the default socket, until
  /// ``useInProcessEngine(_:)`` binds it again), and the process's other shared state that
  /// registered to be cleared goes with it (MediaPlayer's Now Playing information and remote
  /// command targets). For tests that bind the shared session one after another
  /// (docs/ios-compat.md "Where `sharedInstance()` lives").
  public static func resetSharedState() {
    sharedLock.lock()
    let old = shared
    shared = nil
    bindings += 1
    let hooks = resetHooks
    sharedLock.unlock()
    old?.invalidate()
    hooks.forEach { $0() }
  }

  /// What ``resetSharedState()`` clears besides the session, registered by the modules that
  /// keep process-wide state (MediaPlayer).
  nonisolated(unsafe) private static var resetHooks: [@Sendable () -> Void] = []

  /// Registers something ``resetSharedState()`` clears.
  package static func onResetSharedState(_ hook: @escaping @Sendable () -> Void) {
    sharedLock.lock()
    resetHooks.append(hook)
    sharedLock.unlock()
  }

  /// How many times ``useInProcessEngine(_:)`` was called: each new shared session gets a name
  /// of its own (`player-4242-2`), since the one it replaces may not be gone yet.
  nonisolated(unsafe) private static var bindings = 0

  private static func makeShared(_ connection: Connection) -> AVAudioSession {
    let name = bindings == 0 ? defaultName() : "\(defaultName())-\(bindings + 1)"
    let session = AVAudioSession(unconnectedName: name, connection: connection)
    do {
      try session.connect()
    } catch {
      session.connectionLost()
    }
    return session
  }

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
