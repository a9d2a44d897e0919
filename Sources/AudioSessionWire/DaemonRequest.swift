public import AudioSession

/// One request to the daemon: an optional client-chosen `id`, echoed in the reply, and what to do.
public struct DaemonRequest: Sendable, Hashable {
  /// Echoed in the reply so a client can match it; any integer.
  public var id: Int?
  public var operation: Operation
  /// When the client stops waiting for the reply, in milliseconds since the Unix epoch (the
  /// wall clock, ``WallClock``): a request the daemon comes to after it is not run but refused
  /// with `deadlineExceeded`, so that a command whose client gave up never takes effect later.
  public var deadline: Int?

  public init(id: Int? = nil, _ operation: Operation, deadline: Int? = nil) {
    self.id = id
    self.operation = operation
    self.deadline = deadline
  }

  /// What a request asks for (docs/protocol.md "Operations").
  public enum Operation: Sendable, Hashable {
    /// Names the client; the reply describes the daemon.
    case hello(client: String?)
    /// Creates a session owned by this connection; it ends with the connection.
    case open(session: String)
    /// Creates a session owned by this connection that also lives with the streams tagged for it
    /// (`audiosession.session=NAME`): it activates while one of them plays and deactivates, with
    /// notifyOthersOnDeactivation, when none does (`sessionctl run`, docs/apps.md).
    case follow(session: String)
    /// Every operation on a session or the system: a session it names is created, held by the
    /// daemon, on first mention (``Command/createsSession``).
    case command(Command)
    /// Everything a client library reads of one session.
    case session(String)
    /// Which notifications of every session this connection receives besides its own sessions'.
    case watch(WatchFilter)
    /// The last decisions about a session (nil: every session), each with why
    /// (docs/contract.md "Seeing why").
    case explain(session: String?)
    /// What the daemon saw since it started, as a scenario's steps (docs/contract.md
    /// "Recording what the daemon saw").
    case record
  }

  /// The notifications `watch` subscribes to.
  public enum WatchFilter: String, Sendable, Hashable, CaseIterable {
    case none, routes, interruptions, all

    /// Whether a notification passes the filter.
    public func admits(_ event: SessionEvent) -> Bool {
      switch (self, event) {
      case (.all, _): true
      case (.routes, .routeChange): true
      case (.interruptions, .interruptionBegan), (.interruptions, .interruptionEnded): true
      // iOS 27's form of the same interruptions (profile ios27).
      case (.interruptions, .didBecomeInactive), (.interruptions, .resumptionRecommendation): true
      // A player paused or played because of an interruption.
      case (.interruptions, .player(let action)):
        if case .pause = action.cause { false } else { true }
      default: false
      }
    }
  }

  /// The session the request acts on or reads, if any.
  public var session: String? {
    switch operation {
    case .open(let name), .follow(let name), .session(let name): name
    case .command(let command): command.session
    case .explain(let name): name
    case .hello, .watch, .record: nil
    }
  }

  /// Whether the request may change the session it names (reads may name anyone's session;
  /// `open` of a taken name is refused as `sessionExists`).
  public var changesSession: Bool {
    switch operation {
    case .command(let command): command.session != nil && !command.isQuery && !command.isSystemFact
    case .hello, .open, .follow, .session, .watch, .explain, .record: false
    }
  }

  /// The `op` names, in the order docs/protocol.md lists them.
  public static let operationNames = Op.allCases.map(\.rawValue)

  /// The `action` names of `simulate`: the words of `sessionctl simulate`.
  public static let simulateActions = SimulateAction.allCases.map(\.rawValue)
}
