/// What a user or client asks of a session or the system: a `sessionctl` live command, a scenario
/// step, or a socket request. ``SessionCoordinator`` turns each into the engine's inputs.
public enum Command: Sendable, Hashable {
  case set(
    session: String, category: Category, mode: Mode?, options: CategoryOptions,
    policy: RouteSharingPolicy = .default)
  /// `setMode(_:)`: also clears the category options.
  case setMode(session: String, mode: Mode)
  case activate(session: String)
  case deactivate(session: String, notifyOthers: Bool)
  case play(session: String)
  case stop(session: String)
  case override(session: String, PortOverride)
  /// `setPreferredInput(_:)` by port UID; nil clears it.
  case setPreferredInput(session: String, uid: String?)
  case remove(session: String)
  /// The system moves the session's app to the foreground, the background, or suspends it.
  case appState(session: String, AppState)
  /// The session's app becomes (or stops being) the Now Playing app.
  case nowPlaying(session: String, Bool)
  /// A preference (`setPrefers…(_:)`, `setPreferred…(_:)`).
  case prefer(session: String, SessionPreference)
  /// `setInputGain(_:)`.
  case inputGain(session: String, Double)
  /// `setInputDataSource(_:)`, by the data source's name.
  case dataSource(session: String, String)
  /// `setOutputMuted(_:)` (iOS 26): the app mutes (or unmutes) its own output.
  case outputMuted(session: String, Bool)
  /// `AVAudioApplication.setInputMuted(_:)` (iOS 17): the app mutes (or unmutes) its input.
  case inputMuted(session: String, Bool)
  case status
  case route(session: String)
  case devices
  case simulate(SimulationAction)

  /// The session a command is about, if any.
  public var session: String? {
    switch self {
    case .set(let s, _, _, _, _), .setMode(let s, _), .activate(let s), .deactivate(let s, _),
      .play(let s), .stop(let s), .override(let s, _), .setPreferredInput(let s, _),
      .remove(let s), .route(let s), .appState(let s, _), .nowPlaying(let s, _),
      .prefer(let s, _), .inputGain(let s, _), .dataSource(let s, _), .outputMuted(let s, _),
      .inputMuted(let s, _):
      s
    case .status, .devices, .simulate: nil
    }
  }

  /// Whether the command creates the session it names when there is none yet; `remove`,
  /// `setMode` and `setPreferredInput` need an existing one (docs/protocol.md "Operations").
  public var createsSession: Bool {
    switch self {
    case .remove, .setMode, .setPreferredInput: false
    default: true
    }
  }

  /// Whether the command states a fact of the system about the session's app (`app-state`,
  /// `now-playing`) rather than making one of the app's calls: anyone may say it of any session,
  /// as iOS decides it for every app (docs/protocol.md "Sessions, owners and lifetime").
  public var isSystemFact: Bool {
    switch self {
    case .appState, .nowPlaying: true
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
