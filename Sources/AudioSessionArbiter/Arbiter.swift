public import AudioSession
public import AudioSessionWire

/// Everything the daemon decides, as one value (docs/arbiter.md): its clients and their sessions,
/// the engine, other programs' streams and their app sessions, the media players on the session
/// bus, the sessions it holds for the command line, and what it tells each of them.
///
/// It is fed facts — ``ArbiterEvent``: a request, a connection that went, what the backend saw,
/// another program's stream with its process lineage, a player's status, a start with the
/// journals found on disk — and returns what to do — ``ArbiterEffect``: messages for clients,
/// decisions for the backend, commands for players, lines for the state file and the log. It
/// reads no clock, no `/proc`, no bus and no server: the shell that drives it (`DaemonCore`,
/// `EmbeddedAudioSystem`, a scenario's run) does that, in one ordered loop, so that whatever
/// the daemon decided can be replayed from the events alone.
public struct Arbiter: Sendable {
  /// How the daemon describes itself in `hello`.
  public struct Identity: Sendable, Hashable {
    public var pid: Int32
    /// The policy profile in force.
    public var profile: String

    public init(pid: Int32, profile: String) {
      self.pid = pid
      self.profile = profile
    }
  }

  /// What the arbiter is told about the shell around it, once.
  public struct Setup: Sendable {
    public var identity: Identity
    /// Whether the backend reads the sessions of the status it is handed with each decision
    /// (``AudioBackend/followsSessions``).
    public var backendFollowsSessions: Bool
    /// Whether the daemon keeps its held sessions in a state file.
    public var keepsState: Bool
    /// Whether the daemon watches the media players on the session bus.
    public var watchesPlayers: Bool
    /// The backend's name (`simulated`, `pulse`), for `hello`.
    public var backendName: String
    /// Whether the backend reports other programs' streams (``AudioBackend/reportsStreams``):
    /// nothing a previous daemon paused is played before their snapshot came.
    public var backendReportsStreams: Bool

    public init(
      identity: Identity, backendName: String, backendFollowsSessions: Bool = true,
      backendReportsStreams: Bool = false, keepsState: Bool = false, watchesPlayers: Bool = false
    ) {
      self.identity = identity
      self.backendName = backendName
      self.backendFollowsSessions = backendFollowsSessions
      self.backendReportsStreams = backendReportsStreams
      self.keepsState = keepsState
      self.watchesPlayers = watchesPlayers
    }
  }

  struct Connection: Sendable {
    let credentials: PeerCredentials?
    var client: String?
    var sessions: [String] = []
  }

  public internal(set) var engine: Engine
  public let setup: Setup
  let policy: Policy

  var connections: [ConnectionID: Connection] = [:]
  /// Library sessions, by name; a session missing here is held by the daemon.
  var owners: [String: ConnectionID] = [:]
  /// Watchers of any filter but `none`: what each connection watches is kept here alone.
  var watchers: [ConnectionID: DaemonRequest.WatchFilter] = [:]
  /// The configurations of the daemon-held sessions, in creation order, as last saved.
  public internal(set) var held = HeldSessions()
  /// Other programs' streams and their sessions (docs/apps.md).
  public internal(set) var streams: AppStreamTracker
  /// Which players to pause and play, and which ones we paused (docs/mpris.md).
  public internal(set) var players = PlayerArbiter()
  /// Players a previous daemon paused for an interruption, to play again once the focus is free.
  public internal(set) var pendingResume: Set<PausedPlayer> = []
  /// What the journal of paused players holds (nil: it is not kept).
  var journalWritten: Set<PausedPlayer>?
  /// Players a previous daemon paused that were sent `Play` and have not said so yet: until they
  /// do, the focus is theirs.
  var resumingLeft: Set<String> = []
  /// App sessions whose streams corked while a player of their program said `Playing` and was
  /// not paused by us: taken as buffering, they stay active until the player says otherwise
  /// (docs/mpris.md "A cork while the player plays").
  public internal(set) var buffering: Set<String> = []
  /// Whether the bus has told us its players (the first snapshot came).
  var playersKnown = false
  /// Whether the backend has told us other programs' streams (their first snapshot came, or it
  /// reports none).
  var streamsKnown: Bool
  /// Whether the server's own call signal says a call goes on (docs/apps.md "Calls"): with an
  /// app that makes a call, one of the two facts of one call.
  var serverCall = false
  /// Whether a simulated call goes on (`sessionctl simulate call begin`): a third view of the
  /// engine's call.
  var simulatedCall = false
  /// The last decisions about each session, with why (`explain`, Arbiter+Explain.swift).
  var history: [String: [Decision]] = [:]
  /// The sessions of `history`, in the order they were first decided about.
  var historyOrder: [String] = []
  /// The effects decided so far in the event being handled.
  var effects: [ArbiterEffect] = []
  /// Streams inputs decided during a delivery, handled once it is over (a resumption).
  var followUps: [[EngineInput]] = []
  /// Every notification delivered, with why, while a shell asks for them (a scenario's
  /// transcript of the daemon's decisions, ``recordDeliveries()``); nil otherwise.
  var deliveries: [Delivery]?

