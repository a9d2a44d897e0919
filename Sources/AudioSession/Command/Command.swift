/// What a user or client asks of a session or the system: a `sessionctl` live command, a scenario
/// step, or a socket request.
///
/// What it asks of a session is the engine's own input (``EngineInput``), one vocabulary from
/// the command line and the wire to the engine (`sessionctl play`, a scenario's `play` and the
/// wire's `play` are all ``EngineInput/startIO(session:)``); the rest reads (`status`, `route`,
/// `devices`) or acts on the system through the backend (`simulate`).
public enum Command: Sendable, Hashable {
  /// One of an app's calls on its session (AVAudioSession's and AVAudioApplication's methods,
  /// its player starting or stopping) or a fact of the system about its app (`app-state`,
  /// `now-playing`): ``EngineInput/isAppCall``. The engine takes it as it is.
  case input(EngineInput)
  case status
  case route(session: String)
  case devices
  case simulate(SimulationAction)

  /// The session a command is about, if any.
  public var session: String? {
    switch self {
    case .input(let input): input.session
    case .route(let session): session
    case .status, .devices, .simulate: nil
    }
  }

  /// Whether the command creates the session it names when there is none yet; `remove`,
  /// `setMode` and `setPreferredInput` need an existing one (docs/protocol.md "Operations").
  public var createsSession: Bool {
    switch self {
    case .input(.removeSession), .input(.setMode), .input(.setPreferredInput): false
    default: true
    }
  }

  /// Whether the command states a fact of the system about the session's app (`app-state`,
  /// `now-playing`) rather than making one of the app's calls: anyone may say it of any session,
  /// as iOS decides it for every app (docs/protocol.md "Sessions, owners and lifetime").
  public var isSystemFact: Bool {
    switch self {
    case .input(.setAppState), .input(.setNowPlaying): true
    default: false
    }
  }

  /// Whether the command only reads (`status`, `route`, `devices`).
  public var isQuery: Bool {
    switch self {
    case .status, .route, .devices: true
    default: false
    }
  }

  /// The session name used when a command names none.
  public static let defaultSession = "default"
}

/// What a command answers besides ok/error.
public enum CommandReply: Sendable, Hashable {
  case status(EngineStatus)
  case route(session: String, RouteDescription)
  case devices([Device])
}

/// The outcome of one command: its result, then every notification it caused, in posting order.
public struct CommandResult: Sendable, Hashable {
  public var error: SessionError?
  public var warnings: [String]
  public var reply: CommandReply?
  public var notifications: [SessionNotification]
  /// Why each notification was posted, parallel to ``notifications``, and why the error was
  /// returned, when the run explains (docs/contract.md "Seeing why"); empty and nil otherwise.
  public var because: [Because] = []
  public var errorBecause: Because?
  /// The session the command names as it stands after the command (nil: it names none, or there
  /// is no such session), and whether the command created it: what the daemon records of its
  /// held sessions without asking again.
  public var session: SessionStatus?
  public var createdSession = false
  /// For `status`: how the backend stands with its media server, if it has one (the daemon's
  /// `status` shows it; a scenario's transcript does not, as it would differ from run to run).
  public var server: MediaServerStatus?

  public init(
    error: SessionError? = nil, warnings: [String] = [], reply: CommandReply? = nil,
    notifications: [SessionNotification] = []
  ) {
    self.error = error
    self.warnings = warnings
    self.reply = reply
    self.notifications = notifications
  }
}
