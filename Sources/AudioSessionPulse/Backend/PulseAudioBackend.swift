public import AudioSession
import AudioSessionSystem
import FoundationEssentials
import Logging

/// The PulseAudio backend: devices, calls and the microphone mute come from a real PulseAudio
/// (or pipewire-pulse) server, and the engine's decisions are applied to the sessions' real
/// streams.
///
/// - **Devices** are the server's sinks and sources, grouped and mapped to port types by
///   ``PulseDeviceAssembler`` with `policies/pulse.json` (docs/pulseaudio.md §4). A
///   ``PulseServerMonitor`` keeps a live copy of the server; each settled burst of events is
///   compared with what the engine was told (``PulseSystemState``), so a burst becomes one
///   change, and a removed device is described from the copy taken before it went.
/// - **Calls**: another client's stream whose `media.role` is a call role (`phone`) is a call;
///   a `request-cork` from module-role-cork on a session's stream begins it at once (it arrives
///   before the server announces the phone stream) and `request-uncork` is part of its end.
/// - **Microphone**: the source of the built-in mic port muted is the mic mute.
/// - **Sessions**: while a session plays it owns a playback stream (and a record stream when its
///   route has an input) on the sink of its route, with the `media.role` of its category and
///   mode. Interrupted or paused: corked. Ducked: lowered by the policy's decibels, restored to
///   the exact volumes it had. Muted: muted.
/// - **Simulation** (`simulate …`) acts on the server: null sinks and sources carrying a
///   preset's properties, a real phone-role stream from a second client, a source mute, and a
///   restart of the private server the backend started.
/// - **Loss**: when the connection fails the engine is told `mediaServicesLost` and keeps what it
///   knew; the backend reconnects with a doubling delay, re-creates what it simulated, resyncs,
///   and tells `mediaServicesReset` and whatever changed meanwhile.
///
/// ``perform(_:)`` returns once the action's effects have all arrived: it waits for the expected
/// change on the server, then for a round trip, and returns the inputs of the difference.
/// Changes nobody asked for (a user plugs a device, a call arrives, the server dies) go out on
/// ``observedEvents``.
public actor PulseAudioBackend: AudioBackend {
  public nonisolated let name = "pulse"
  /// Other programs' streams come on ``observedEvents``, a snapshot of them first.
  public nonisolated let reportsStreams = true
  /// What the backend observed on its own, inputs and other programs' streams (docs/apps.md
  /// "On the server"), in the one order it saw them (see ``AudioBackend/observedEvents``).
  /// Buffering is unbounded: dropping one would leave the engine out of step with the server.
  public nonisolated let observedEvents: AsyncStream<BackendEvent>
  let observedSink: AsyncStream<BackendEvent>.Continuation
  let configuration: PulseBackendConfiguration
  /// Marks the devices this backend simulates (`audiosession.owner`), so that backends sharing
  /// a server keep apart.
  let owner: String

  // The server and the connection to it (PulseAudioBackend+Connection.swift).
  /// The server to use: started by the backend, or named, and what it is.
  var endpoint = Endpoint()
  /// The live connection; nil while it is lost (or before the start, or once stopped).
  var link: Link?
  /// The number of the current (or last) connection: events of an older one are dropped.
  var connection = 0
  /// When the connection was made or lost, the reconnection running, the attempts it made.
  var history = ConnectionHistory()
  var stopped = false

  // What the server shows, and what the engine was told (pure parts).
  var snapshot: PulseServerSnapshot?
  /// The devices the server shows and what the engine was told of them.
  var deviceView = PulseDeviceView()
  /// Another program's call, as the snapshots and module-role-cork's requests show it.
  var calls = PulseCallSignals()
  /// The actions waiting for their effect on the server; while one runs, changes are held.
  var waits = PulseWaitList<Waiter>()
  /// The engine's last status, as the last ``apply(_:status:)`` gave it.
  var lastStatus: EngineStatus?
  /// Whether the engine has a call ringing (its own: the server has no ring).
  var engineCallRinging: Bool { lastStatus?.callRinging != nil }

  // The sessions' own streams (pure part, and the handles of what it opened).
  var ownModel = OwnStreamsModel()
  /// The sessions' streams on the server, as the model's actions opened them.
  var sessions: [String: PulseSessionStreams] = [:]

  // Other programs' streams (pure parts, PulseAudioBackend+OtherStreams.swift).
  /// Which session each of them belongs to (the host's ``assign(_:)``) and what the backend
  /// changed on them: the model that decides what to do to them (docs/apps.md "The model of
  /// other programs' streams"); the backend applies its actions.
  var otherModel: OtherStreamsModel
  /// Other programs' streams as last reported to the host, and those undone lately.
  var report = OtherStreamsReport()
  /// Which corks of other programs' playback streams are a start-up flap, held a moment
  /// (``holdsStartCork(_:corked:)``).
  var startCorks = StartCorkFilter()
  /// Whether the processes other programs' streams name check out (``ProcessClaims``).
  var claims = ProcessClaims()
  /// How long until the playback streams shown on no sink are asked for again (nil: no such
  /// look is due; ``pollUnlinkedStreams(in:)``).
  var unlinkedPollDelay: Duration?
  /// What the server's stream database may hand a program's new stream because of the
  /// backend (a gone stream's mute or ducking, one undone lately), and the new streams watched
  /// for it.
  var inheritances = StreamInheritance()

  // Machinery on the server and on disk.
  /// The level meters on streams whose silence counts as a pause (+Silence.swift).
  var silence = Silence()
  /// The changes file and the intent file beside it (+Journal.swift).
  var journal: Journal
  /// Mutes the assigned streams on a sink as its removal is seen, on the loop thread.
  let unplugGuard = PulseUnplugGuard()
  /// Repairs of the server's saved state for streams that went muted or ducked
  /// (``streamWentChanged(_:of:)``): the stop waits for them.
  var repairs = Repairs()
  /// What `simulate …` made on the server (+Simulation.swift).
  var simulation = Simulation()
  /// What went wrong applying decisions to streams (the engine's decisions stand regardless).
  package internal(set) var problems: [String] = []

  /// A live connection: the context, its monitor and our client index.
  struct Link {
    var context: PulseContext
    var monitor: PulseServerMonitor
    var clientIndex: UInt32?
  }

  /// What `simulate …` made on the server: made again after a reconnect, undone on stop.
  struct Simulation {
    /// The devices made, in the order they were plugged.
    var devices: [SimulatedDevice] = []
    /// How many of each preset were plugged (a preset without a fixed UID gets `NAME-N`).
    var plugCounts: [String: Int] = [:]
    /// The call played, if any.
    var call: SimulatedCall?
    /// The microphone mute asked for; nil: none, or the server has no built-in microphone.
    var micMuteWanted: Bool?
    /// What the last simulation did to a server the backend did not start
    /// (``takeSimulationNotes()``).
    var notes: [String] = []
  }

  /// A device the backend made on the server.
  struct SimulatedDevice {
    var device: PulseSimulatedDevice
    var modules: [UInt32]
  }

  /// The phone call `simulate call begin` plays: a second client's phone-role stream.
  struct SimulatedCall {
    var context: PulseContext?
    var stream: PulsePlaybackStream?
  }

  /// What an action waits for.
  typealias Expectation = PulseExpectation
  /// An action waiting for its effect to show on the server.
  typealias Waiter = CheckedContinuation<SessionError?, Never>

  public init(configuration: PulseBackendConfiguration) {
    self.configuration = configuration
    journal = Journal(writer: PulseJournalWriter(logger: configuration.logger))
    let rules = configuration.policy.streams
    otherModel = OtherStreamsModel(
      systemDevices: configuration.devices == .system, duckVolume: { rules.ducked($0) })
    var generator = SystemRandomNumberGenerator()
    self.owner = String(generator.next() & 0xFFFF_FFFF, radix: 16)
    (observedEvents, observedSink) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
  }

  /// The private server the backend started, if it started one.
  public var privateServer: (any PulseServerProcess)? { endpoint.spawned }

  /// Returns once the server has carried out every request sent before the call
  /// (``apply(_:status:)`` does not wait for them), and everything that happened on it before
  /// has been taken in and, unless an action is running, passed on to ``observedEvents`` (a
  /// round trip to the server). Returns at once while the server is unreachable.
  package func synchronize() async {
    guard let link else { return }
    let number = connection
    if let settled = await link.monitor.settle() { received(settled, connection: number) }
  }

  /// The server's name (`pulseaudio`, `PulseAudio (on PipeWire 0.3.65)`), once connected.
  package var connectedServerName: String? {
    link == nil ? nil : snapshot?.server?.serverName
  }

  // MARK: AudioBackend

  public func start(
    catalog: DeviceCatalog, initialDevices: [String]
  ) async throws(SessionError) -> [Device] {
    deviceView.catalog = catalog
    for name in initialDevices where catalog.presets[name] == nil {
      throw Self.unknownPreset(name, catalog)
    }
    try await startServer()
    // Nothing is published until the engine has the initial devices.
    waits.holding += 1
    defer { waits.holding -= 1 }
    do {
      try await establish()
    } catch {
      endpoint.spawned?.stop()
      endpoint.spawned = nil
      throw Self.unreachable(
        error, address: endpoint.address ?? Self.environmentAddress(), server: endpoint.name)
    }
    history.restored = connection
    if configuration.devices == .simulated || endpoint.spawned != nil {
      for preset in initialDevices { try await createDevice(preset: preset) }
    }
    _ = await link?.monitor.settle()
    refresh()
    // The engine starts with these devices and with no call and no mute: those, if the
    // server shows them, follow as observed inputs.
    var initial = PulseSystemState(connected: true, connection: connection)
    initial = PulseSystemState.transition(from: initial, to: currentState()).state
    initial.callActive = false
    initial.builtInMicMuted = false
    // The engine starts at full volume: another follows as an observed input.
    initial.outputVolume = 1
    deviceView.started(with: initial)
    return initial.devices
  }

  public func stop() async {
    guard !stopped else { return }
    stopped = true
    history.task?.cancel()
    history.task = nil
    for streams in sessions.values { streams.close() }
    sessions = [:]
    ownModel.connectionLost()
    stopSilenceMeters()
    // A stream the unplug guard muted that no snapshot has brought to the model yet is undone
    // here; the model undoes the others.
    if let link, let snapshot { reconcileUnplugGuard(snapshot, before: .max, link) }
    unplugGuard.disarm()
    await restoreOtherStreams()
    // Everything undone: the intent file, kept open and empty meanwhile, goes.
    if let path = configuration.changesFile, journal.entries?.isEmpty ?? true {
      removeIntents(path)
    }
    endCall()
    if let link {
      for device in simulation.devices.reversed() {
        for module in device.modules.reversed() {
          try? await link.context.unloadModule(module)
        }
      }
      link.monitor.stop()
      link.context.disconnect()
    }
    link = nil
    simulation.devices = []
    endpoint.spawned?.stop()
    endpoint.spawned = nil
    for (_, waiter) in waits.takeAll() {
      waiter.resume(returning: SessionError(.mediaServicesFailed, "the PulseAudio backend stopped"))
    }
    observedSink.finish()
  }

  // MARK: State

  /// The state the server shows now.
  func currentState() -> PulseSystemState {
    guard let link, let snapshot else { return deviceView.lostState }
    return deviceView.state(
      of: snapshot, connection: connection, callActive: calls.callActive(callFacts(link)),
      systemDefaults: configuration.devices == .system)
  }

  /// The device behind a sink or source (``PulseDeviceView/uid(of:_:in:)``).
  func deviceUID(of object: String, _ direction: PortDirection) -> String? {
    deviceView.uid(of: object, direction, in: snapshot)
  }

  /// Whether another client (than ours, and than `other`) plays a stream with a call role
  /// (``PulseCallSignals/foreignCall(in:roles:ours:besides:)``).
  func foreignCall(_ link: Link, besides other: UInt32? = nil) -> Bool {
    guard let snapshot else { return false }
    return PulseCallSignals.foreignCall(
      in: snapshot, roles: configuration.policy.streams.callRoles, ours: link.clientIndex,
      besides: other)
  }

  /// Whether one of our own sessions plays with a call role (its stream may be what made
  /// module-role-cork cork another session's stream).
  var ownCallRolePlaying: Bool {
    ownModel.plays(withAnyOf: configuration.policy.streams.callRoles)
  }

  /// Takes in a settled snapshot of the current connection.
  func received(_ new: PulseServerSnapshot, connection number: Int) {
    guard number == connection, let link, new.sequence > (snapshot?.sequence ?? -1) else { return }
    let devicesChanged = snapshot?.devices != new.devices
    let previous = snapshot
    snapshot = new
    otherModel.see(new)
    if let previous { silenceRescuedStreams(from: previous, to: new) }
    reconcileUnplugGuard(new, before: new.sequence, link)
    reportOtherStreams(new)
    if lastStatus != nil, otherModel.rolePolicyChanged() {
      Task {
        if let status = self.lastStatus { await self.followOtherStreams(status) }
      }
    }
    updateSilenceMeters()
    pollUnlinkedStreams(in: new)
    resolveCorkHolds(link)
    let before = Set(deviceView.assembled.map(\.device.uid))
    if devicesChanged { rebuildDevices() }
    var adopted: [OtherStreamsModel.Action] = []
    otherModel.adoptLinked(uid: { deviceUID(of: $0, .output) }, into: &adopted)
    send(adopted)
    if let previous, Set(deviceView.assembled.map(\.device.uid)) == before {
      noticeMovedStreams(from: previous, to: new)
      noticeMovedOtherStreams(from: previous, to: new)
    } else {
      adoptStreamSinks(new)
    }
    stateChanged()
  }

  /// Where the server shows the sessions' playback streams, by session: the sinks' names, for
  /// the streams whose last request from the backend (opening or moving them) the snapshot has
  /// taken in.
  private func shownSinks(in new: PulseServerSnapshot) -> [String: String] {
    var shown: [String: String] = [:]
    for (name, streams) in sessions {
      guard new.sequence > streams.requestsSettled, let index = streams.playback?.index,
        let input = new.sinkInputs.first(where: { $0.index == index }),
        let sink = new.devices.first(where: {
          $0.direction == .output && $0.index == input.sinkIndex
        })
      else { continue }
      shown[name] = sink.name
    }
    return shown
  }

  /// Takes the sinks the server shows for the session streams as theirs, without telling the
  /// engine (a device came or went: the server rescued streams, or followed a new default).
  private func adoptStreamSinks(_ new: PulseServerSnapshot) {
    ownModel.adopt(shownSinks(in: new))
  }

  /// In a burst where no device came or went, a session stream found on another sink than the
  /// backend put it on was moved by the user: `deviceChosen` for that session
  /// (``OwnStreamsModel/moved(_:newDefault:defaultChanged:uid:)``).
  private func noticeMovedStreams(from previous: PulseServerSnapshot, to new: PulseServerSnapshot) {
    guard configuration.devices == .system else { return }
    let newDefault = new.server?.defaultSinkName
    deviceView.userChose(
      ownModel.moved(
        shownSinks(in: new), newDefault: newDefault,
        defaultChanged: previous.server?.defaultSinkName != newDefault,
        uid: { deviceUID(of: $0, .output) }))
  }

  /// The same for other programs' streams: one the user moved to another sink (a mixer, `pactl
  /// move-sink-input`), in a burst where no device came or went and the default stayed, is the
  /// user's choice of output for its app session: `deviceChosen` for that session, a route change
  /// with reason `override` (docs/apps.md "On the server"). A move the backend asked for (the
  /// session's route changed) is not one.
  private func noticeMovedOtherStreams(
    from previous: PulseServerSnapshot, to new: PulseServerSnapshot
  ) {
    var actions: [OtherStreamsModel.Action] = []
    otherModel.movedByUser(
      from: previous, to: new, uid: { deviceUID(of: $0, .output) }, into: &actions)
    send(actions)
  }

  /// What the latest snapshot and our own streams show about calls (nil: no snapshot yet).
  func callFacts(_ link: Link) -> PulseCallSignals.Facts? {
    guard let sequence = snapshot?.sequence else { return nil }
    return PulseCallSignals.Facts(
      sequence: sequence, foreignCall: foreignCall(link), ownCallPlaying: ownCallRolePlaying)
  }

  /// Lets the latest snapshot settle the cork requests (``PulseCallSignals/resolve(_:)``);
  /// called when a snapshot or a request arrives, in whichever order their tasks run.
  func resolveCorkHolds(_ link: Link) {
    guard !calls.holds.isEmpty, let facts = callFacts(link) else { return }
    carryOut(calls.resolve(facts))
  }

  /// Carries out what the call signals ask for.
  func carryOut(_ actions: [PulseCallSignals.Action]) {
    for action in actions {
      switch action {
      case .expireLater(let session, let serial):
        Task { [weak self] in
          try? await TimerThread.sleep(for: .seconds(1))
          await self?.expireCorkHold(session, serial: serial)
        }
      case .restoreMute(let session): restoreMute(of: session)
      }
    }
  }

  /// Ends a cork request that nothing confirmed within a second (a phone stream that came and
  /// went before the backend could ask for its role).
  func expireCorkHold(_ session: String, serial: Int) {
    if calls.expire(session, serial: serial) { stateChanged() }
  }

  /// Rebuilds the devices from the latest snapshot, then wakes waiters and publishes.
  func refresh() {
    rebuildDevices()
    stateChanged()
  }

  /// Assembles the devices of the latest snapshot.
  private func rebuildDevices() {
    guard let snapshot else { return }
    deviceView.assemble(
      snapshot.devices, rules: configuration.policy.ports,
      owner: configuration.devices == .simulated ? owner : nil)
  }

  /// Wakes the actions whose effect has arrived and, unless an action is running, tells the
  /// engine what changed.
  func stateChanged() {
    let state = currentState()
    for waiter in waits.takeMet({ satisfied($0, state) }) { waiter.resume(returning: nil) }
    guard waits.holding == 0 else { return }
    publish(state)
  }

  /// Sends the inputs that take the engine to `state` on ``observedEvents``.
  func publish(_ state: PulseSystemState) {
    for input in takeChanges(to: state) { observedSink.yield(.input(input)) }
  }

  /// The inputs that take the engine to `state` (by default the current one), now considered
  /// told.
  func takeChanges(to state: PulseSystemState? = nil) -> [EngineInput] {
    deviceView.takeChanges(to: state ?? currentState())
  }

  private func satisfied(_ expectation: Expectation, _ state: PulseSystemState) -> Bool {
    expectation.isMet(by: state, restoredConnection: history.restored) { client in
      snapshot?.sinkInputs.contains { $0.clientIndex == client } != false
    }
  }

  /// Waits until the expectation holds, for at most `limit` (nil: the configured settle limit).
  func wait(for expectation: Expectation, limit: Duration? = nil) async throws(SessionError) {
    if satisfied(expectation, currentState()) { return }
    let limit = limit ?? configuration.settleLimit
    let failure = await withCheckedContinuation { continuation in
      let id = waits.add(continuation, for: expectation)
      Task { [weak self] in
        try? await TimerThread.sleep(for: limit)
        await self?.expire(id, after: limit)
      }
    }
    if let failure { throw failure }
  }

  private func expire(_ id: Int, after limit: Duration) {
    guard let (expectation, waiter) = waits.expire(id) else { return }
    waiter.resume(
      returning: SessionError(
        .unspecified,
        "the \(endpoint.name) did not show \(expectation) within \(limit)"
          + (link == nil ? "; the connection to it is lost" : "; \(describeCalls())")))
  }

  /// What the backend sees of calls, for a message: call-role streams and cork requests.
  package func describeCalls() -> String {
    let roles = configuration.policy.streams.callRoles
    let streams = (snapshot?.sinkInputs ?? []).filter { $0.role.map(roles.contains) == true }.map {
      "'\($0.name)' of client \($0.clientIndex.map(String.init) ?? "none")"
    }
    return "call-role streams: \(streams.isEmpty ? "none" : streams.joined(separator: ", "))"
      + "; streams held corked by module-role-cork: "
      + (calls.holds.isEmpty ? "none" : calls.holds.keys.sorted().joined(separator: ", "))
  }

  /// Fails the waiters that cannot be satisfied without a connection.
  func failWaitersOnLoss() {
    for (expectation, waiter) in waits.takeFailedByLoss() {
      waiter.resume(returning: lostError("wait for \(expectation)"))
    }
  }

  // MARK: Errors

  func lostError(_ what: String) -> SessionError {
    SessionError(
      .mediaServicesFailed,
      "Cannot \(what): the connection to the \(endpoint.name) is lost; the backend is reconnecting "
        + "and the engine keeps running on what it knew")
  }

  static func unknownPreset(_ name: String, _ catalog: DeviceCatalog) -> SessionError {
    SessionError(
      .badParam,
      "unknown device preset '\(name)'; valid presets are: "
        + catalog.presetOrder.joined(separator: ", "))
  }

  static func unreachable(_ error: PulseError, address: String?, server: String) -> SessionError {
    let target =
      address.map { "at \($0)" }
      ?? "libpulse looks for (neither PULSE_SERVER nor XDG_RUNTIME_DIR is set)"
    return SessionError(
      .mediaServicesFailed,
      "cannot connect to the \(server) \(target): \(error). Start one, point PULSE_SERVER at "
        + "one, or let sessionctl start a private server of its own (--spawn-server: "
        + "'sessionctl daemon --backend pulse --spawn-server', 'sessionctl scenario run FILE "
        + "--backend pulse --spawn-server')")
  }
}
