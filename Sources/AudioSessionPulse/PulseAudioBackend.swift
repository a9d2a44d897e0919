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
/// ``observedInputs``.
public actor PulseAudioBackend: AudioBackend {
  public nonisolated let name = "pulse"
  /// Inputs the backend observed on its own, in order (see ``AudioBackend/observedInputs``).
  /// Buffering is unbounded: dropping one would leave the engine out of step with the server.
  public nonisolated let observedInputs: AsyncStream<EngineInput>
  let observedSink: AsyncStream<EngineInput>.Continuation
  /// Other programs' streams (docs/apps.md "On the server"), in order; unbounded like
  /// ``observedInputs``.
  public nonisolated let observedStreams: AsyncStream<ServerStreamEvent>
  let streamSink: AsyncStream<ServerStreamEvent>.Continuation
  /// Other programs' streams as last reported, and the connection they were reported on.
  var reported: [ServerStream.Key: ServerStream] = [:]
  var reportedConnection = 0
  /// Which session each of them belongs to (the host's ``assign(_:)``) and what the backend
  /// changed on them: the model that decides what to do to them (docs/apps.md "The model of
  /// other programs' streams"); the backend applies its actions.
  var otherModel: OtherStreamsModel
  /// The level meters on streams whose silence counts as a pause (``updateSilenceMeters()``),
  /// and the streams silent for their limit, reported as corked.
  var silenceMeters: [ServerStream.Key: SilenceMeter] = [:]
  var silentStreams: Set<ServerStream.Key> = []
  /// Checks the meters' silence while any runs (``checkSilence()``).
  var silenceTicker: Task<Void, Never>?
  /// Which corks of other programs' playback streams are a start-up flap, held a moment
  /// (``holdsStartCork(_:corked:)``).
  var startCorks = StartCorkFilter()
  /// What the changes file lists (``PulseBackendConfiguration/changesFile``), to write it only
  /// when that changes; nil: not written yet.
  var journalEntries: [JournalEntry]?
  /// Writes the changes file off the engine's thread.
  let journalWriter: PulseJournalWriter
  /// The intent file beside the changes file, open for appending once the first mute or ducking
  /// is listed there; -1 while there is none (``appendIntent(_:)``).
  var intentFile: Int32 = -1
  /// Mutes the assigned streams on a sink as its removal is seen, on the loop thread.
  let unplugGuard = PulseUnplugGuard()
  /// What the server's stream database may hand a program's new stream because of the
  /// backend (a gone stream's mute or ducking, one undone lately), and the new streams watched
  /// for it.
  var inheritances = StreamInheritance()
  /// Sessions of other programs' streams whose interruption ended without shouldResume: as an
  /// iOS app stays paused, their streams stay muted until the session plays again.
  var heldAfterInterruption: Set<String> = []
  /// Repairs of the server's saved state for streams that went muted or ducked, by number
  /// (``streamWentChanged(_:of:)``): the stop waits for them.
  var repairs: [Int: Task<Void, Never>] = [:]
  var nextRepair = 0
  /// Other programs' streams whose mute or ducking was undone lately (``noteUndone``).
  var undoneLately: [ServerStream.Key: UndoneStream] = [:]
  /// The engine's last status.
  var lastStatus: EngineStatus?

  let configuration: PulseBackendConfiguration
  /// Marks the devices this backend simulates (`audiosession.owner`), so that backends sharing
  /// a server keep apart.
  let owner: String

  // Server.
  var spawned: (any PulseServerProcess)?
  var address: String?
  var cookieFile: String?
  var flavor = PulseSimulatedDevice.Flavor.pulseaudio
  var serverName = "PulseAudio server"
  /// What the last simulation did to a server the backend did not start
  /// (``takeSimulationNotes()``).
  var simulationNotes: [String] = []

  // Connection.
  var link: Link?
  var connection = 0
  /// The last connection that was fully restored (devices re-created, resynced).
  var restoredConnection = 0
  var reconnection: Task<Void, Never>?
  /// When the current connection was made, or the last one lost (`status`, issue 8 item 8).
  var connectionChanged = WallTime.now()
  /// Connection attempts made since the connection was last lost (reset by a loss).
  public internal(set) var reconnectionAttempts = 0
  var stopped = false

  // What the server shows, and what the engine was told.
  var catalog = DeviceCatalog(presets: [:], presetOrder: [], defaultDevices: [])
  var snapshot: PulseServerSnapshot?
  var assembled: [PulseDeviceAssembler.Assembled] = []
  var targets: [PulseDeviceAssembler.PortTarget: String] = [:]
  /// The server's placeholder output as last seen (``keepPlaceholder(_:)``).
  var placeholder: PulseDeviceAssembler.Assembled?
  var published = PulseSystemState()
  /// Whether the engine has a call ringing (its own: the server has no ring), as the last
  /// ``apply(_:status:)`` said.
  var engineCallRinging = false
  /// The user's moves of session streams seen since the engine was last told
  /// (``noticeMovedStreams``): `deviceChosen` for one session each.
  var movedByUser: [EngineInput] = []
  /// While positive, changes are kept for the running action instead of being published.
  var holding = 0
  var waiters: [Int: Waiter] = [:]
  var nextWaiter = 0

  // Simulation.
  var simulated: [SimulatedDevice] = []
  var plugCounts: [String: Int] = [:]
  var call: SimulatedCall?
  var micMuteWanted: Bool?

  // Sessions.
  /// What the sessions' own streams should be and what the backend last asked of them.
  var ownModel = OwnStreamsModel()
  /// The sessions' streams on the server, as the model's actions opened them.
  var sessions: [String: PulseSessionStreams] = [:]
  /// Another program's call, as the snapshots and module-role-cork's requests show it.
  var calls = PulseCallSignals()
  /// What went wrong applying decisions to streams (the engine's decisions stand regardless).
  public internal(set) var problems: [String] = []

  /// A live connection: the context, its monitor and our client index.
  struct Link {
    var context: PulseContext
    var monitor: PulseServerMonitor
    var clientIndex: UInt32?
    var server: PulseServerInfo?
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

  /// An action waiting for its effect to show on the server.
  struct Waiter {
    var expectation: Expectation
    var continuation: CheckedContinuation<SessionError?, Never>
  }

  /// What an action waits for.
  enum Expectation: CustomStringConvertible {
    case device(uid: String, present: Bool)
    case call(active: Bool)
    case micMuted(Bool)
    case volume(Double)
    case clientGone(UInt32)
    case connection(after: Int)

    var description: String {
      switch self {
      case .device(let uid, let present): "device \(uid) to be \(present ? "added" : "removed")"
      case .call(let active): "the call to \(active ? "begin" : "end")"
      case .micMuted(let on): "the microphone to be \(on ? "muted" : "unmuted")"
      case .volume(let volume): "the default sink's volume to be \(volume)"
      case .clientGone(let client): "the streams of client \(client) to end"
      case .connection: "the server to come back"
      }
    }
  }

  public init(configuration: PulseBackendConfiguration) {
    self.configuration = configuration
    journalWriter = PulseJournalWriter(logger: configuration.logger)
    let rules = configuration.policy.streams
    otherModel = OtherStreamsModel(
      systemDevices: configuration.devices == .system, duckVolume: { rules.ducked($0) })
    var generator = SystemRandomNumberGenerator()
    self.owner = String(generator.next() & 0xFFFF_FFFF, radix: 16)
    (observedInputs, observedSink) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
    (observedStreams, streamSink) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
  }

  /// The private server the backend started, if it started one.
  public var privateServer: (any PulseServerProcess)? { spawned }

  /// Returns once the server has carried out every request sent before the call
  /// (``apply(_:status:)`` does not wait for them), and everything that happened on it before
  /// has been taken in and, unless an action is running, passed on to ``observedInputs`` (a
  /// round trip to the server). Returns at once while the server is unreachable.
  public func synchronize() async {
    guard let link else { return }
    let number = connection
    if let settled = await link.monitor.settle() { received(settled, connection: number) }
  }

  /// The server's name (`pulseaudio`, `PulseAudio (on PipeWire 0.3.65)`), once connected.
  public var connectedServerName: String? { link?.server?.serverName }

  // MARK: AudioBackend

  public func start(
    catalog: DeviceCatalog, initialDevices: [String]
  ) async throws(SessionError) -> [Device] {
    self.catalog = catalog
    for name in initialDevices where catalog.presets[name] == nil {
      throw Self.unknownPreset(name, catalog)
    }
    try await startServer()
    // Nothing is published until the engine has the initial devices.
    holding += 1
    defer { holding -= 1 }
    do {
      try await establish()
    } catch {
      spawned?.stop()
      spawned = nil
      throw Self.unreachable(
        error, address: address ?? Self.environmentAddress(), server: serverName)
    }
    restoredConnection = connection
    if configuration.devices == .simulated || spawned != nil {
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
    published = initial
    movedByUser = []
    return published.devices
  }

  public func stop() async {
    guard !stopped else { return }
    stopped = true
    reconnection?.cancel()
    reconnection = nil
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
    if let path = configuration.changesFile, journalEntries?.isEmpty ?? true {
      removeIntents(path)
    }
    streamSink.finish()
    endCall()
    if let link {
      for device in simulated.reversed() {
        for module in device.modules.reversed() {
          try? await link.context.unloadModule(module)
        }
      }
      link.monitor.stop()
      link.context.disconnect()
    }
    link = nil
    simulated = []
    spawned?.stop()
    spawned = nil
    for waiter in waiters.values {
      waiter.continuation.resume(
        returning: SessionError(.mediaServicesFailed, "the PulseAudio backend stopped"))
    }
    waiters = [:]
    observedSink.finish()
  }

  // MARK: State

  /// The state the server shows now.
  func currentState() -> PulseSystemState {
    guard let link, snapshot != nil else {
      var lost = published
      lost.connected = false
      return lost
    }
    let micMuted = assembled.contains { entry in
      entry.device.ports.contains {
        $0.type == .builtInMic && $0.direction == .input && entry.mutedInputs.contains($0.uid)
      }
    }
    var defaults: [PortDirection: String] = [:]
    if configuration.devices == .system, let server = snapshot?.server {
      defaults[.output] = server.defaultSinkName.flatMap { deviceUID(of: $0, .output) }
      defaults[.input] = server.defaultSourceName.flatMap { deviceUID(of: $0, .input) }
    }
    return PulseSystemState(
      connected: true, connection: connection, devices: assembled.map(\.device),
      callActive: calls.callActive(callFacts(link)),
      builtInMicMuted: micMuted, defaults: defaults,
      outputVolume: defaultSink.flatMap { PulseSystemState.systemVolume($0.channelVolumes) })
  }

  /// The device behind a sink or source: for an object with several ports, the device of its
  /// active port, else the first device it serves; nil when it is none of the devices (ignored,
  /// or not tracked).
  func deviceUID(of object: String, _ direction: PortDirection) -> String? {
    let owners = assembled.filter { entry in
      entry.objects.contains { $0.key.direction == direction && $0.value == object }
    }
    let active = snapshot?.devices.first { $0.name == object && $0.direction == direction }
    let chosen =
      owners.first { $0.device.uid == active?.activePortName.map { "\(object):\($0)" } }
      ?? owners.first
    return chosen?.device.uid
  }

  /// Whether another client (than ours, and than `other`) plays a stream with a call role. The
  /// stream that repairs the server's memory of a gone call-role stream (it carries the role,
  /// corked, `audiosession.repair`) is no call; the simulated call's stream is one.
  func foreignCall(_ link: Link, besides other: UInt32? = nil) -> Bool {
    let roles = configuration.policy.streams.callRoles
    return snapshot?.sinkInputs.contains {
      $0.clientIndex != link.clientIndex && (other == nil || $0.clientIndex != other)
        && $0.properties[PulseSimulatedDevice.Key.repair] == nil
        && $0.role.map(roles.contains) == true
    } ?? false
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
    if let server = new.server { self.link?.server = server }
    resolveCorkHolds(link)
    let before = Set(assembled.map(\.device.uid))
    if devicesChanged { rebuildDevices() }
    if let previous, Set(assembled.map(\.device.uid)) == before {
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
    movedByUser += ownModel.moved(
      shownSinks(in: new), newDefault: newDefault,
      defaultChanged: previous.server?.defaultSinkName != newDefault,
      uid: { deviceUID(of: $0, .output) })
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
    if let snapshot {
      let assembler = PulseDeviceAssembler(
        rules: configuration.policy.ports, catalog: catalog,
        owner: configuration.devices == .simulated ? owner : nil)
      assembled = keepPlaceholder(assembler.assemble(snapshot.devices))
      targets = [:]
      for entry in assembled { targets.merge(entry.objects) { first, _ in first } }
    }
  }

  /// The placeholder output (WirePlumber's `auto_null`) stands for the built-in speaker of a
  /// machine without one. The server removes it when a real sink appears and makes it again
  /// when the last one goes; the built-in speaker it stands for stays present all the while, as
  /// on a machine with a speaker: plugging headphones is then one new device and unplugging them
  /// falls back to the speaker (and pauses). It is dropped once the server has a real built-in
  /// speaker. While the placeholder is absent, nothing carries its port: a stream routed there
  /// plays on the server's default sink.
  private func keepPlaceholder(
    _ devices: [PulseDeviceAssembler.Assembled]
  ) -> [PulseDeviceAssembler.Assembled] {
    let real = devices.contains { entry in
      !entry.isPlaceholder
        && entry.device.ports.contains { $0.type == .builtInSpeaker && $0.direction == .output }
    }
    if let present = devices.first(where: \.isPlaceholder) {
      placeholder = present
      return devices
    }
    guard !real, var kept = placeholder else {
      placeholder = nil
      return devices
    }
    kept.objects = [:]
    kept.mutedInputs = []
    return [kept] + devices
  }

  /// Wakes the actions whose effect has arrived and, unless an action is running, tells the
  /// engine what changed.
  func stateChanged() {
    let state = currentState()
    for (id, waiter) in waiters where satisfied(waiter.expectation, state) {
      waiters[id] = nil
      waiter.continuation.resume(returning: nil)
    }
    guard holding == 0 else { return }
    publish(state)
  }

  /// Sends the inputs that take the engine to `state` on ``observedInputs``.
  func publish(_ state: PulseSystemState) {
    for input in takeChanges(to: state) { observedSink.yield(input) }
  }

  /// The inputs that take the engine to `state` (by default the current one), now considered
  /// told.
  func takeChanges(to state: PulseSystemState? = nil) -> [EngineInput] {
    let (inputs, next) = PulseSystemState.transition(
      from: published, to: state ?? currentState())
    published = next
    let moved = movedByUser.filter { input in
      guard case .deviceChosen(let uid, _, _) = input else { return false }
      return next.devices.contains { $0.uid == uid }
    }
    movedByUser = []
    return inputs + moved
  }

  private func satisfied(_ expectation: Expectation, _ state: PulseSystemState) -> Bool {
    switch expectation {
    case .device(let uid, let present):
      state.connected && state.devices.contains { $0.uid == uid } == present
    case .call(let active): state.connected && state.callActive == active
    case .micMuted(let on): state.connected && state.builtInMicMuted == on
    case .volume(let volume):
      state.connected && state.outputVolume.map { abs($0 - volume) < 0.001 } == true
    case .clientGone(let client):
      state.connected && snapshot?.sinkInputs.contains { $0.clientIndex == client } == false
    case .connection(let after): state.connected && restoredConnection > after
    }
  }

  /// Waits until the expectation holds, for at most `limit` (nil: the configured settle limit).
  func wait(for expectation: Expectation, limit: Duration? = nil) async throws(SessionError) {
    if satisfied(expectation, currentState()) { return }
    nextWaiter += 1
    let id = nextWaiter
    let limit = limit ?? configuration.settleLimit
    let failure = await withCheckedContinuation { continuation in
      waiters[id] = Waiter(expectation: expectation, continuation: continuation)
      Task { [weak self] in
        try? await TimerThread.sleep(for: limit)
        await self?.expire(id, after: limit)
      }
    }
    if let failure { throw failure }
  }

  private func expire(_ id: Int, after limit: Duration) {
    guard let waiter = waiters.removeValue(forKey: id) else { return }
    waiter.continuation.resume(
      returning: SessionError(
        .unspecified,
        "the \(serverName) did not show \(waiter.expectation) within \(limit)"
          + (link == nil ? "; the connection to it is lost" : "; \(describeCalls())")))
  }

  /// What the backend sees of calls, for a message: call-role streams and cork requests.
  public func describeCalls() -> String {
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
    for (id, waiter) in waiters {
      if case .connection = waiter.expectation { continue }
      waiters[id] = nil
      waiter.continuation.resume(returning: lostError("wait for \(waiter.expectation)"))
    }
  }

  // MARK: Errors

  func lostError(_ what: String) -> SessionError {
    SessionError(
      .mediaServicesFailed,
      "Cannot \(what): the connection to the \(serverName) is lost; the backend is reconnecting "
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