  /// An arbiter for the devices the backend started with; ``ArbiterEvent/started(_:)`` comes
  /// first.
  public init(policy: Policy, devices: [Device], setup: Setup) {
    var engine = Engine(policy: policy, devices: devices)
    // The daemon keeps its last decisions with their reasons (`explain`).
    engine.explaining = true
    self.engine = engine
    self.policy = policy
    self.setup = setup
    self.streams = AppStreamTracker(rules: policy.table.apps)
    self.streamsKnown = !setup.backendReportsStreams
    if setup.watchesPlayers, setup.keepsState { journalWritten = [] }
  }

  /// Handles one fact and returns what to do, in order.
  public mutating func handle(_ event: ArbiterEvent) -> [ArbiterEffect] {
    effects = []
    switch event {
    case .started(let start): started(start)
    case .connected(let id, let credentials): connect(id, credentials: credentials)
    case .disconnected(let id): disconnect(id)
    case .request(let request, let id, let now, let performed):
      let reply = perform(request, from: id, now: now, performed: performed)
      emit(.reply(id, reply))
    case .unreadable(let error, let requestID, let id):
      guard connections[id] != nil else { break }
      emit(.reply(id, .ready(DaemonReply(id: requestID, error: error))))
    case .backend(let input): followed(input)
    case .streams(let event, let processes): streamsChanged(event, processes: processes)
    case .players(let event): playersChanged(event)
    case .holdEnded(let hold): applyStreamInputs(streams.endHold(hold))
    }
    handleFollowUps()
    let done = effects
    effects = []
    return done
  }

  mutating func emit(_ effect: ArbiterEffect) { effects.append(effect) }

  /// Handles the streams inputs decided during deliveries, each as a decision of its own.
  mutating func handleFollowUps() {
    while !followUps.isEmpty {
      let inputs = followUps.removeFirst()
      applyStreamInputs(inputs)
    }
  }

  mutating func log(
    _ level: LogLine.Level, _ message: String, _ metadata: [String: LogLine.Value] = [:]
  ) {
    emit(.log(LogLine(level: level, message: message, metadata: metadata)))
  }

  /// Whether a request runs a simulation the backend must perform first (``ArbiterEvent/request(_:from:now:performed:)``
  /// then carries what it did); nil when it does not, or when it would not run (late, or from a
  /// closed connection).
  public func simulation(in request: DaemonRequest, from id: ConnectionID, now: Int)
    -> SimulationAction?
  {
    guard connections[id] != nil, !Self.isLate(request, now: now).late,
      case .command(.simulate(let action)) = request.operation
    else { return nil }
    return action
  }

