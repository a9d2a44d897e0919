/// A parsed `sessionctl` live command: what a user types, a scenario step, or a socket request.
public enum Command: Sendable, Hashable {
  case set(session: String, category: Category, mode: Mode?, options: CategoryOptions)
  case activate(session: String)
  case deactivate(session: String, notifyOthers: Bool)
  case play(session: String)
  case stop(session: String)
  case override(session: String, PortOverride)
  case remove(session: String)
  case status
  case route(session: String)
  case devices
  case simulate(SimulationAction)

  /// The session a command is about, if any.
  public var session: String? {
    switch self {
    case .set(let s, _, _, _), .activate(let s), .deactivate(let s, _), .play(let s),
      .stop(let s), .override(let s, _), .remove(let s), .route(let s):
      s
    case .status, .devices, .simulate: nil
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
