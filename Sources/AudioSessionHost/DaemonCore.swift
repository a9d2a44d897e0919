public import AudioSession
public import AudioSessionSystem
import AudioSessionWire
public import Logging

/// The daemon without its socket: every session, the engine (through a ``SessionCoordinator``),
/// who owns which session, who watches what, and the state file.
///
/// Each request is read, checked against ownership, run, and answered; the notifications it
/// caused are sent first to the connections that receive them (a session's owner, and watchers
/// whose filter admits the event), so a client sees what its call caused before the call returns.
/// Bad messages get an error reply and change nothing.
public actor DaemonCore {
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

  struct Connection {
    let peer: any DaemonPeer
    let credentials: PeerCredentials?
    var client: String?
    var filter: DaemonRequest.WatchFilter = .none
    var sessions: [String] = []
  }

  let coordinator: SessionCoordinator
  /// The thread the core, the coordinator and the backend run on.
  public nonisolated let executor: DedicatedThreadExecutor
  let identity: Identity
  let store: SessionStore?
  /// Where the daemon tells an operator what happened (metadata: `session`, `pid`, `path`).
  let logger: Logger

  var connections: [ConnectionID: Connection] = [:]
  var nextConnection = 1
  /// Library sessions, by name; a session missing here is held by the daemon.
  var owners: [String: ConnectionID] = [:]
  /// Watchers of any filter but `none`.
  var watchers: [ConnectionID: DaemonRequest.WatchFilter] = [:]
  /// The configurations of the daemon-held sessions, in creation order, as last saved.
  var held = HeldSessions()
  /// Other programs' streams and their sessions (docs/apps.md).
  var streams: AppStreamTracker
  /// The media players on the session bus, if the daemon watches them (docs/mpris.md).
  let players: (any MediaPlayerControl)?
  /// Which players to pause and play, and which ones we paused.
  var arbiter = PlayerArbiter()
  /// The policy in force (which configurations mix).
  let policy: Policy
  /// Where the players we paused are kept for the next daemon (nil: not kept).
  var pausedPlayers: PausedPlayersJournal?
  /// Players a previous daemon paused for an interruption, to play again once the focus is free.
  var pendingResume: Set<PausedPlayersJournal.Entry> = []
  /// Whether the bus has told us its players (the first snapshot came).
  var playersKnown = false
  /// The last decisions about each session, with why (`explain`, DaemonCore+Explain.swift).
  var history: [String: [Decision]] = [:]
  /// The sessions of `history`, in the order they were first decided about.
  var historyOrder: [String] = []

  /// Starts the backend and restores the sessions saved in the state file, if any.
  ///
  /// - Parameters:
  ///   - stateFile: Where daemon-held sessions are kept; nil keeps nothing.
  ///   - executor: The thread to run on (nil: a new one). Every call hops to it and runs the
  ///     coordinator and the backend there too, so the core never waits for the cooperative pool,
  ///     which synchronous clients in the same process may be blocking.
  ///   - logger: Receives one sentence per event worth telling an operator, with its level and
  ///     metadata (default: nowhere).
  ///   - players: The media players to pause and play with their sessions (nil: none).
  public init(
    policy: Policy, backend: any AudioBackend, devices: [String]? = nil, stateFile: String?,
    identity: Identity, executor: DedicatedThreadExecutor? = nil,
    logger: Logger = Logger(
      label: "audiosession.daemon", factory: { _ in SwiftLogNoOpLogHandler() }),
    players: (any MediaPlayerControl)? = nil
  ) async throws(SessionError) {
    let executor = executor ?? DedicatedThreadExecutor(name: "audiosession-engine")
    let coordinator = await withTaskExecutorPreference(executor) {
      () async -> Result<SessionCoordinator, SessionError> in
      do throws(SessionError) {
        return .success(
          try await SessionCoordinator(policy: policy, backend: backend, devices: devices))
      } catch {
        return .failure(error)
      }
    }
    let made = try coordinator.get()
    // The daemon keeps its last decisions with their reasons (`explain`).
    await withTaskExecutorPreference(executor) { await made.setExplaining(true) }
    self.coordinator = made
    self.streams = AppStreamTracker(
      rules: policy.table.apps,
      processes: .init(
        group: { ProcessAncestry.processGroup(of: $0) },
        lineage: { ProcessAncestry.lineage(of: $0) }))
    self.executor = executor
    self.identity = identity
    self.store = stateFile.map(SessionStore.init(path:))
    self.logger = logger
    self.players = players
    self.policy = policy
    if players != nil, let stateFile {
      var journal = PausedPlayersJournal(
        path: PausedPlayersJournal.path(besideStateFile: stateFile))
      do throws(SafeFile.Failure) {
        pendingResume = try journal.load()
      } catch {
        logger.warning("cannot read the players a previous daemon paused: \(error)")
      }
      if !pendingResume.isEmpty {
        logger.info(
          "a previous daemon left \(pendingResume.count) player(s) paused for an interruption; each plays again once nothing interrupts it",
          metadata: ["players": "\(pendingResume.map(\.bus).sorted())"])
      }
      pausedPlayers = journal
    }
    await withTaskExecutorPreference(executor) { await restore() }
    followBackend()
    followStreams()
    followPlayers()
  }

  /// Turns other programs' streams into app sessions (docs/apps.md), until the backend stops;
  /// the simulated backend reports none.
  private nonisolated func followStreams() {
    let coordinator = self.coordinator
    let core = self
    Task(executorPreference: executor) {
      for await event in coordinator.observedStreams {
        await core.streamsChanged(event)
      }
    }
  }

  /// Feeds one change of other programs' streams: the backend learns the new assignment, then
  /// the engine gets what the change means for app sessions, and everyone is told.
  func streamsChanged(_ event: ServerStreamEvent) async {
    streams.reservedNames = Set(owners.keys).union(held.names)
    let inputs = streams.apply(event)
    await applyStreamInputs(inputs)
  }

  /// The library clients' processes changed (a connection came, went, or made a session).
  func clientProcessesChanged() async {
    var processes: [Int32: String] = [:]
    for connection in connections.values {
      if let pid = connection.credentials?.pid, let session = connection.sessions.last {
        processes[pid] = session
      }
    }
    guard processes != streams.clientProcesses else { return }
    await applyStreamInputs(streams.setClientProcesses(processes))
  }

  func applyStreamInputs(_ inputs: [EngineInput]) async {
    let assignment = streams.assignment
    let outcomes = await onEngine {
      await coordinator.assign(assignment)
      return inputs.isEmpty ? [] : await coordinator.handle(inputs)
    }
    let because = await because(outcomes, inputs: inputs)
    var removed: [String] = []
    for case .removeSession(let name) in inputs {
      arbiter.forget(session: name)
      removed.append(name)
    }
    for (input, outcome) in zip(inputs, outcomes) {
      if let error = outcome.error {
        // An app cannot be told: the operator is (an activation refused, a busy deactivation).
        // In the contract's words (issue 25 item 7): `set mpv.42 ambient, mode default, …`.
        logger.warning(
          "an app session's input failed: \(error.message)", metadata: ["input": "\(input)"])
      }
    }
    deliver(outcomes.flatMap(\.notifications), because: because)
    forgetHistory(of: removed)
    var created: [String] = []
    for case .createSession(let name) in inputs { created.append(name) }
    if players != nil, !created.isEmpty { await claimNowPlaying(forNew: created) }
    await resumeLeftPlayers()
  }

  /// Feeds what the backend sees on its own (a device plugged, a call on a real server) to the
  /// engine, and its notifications to the clients, until the backend stops; the simulated backend
  /// sees nothing.
  private nonisolated func followBackend() {
    let coordinator = self.coordinator
    let core = self
    Task(executorPreference: executor) {
      await coordinator.followBackend { input, outcome in
        await core.followed(outcome, input: input)
      }
    }
  }

  public nonisolated var unownedExecutor: UnownedSerialExecutor {
    executor.asUnownedSerialExecutor()
  }

  /// Runs `body` with the engine thread as the task's preferred executor, so the coordinator's
  /// and the backend's code runs there too.
  func onEngine<Value: Sendable>(_ body: () async -> Value) async -> Value {
    await withTaskExecutorPreference(executor, operation: body)
  }

  /// The backend's name.
  public nonisolated var backendName: String { coordinator.backendName }

  /// Registers a new connection.
  public func connect(
    _ peer: any DaemonPeer, credentials: PeerCredentials? = nil
  ) -> ConnectionID {
    let id = ConnectionID(rawValue: nextConnection)
    nextConnection += 1
    connections[id] = Connection(peer: peer, credentials: credentials)
    logger.debug("\(id) opened", metadata: Self.metadata(id, credentials))
    return id
  }

  /// Forgets a connection: its sessions end as a vanished app's do (deactivated; the sessions
  /// they interrupted get what the policy's `vanishedApp` says), and the others are told.
  public func disconnect(_ id: ConnectionID) async {
    await onEngine { await disconnectOnEngine(id) }
  }

  private func disconnectOnEngine(_ id: ConnectionID) async {
    guard let connection = connections.removeValue(forKey: id) else { return }
    var metadata = Self.metadata(id, connection.credentials)
    if !connection.sessions.isEmpty {
      metadata["sessions"] = .array(connection.sessions.map { .string($0) })
    }
    logger.debug("\(id) closed", metadata: metadata)
    watchers[id] = nil
    for name in connection.sessions {
      owners[name] = nil
      streams.followedSessions.remove(name)
      let result = await coordinator.run(
        .input(.removeSession(name)), trigger: "\(name)'s client disconnected")
      deliver(result.notifications, because: result.because)
      forgetHistory(of: [name])
    }
    await clientProcessesChanged()
  }

  /// Handles one message from a connection and sends the reply (after the notifications).
  public func receive(_ message: [UInt8], from id: ConnectionID) async {
    await onEngine { await receiveOnEngine(message, from: id) }
  }

  private func receiveOnEngine(_ message: [UInt8], from id: ConnectionID) async {
    guard connections[id] != nil else { return }
    let reply: DaemonReply
    do {
      let request = try DaemonRequest(message: message)
      reply = await performOnEngine(request, from: id)
    } catch {
      reply = DaemonReply(id: Self.salvageID(message), error: error)
    }
    connections[id]?.peer.send(reply.json.serialized)
  }

  /// Answers a message that was longer than ``WireProtocol/maxMessageBytes``.
  public func rejectOversized(from id: ConnectionID) {
    let error = ProtocolError(
      .messageTooLarge,
      "the message is longer than \(WireProtocol.maxMessageBytes) bytes and was discarded")
    connections[id]?.peer.send(
      DaemonReply(id: nil, error: .protocolError(error)).json.serialized)
  }

  /// Delivers what an input of the backend caused; after a reset of the media server, also
  /// configures the held sessions again.
  func followed(_ outcome: EngineOutcome, input: EngineInput) async {
    deliver(outcome.notifications, because: await because([outcome], inputs: [input]))
    deliver(await onEngine { await reconfigureHeld(after: outcome.notifications) })
    if outcome.notifications.contains(where: { $0.event == .mediaServicesWereReset }) {
      // The app sessions of programs that play on are made again from their streams.
      await applyStreamInputs(streams.mediaServicesWereReset())
    }
    await resumeLeftPlayers()
  }

  /// The whole state, as `status` reports it.
  public func status() async -> EngineStatus {
    await onEngine {
      var status = await coordinator.status()
      status.server = await coordinator.serverStatus()
      status.stateFile = stateFileStatus()
      return status
    }
  }

  /// Who holds a session, or nil if there is no such session.
  public func owner(of session: String) async -> SessionOwner? {
    if let id = owners[session] { return .connection(id) }
    if let app = streams.appSessions[session] { return .app(pid: app.pid) }
    let exists = await onEngine { await coordinator.session(named: session) != nil }
    return exists ? .daemon : nil
  }

  /// Stops the backend, and flushes the state file to disk.
  public func shutdown() async {
    players?.stop()
    await onEngine { await coordinator.shutdown() }
    store?.close()
  }

  /// The metadata of a connection's events: its number and, when known, its peer's pid and uid.
  static func metadata(_ id: ConnectionID, _ credentials: PeerCredentials?) -> Logger.Metadata {
    var metadata: Logger.Metadata = ["connection": "\(id.rawValue)"]
    if let credentials {
      metadata["pid"] = "\(credentials.pid)"
      metadata["uid"] = "\(credentials.uid)"
    }
    return metadata
  }

  /// The `id` of a message that could not be read as a request, if it is at least an object
  /// with an integer `id`.
  static func salvageID(_ message: [UInt8]) -> Int? {
    guard case .object(let object)? = try? JSONParser.parse(message),
      case .int(let id)? = object["id"]
    else { return nil }
    return id
  }

  /// Sends each notification to its session's owner and to the watchers it passes, serialising
  /// each distinct event once.
  /// Returns them, followed by the `player` events they caused (``playerCommands(for:)``).
  /// `because`, parallel to `notifications`, is recorded for `explain`.
  @discardableResult
  func deliver(
    _ notifications: [SessionNotification], because: [Because] = []
  ) -> [SessionNotification] {
    guard !notifications.isEmpty else { return [] }
    let commands = playerCommands(for: notifications)
    if !commands.isEmpty { keepPausedPlayers() }
    record(notifications, because: because)
    record(commands.map(\.0), because: commands.map { playerBecause($0.1) })
    let notifications = notifications + commands.map(\.0)
    let resumptions = streams.resumptions(after: notifications)
    if !resumptions.isEmpty {
      // After this delivery, as a decision of its own (docs/apps.md).
      Task { await self.applyStreamInputs(resumptions) }
    }
    var tails: [SessionEvent: Substring] = [:]
    for notification in notifications {
      var message: String?
      func send(_ id: ConnectionID) {
        guard let peer = connections[id]?.peer else { return }
        if message == nil {
          let tail = tails[notification.event] ?? WireNotification.eventTail(notification)
          tails[notification.event] = tail
          message = WireNotification.message(session: notification.session, eventTail: tail)
        }
        if let message { peer.send(message) }
      }
      let owner = owners[notification.session]
      if let owner { send(owner) }
      for (id, filter) in watchers where id != owner && filter.admits(notification.event) {
        send(id)
      }
    }
    return notifications
  }
}