  /// Who holds a session, or nil if there is no such session.
  public func owner(of session: String) -> SessionOwner? {
    if let id = owners[session] { return .connection(id) }
    if let app = streams.appSessions[session] { return .app(pid: app.pid) }
    return engine.session(named: session) != nil ? .daemon : nil
  }

  /// The pids of the processes a stream event names whose group and lineage the arbiter does not
  /// know (the shell reads them from `/proc` and hands them in with the event).
  public func unknownProcesses(in event: ServerStreamEvent) -> [Int32] {
    streams.unknownProcesses(in: event)
  }

  /// The status the backend is handed with each decision: without the sessions for a backend
  /// that does not follow them (docs/engine.md "One input").
  func statusToApply() -> EngineStatus {
    setup.backendFollowsSessions ? engine.status() : engine.status(withSessions: false)
  }

  /// Runs inputs through the engine, as ``handleInputs(_:)`` does, for a shell with no clients.
  public mutating func handleInputs(
    _ inputs: [EngineInput], effects: inout [ArbiterEffect]
  ) -> [EngineOutcome] {
    self.effects = []
    let outcomes = handleInputs(inputs)
    effects = self.effects
    self.effects = []
    return outcomes
  }

  /// Runs inputs through the engine and has the backend apply what they caused at once.
  mutating func handleInputs(_ inputs: [EngineInput]) -> [EngineOutcome] {
    guard !inputs.isEmpty else { return [] }
    var outcomes: [EngineOutcome] = []
    outcomes.reserveCapacity(inputs.count)
    for input in inputs { outcomes.append(engine.handle(input)) }
    emit(.apply(outcomes.flatMap(\.notifications), statusToApply()))
    return outcomes
  }
}

/// One fact the arbiter is fed.
public enum ArbiterEvent: Sendable {
  /// The daemon starts, with what it found on disk.
  case started(ArbiterStart)
  case connected(ConnectionID, PeerCredentials?)
  /// A connection went (closed, or lost).
  case disconnected(ConnectionID)
  /// A request from a connection, read at `now` (milliseconds since the epoch: the clock the
  /// clients' deadlines are on), with what the backend did for its simulation, if it asks for
  /// one (``Arbiter/simulation(in:from:now:)``).
  case request(
    DaemonRequest, from: ConnectionID, now: Int,
    performed: Result<SimulationOutcome, SessionError>? = nil)
  /// A message that could not be read as a request (the error reply says why), with its `id`
  /// if it had one.
  case unreadable(DaemonError, requestID: Int?, from: ConnectionID)
  /// Something the backend saw on its own (a device plugged, a call on the server).
  case backend(EngineInput)
  /// Other programs' streams changed, with the group and lineage of the processes they name
  /// that the arbiter did not know (``Arbiter/unknownProcesses(in:)``).
  case streams(ServerStreamEvent, processes: [Int32: ProcessFacts] = [:])
  /// The media players on the session bus changed.
  case players(MediaPlayerEvent)
  /// The time of an app session's hold after its last stream is up (``ArbiterEffect/timeHold(_:)``).
  case holdEnded(AppHold)
}

/// What the backend did for a `simulate` request: the engine inputs it caused, and notes for
/// the user.
public struct SimulationOutcome: Sendable {
  public var inputs: [EngineInput]
  public var notes: [String]

  public init(inputs: [EngineInput], notes: [String] = []) {
    self.inputs = inputs
    self.notes = notes
  }
}

/// What the daemon found on disk when it started.
public struct ArbiterStart: Sendable {
  /// The held sessions the state file keeps, in creation order.
  public var saved: [SavedSession]
  /// What could not be read of the state file, one sentence each.
  public var stateProblems: [String]
  /// Where the state file is (for the log).
  public var statePath: String?
  /// Whether the state file must be folded into a new snapshot once the sessions are restored.
  public var stateNeedsFold: Bool
  /// The players a previous daemon left paused for an interruption (its journal), or why it
  /// could not be read.
  public var pausedPlayers: Result<Set<PausedPlayer>, JournalProblem>

