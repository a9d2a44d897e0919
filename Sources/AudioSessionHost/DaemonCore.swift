public import AudioSession
@_exported public import AudioSessionArbiter
public import AudioSessionSystem
public import AudioSessionWire
public import Logging

/// The daemon's shell around its ``Arbiter``: it feeds the arbiter every fact — requests and
/// connections, what the backend and the session bus saw, what is on disk — in one ordered
/// loop, and carries out what it decides (messages to clients, the backend's actions, player
/// commands, the state file, the log), deciding nothing itself (docs/arbiter.md).
///
/// Each fact is handled to the end, its effects carried out, before the next is taken: a
/// client sees what its call caused before the call returns, and one change on the server is
/// one step of the arbiter. Bad messages get an error reply and change nothing.
public actor DaemonCore {
  public typealias Identity = Arbiter.Identity

  /// How many decisions `explain` keeps per session.
  public static let historyLimit = Arbiter.historyLimit

  var arbiter: Arbiter
  /// What the daemon saw since it started, as a scenario's steps (`record`, docs/contract.md
  /// "Recording what the daemon saw").
  var recorder: DesktopRecorder
  /// When the daemon started, for the record's header.
  let startedAt = WallTime.now()
  let backend: any AudioBackend
  /// The thread the core and the backend run on.
  public nonisolated let executor: DedicatedThreadExecutor
  let store: SessionStore?
  /// Where the daemon tells an operator what happened (metadata: `session`, `pid`, `path`).
  let logger: Logger
  /// The media players on the session bus, if the daemon watches them (docs/mpris.md).
  let players: (any MediaPlayerControl)?
  /// Where the players we paused are kept for the next daemon (nil: not kept).
  var pausedPlayers: PausedPlayersJournal?
  var peers: [ConnectionID: any DaemonPeer] = [:]
  var nextConnection = 1
  /// Whether a fact is being handled; the facts that wait for it, in order.
  private var busy = false
  private var waiting: [CheckedContinuation<Void, Never>] = []

  /// Starts the backend and restores the sessions saved in the state file, if any.
  ///
  /// - Parameters:
  ///   - stateFile: Where daemon-held sessions are kept; nil keeps nothing.
  ///   - executor: The thread to run on (nil: a new one). Every call hops to it and runs the
  ///     backend there too, so the core never waits for the cooperative pool, which synchronous
  ///     clients in the same process may be blocking.
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
    let catalog = policy.table.devices
    let started = await withTaskExecutorPreference(executor) {
      () async -> Result<[Device], SessionError> in
      do throws(SessionError) {
        return .success(
          try await backend.start(
            catalog: catalog, initialDevices: devices ?? catalog.defaultDevices))
      } catch {
        return .failure(error)
      }
    }
    let present = try started.get()
    self.arbiter = Arbiter(
      policy: policy, devices: present,
      setup: .init(
        identity: identity, backendName: backend.name,
        backendFollowsSessions: backend.followsSessions,
        backendReportsStreams: backend.reportsStreams, keepsState: stateFile != nil,
        watchesPlayers: players != nil))
    self.recorder = DesktopRecorder(policy: policy, devices: present, setup: arbiter.setup)
    self.backend = backend
    self.executor = executor
    self.store = stateFile.map(SessionStore.init(path:))
    self.logger = logger
    self.players = players
    var start = ArbiterStart()
    if let store {
      let opened = store.open()
      start.saved = opened.entries
      start.stateProblems = opened.problems
      start.statePath = store.path
      start.stateNeedsFold = store.needsFold
    }
    if players != nil, let stateFile {
      var journal = PausedPlayersJournal(
        path: PausedPlayersJournal.path(besideStateFile: stateFile))
      do throws(SafeFile.Failure) {
        start.pausedPlayers = .success(try journal.load())
      } catch {
        start.pausedPlayers = .failure(.init("\(error)"))
      }
      pausedPlayers = journal
    }
    await submit(.started(start))
    followBackend()
    followPlayers()
  }

  public nonisolated var unownedExecutor: UnownedSerialExecutor {
    executor.asUnownedSerialExecutor()
  }

  /// The backend's name.
  public nonisolated var backendName: String { backend.name }

  // MARK: The loop

  /// Handles one fact to the end: the arbiter decides, and its effects are carried out before
  /// the next fact is taken. Returns the replies it made, unsent when `sendingReplies` is false.
  @discardableResult
  func submit(_ event: ArbiterEvent, sendingReplies: Bool = true) async -> [DaemonReply] {
    if busy {
      await withCheckedContinuation { waiting.append($0) }
    } else {
      busy = true
    }
    let effects = arbiter.handle(event)
    recorder.record(event, effects: effects, at: MonotonicClock.milliseconds())
    let replies = await withTaskExecutorPreference(executor) {
      await carryOut(effects, sendingReplies: sendingReplies)
    }
    if waiting.isEmpty {
      busy = false
    } else {
      waiting.removeFirst().resume()
    }
    return replies
  }

  /// Feeds what the backend sees on its own (a device plugged, a call, another program's
  /// stream) to the arbiter, in its order, until the backend stops; the simulated backend sees
  /// nothing.
  private nonisolated func followBackend() {
    let backend = self.backend
    let core = self
    Task(executorPreference: executor) {
      for await event in backend.observedEvents {
        switch event {
        case .input(let input): await core.submit(.backend(input))
        case .streams(let change): await core.streamsChanged(change)
        }
      }
    }
  }

  /// Feeds a change of other programs' streams, with what `/proc` says of the processes it
  /// names that the arbiter does not know yet (their group and lineage).
  func streamsChanged(_ event: ServerStreamEvent) async {
    var facts: [Int32: ProcessFacts] = [:]
    for pid in arbiter.unknownProcesses(in: event) {
      facts[pid] = ProcessFacts(
        group: ProcessAncestry.processGroup(of: pid), lineage: ProcessAncestry.lineage(of: pid))
    }
    await submit(.streams(event, processes: facts))
  }

  /// Starts watching the media players (the daemon does it once it listens, so that a daemon
  /// that cannot start says nothing about them).
  public nonisolated func startPlayers() {
    players?.start()
  }

  /// Learns the media players on the session bus as they come, change and go.
  private nonisolated func followPlayers() {
    guard let players else { return }
    let core = self
    Task(executorPreference: executor) {
      for await event in players.events {
        await core.playersChanged(event)
      }
      await core.playersEnded()
    }
  }

  func playersChanged(_ event: MediaPlayerEvent) async {
    await submit(.players(event))
  }

  /// The players' watcher ended (no session bus, or the daemon stops): the record waits for no
  /// players' snapshot (docs/contract.md "Recording what the daemon saw").
  func playersEnded() {
    recorder.playersEnded()
  }

  // MARK: Connections

  /// Registers a new connection.
  public func connect(
    _ peer: any DaemonPeer, credentials: PeerCredentials? = nil
  ) async -> ConnectionID {
    let id = ConnectionID(rawValue: nextConnection)
    nextConnection += 1
    peers[id] = peer
    await submit(.connected(id, credentials))
    return id
  }

  /// Forgets a connection: its sessions end as a vanished app's do (deactivated; the sessions
  /// they interrupted get what the policy's `vanishedApp` says), and the others are told.
  public func disconnect(_ id: ConnectionID) async {
    await submit(.disconnected(id))
    peers[id] = nil
  }

  /// Handles one message from a connection and sends the reply (after the notifications).
  public func receive(_ message: [UInt8], from id: ConnectionID) async {
    guard peers[id] != nil else { return }
    let request: DaemonRequest
    do {
      request = try DaemonRequest(message: message)
    } catch {
      await submit(.unreadable(error, requestID: Self.salvageID(message), from: id))
      return
    }
    await run(request, from: id, sendingReply: true)
  }

  /// Runs a request for a connection and returns its reply; the notifications it caused have
  /// been delivered (to their sessions' owners and the watchers) when it returns.
  public func perform(_ request: DaemonRequest, from id: ConnectionID) async -> DaemonReply {
    await run(request, from: id, sendingReply: false).first
      ?? DaemonReply(
        id: request.id,
        error: .protocolError(ProtocolError(.invalidMessage, "the connection is closed")))
  }

  @discardableResult
  private func run(
    _ request: DaemonRequest, from id: ConnectionID, sendingReply: Bool
  ) async -> [DaemonReply] {
    let now = WallClock.milliseconds()
    var performed: Result<SimulationOutcome, SessionError>?
    if let action = arbiter.simulation(in: request, from: id, now: now) {
      // The backend acts first (a device loaded on the server…); the arbiter decides with what
      // it did.
      performed = await withTaskExecutorPreference(executor) {
        () async -> Result<SimulationOutcome, SessionError> in
        do throws(SessionError) {
          let inputs = try await backend.perform(action)
          return .success(
            SimulationOutcome(inputs: inputs, notes: await backend.takeSimulationNotes()))
        } catch {
          return .failure(error)
        }
      }
    }
    return await submit(
      .request(request, from: id, now: now, performed: performed), sendingReplies: sendingReply)
  }

  /// Answers a message that was longer than ``WireProtocol/maxMessageBytes``.
  public func rejectOversized(from id: ConnectionID) {
    let error = ProtocolError(
      .messageTooLarge,
      "the message is longer than \(WireProtocol.maxMessageBytes) bytes and was discarded")
    peers[id]?.send(DaemonReply(id: nil, error: .protocolError(error)).json.serialized)
  }

  /// The whole state, as `status` reports it.
  public func status() async -> EngineStatus {
    let engineStatus = arbiter.engine.status()
    return await withTaskExecutorPreference(executor) {
      var status = await backend.withRealHardware(engineStatus)
      status.server = await backend.serverStatus
      status.stateFile = stateFileStatus()
      return status
    }
  }

  /// Who holds a session, or nil if there is no such session.
  public func owner(of session: String) -> SessionOwner? { arbiter.owner(of: session) }

  /// Stops the backend, and flushes the state file to disk.
  public func shutdown() async {
    players?.stop()
    await withTaskExecutorPreference(executor) { await backend.stop() }
    store?.close()
  }

  /// The `id` of a message that could not be read as a request, if it is at least an object
  /// with an integer `id`.
  static func salvageID(_ message: [UInt8]) -> Int? {
    guard case .object(let object)? = try? JSONParser.parse(message),
      case .int(let id)? = object["id"]
    else { return nil }
    return id
  }

  /// What `status` says about the state file (nil when the daemon keeps none).
  func stateFileStatus() -> StateFileStatus? {
    guard let store else { return nil }
    return StateFileStatus(path: store.path, problems: store.problems)
  }

  /// The sentence a reply carries (`notSaved`) for a change that could not be saved.
  static func notSavedText(_ failure: String) -> String {
    "the change was made, but not saved in the state file (\(failure)); it will not survive a "
      + "restart of the daemon"
  }
}