  public struct JournalProblem: Error, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
  }

  public init(
    saved: [SavedSession] = [], stateProblems: [String] = [], statePath: String? = nil,
    stateNeedsFold: Bool = false,
    pausedPlayers: Result<Set<PausedPlayer>, JournalProblem> = .success([])
  ) {
    self.saved = saved
    self.stateProblems = stateProblems
    self.statePath = statePath
    self.stateNeedsFold = stateNeedsFold
    self.pausedPlayers = pausedPlayers
  }
}

/// A player the daemon paused, as its journal keeps it: by its bus name and the process that
/// owned it (a name taken over by another process is not the same player).
public struct PausedPlayer: Sendable, Hashable, Comparable {
  public var bus: String
  public var pid: Int32?
  /// When it was paused, as the count of the pauses the daemon sent (0: not known, a journal
  /// written before the order was kept). It is not part of the player's identity.
  public var order: Int

  public init(bus: String, pid: Int32?, order: Int = 0) {
    self.bus = bus
    self.pid = pid
    self.order = order
  }

  public static func == (a: PausedPlayer, b: PausedPlayer) -> Bool {
    a.bus == b.bus && a.pid == b.pid
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(bus)
    hasher.combine(pid)
  }

  public static func < (a: PausedPlayer, b: PausedPlayer) -> Bool { a.bus < b.bus }
}

/// What the arbiter decided to do, in order.
public enum ArbiterEffect: Sendable {
  /// A message (a notification) for a connection.
  case send(ConnectionID, String)
  /// The reply to a request.
  case reply(ConnectionID, ArbiterReply)
  /// The backend applies the engine's decisions (``AudioBackend/apply(_:status:)``).
  case apply([SessionNotification], EngineStatus)
  /// The backend learns which session each of other programs' streams belongs to.
  case assign(StreamAssignment)
  /// An MPRIS command for a player.
  case player(PlayerAction.Command, bus: String)
  /// One change to the state file (with every held session, should it have to be written
  /// whole).
  case save(SavedChange, all: HeldSessions)
  /// The state file written whole from the held sessions.
  case foldState(HeldSessions)
  /// The journal of paused players rewritten (removed when empty).
  case keepPausedPlayers(Set<PausedPlayer>)
  /// A line for the operator.
  case log(LogLine)
  /// An app session is held after its last stream (docs/apps.md "Speech"): the shell feeds
  /// ``ArbiterEvent/holdEnded(_:)`` once `milliseconds` have passed on its clock, in order with
  /// the other facts (the arbiter reads no clock).
  case timeHold(AppHold)
}

/// A reply, ready or to be finished by the shell with what only the backend and the state file
/// know (the real hardware's values, the server, the state file's problems).
public enum ArbiterReply: Sendable {
  case ready(DaemonReply)
  /// A command's result; `status`'s reply gets the backend's real hardware and server, and the
  /// state file's status; a save that failed while it ran is said (`notSaved`).
  case command(requestID: Int?, CommandResult)
  /// One session's state, to be given the real hardware's values.
  case session(requestID: Int?, SessionStatus)
  /// What the daemon saw since it started (`record`): the shell's recorder has it
  /// (``DesktopRecorder``).
  case recording(requestID: Int?)
}

/// One line for the operator's log, with its level and metadata.
public struct LogLine: Sendable, Hashable {
  public enum Level: String, Sendable, Hashable {
    case debug, info, notice, warning, error
  }

  public enum Value: Sendable, Hashable, ExpressibleByStringInterpolation {
    case string(String)
    case list([String])

    public init(stringLiteral value: String) { self = .string(value) }
  }

  public var level: Level
  public var message: String
  public var metadata: [String: Value]

  public init(level: Level, message: String, metadata: [String: Value] = [:]) {
    self.level = level
    self.message = message
    self.metadata = metadata
  }
}
