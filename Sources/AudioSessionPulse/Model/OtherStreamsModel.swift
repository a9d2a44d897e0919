import AudioSession

/// What the PulseAudio backend does to other programs' streams, as a value (docs/apps.md "On the
/// server", "The model of other programs' streams"): it holds what the backend changed on each
/// stream and the latest settled snapshot, takes the server's snapshots, the host's assignment
/// of streams to sessions and the engine's decision for each session, and answers with the
/// requests to send (``Action``). It does no I/O and reads no clock: the backend applies the
/// actions to the server, the journal and its logs, in the order given.
///
/// Its rules, which the property tests check over random orders of events:
/// - a stream is muted only while its own session's decision silences it (or just after the
///   server rescued it off a sink that went), and unmuted once that is no longer so, once;
/// - a stream is ducked only while its session is ducked and not silenced, and given back the
///   exact volumes it had, unless the user set others meanwhile, which are then kept;
/// - each mute and ducking is listed (``Action/appendIntent(_:)``) just before it is asked for;
/// - a stream is moved only when its session's route changes, and never to the device the
///   latest snapshot shows it on;
/// - a user's move, and the device a stream is first seen on when it is not its route's, is the
///   session's chosen output (``Action/deviceChosen(session:uid:key:sink:firstSeen:)``).
struct OtherStreamsModel: Sendable {
  /// How a stream that went while ducked or muted was left, and what it had before.
  struct LeftBehind: Sendable, Equatable {
    var muted: Bool
    var ducked: [PulseVolume]? = nil
    var original: [PulseVolume]? = nil
  }

  /// What the backend changed on another program's stream, to undo it exactly. Changed before
  /// the action that asks for it is returned, so that a restore that runs meanwhile (the
  /// backend stops) undoes it: requests on one connection are carried out in order.
  struct StreamState: Sendable, Equatable {
    var mutedByUs = false
    var savedVolumes: [PulseVolume]?
    /// The last decision about ducking, checked again after the volumes were read.
    var wantsDucked = false
    /// The sink or source of the session's route when the model last looked: the stream is
    /// moved only when that changes (a route change), never because the program or the user
    /// put it elsewhere.
    var routeDevice: String??
    /// The channel volumes the server last showed for the stream (playback streams).
    var lastVolumes: [PulseVolume]?
    /// Its entry in the server's stream database (``PulseStreamRestoreEntry/name(of:direction:)``).
    var restoreName: String?
  }

  /// Sessions whose interruption ended without shouldResume: as an iOS app stays paused, their
  /// streams stay muted until the session plays again.
  private(set) var heldAfterInterruption: Set<String> = []

  /// Takes the engine's notifications: an interruption that ended without shouldResume holds
  /// its session (``heldAfterInterruption``).
  mutating func take(_ notifications: [SessionNotification]) {
    for notification in notifications {
      if case .interruptionEnded(let options, _) = notification.event,
        !options.contains(.shouldResume)
      {
        heldAfterInterruption.insert(notification.session)
      }
    }
  }

  /// What the engine decided about each session, as its other programs' streams follow it:
  /// held while paused by the system (`pausedBySystem`) or after an interruption that ended
  /// without shouldResume, until it plays again; the sink and source of its route's first ports
  /// (`object`: the sink or source the server has for a port, nil when none).
  mutating func decisions(
    _ sessions: [SessionStatus], pausedBySystem: Set<String>,
    object: (String, PortDirection) -> String?
  ) -> [String: Decision] {
    let playing = Dictionary(
      sessions.map { ($0.name, $0.playing) }, uniquingKeysWith: { first, _ in first })
    heldAfterInterruption = heldAfterInterruption.filter { playing[$0] == false }
    var decisions: [String: Decision] = [:]
    for session in sessions where decisions[session.name] == nil {
      decisions[session.name] = Decision(
        muted: session.muted, outputMuted: session.outputMuted, inputMuted: session.inputMuted,
        interrupted: session.interrupted, playing: session.playing,
        held: pausedBySystem.contains(session.name)
          || heldAfterInterruption.contains(session.name),
        ducked: session.ducked,
        sink: session.route.outputs.first.flatMap { object($0.uid, .output) },
        source: session.route.inputs.first.flatMap { object($0.uid, .input) })
    }
    return decisions
  }

  /// The engine's decision about a session, as far as its streams on the server follow it.
  struct Decision: Sendable, Equatable {
    /// The session is muted.
    var muted = false
    /// The session's app muted its output (`setOutputMuted(_:)`, iOS 26): its playback streams
    /// are muted, its recording streams are not.
    var outputMuted = false
    /// The session's app muted its input (`AVAudioApplication.setInputMuted(_:)`): its
    /// recording streams are muted, its playback streams are not.
    var inputMuted = false
    /// The session is interrupted.
    var interrupted = false
    /// The session plays.
    var playing = true
    /// The system paused it (a headphone pause), or its interruption ended without
    /// shouldResume, and it has not played since.
    var held = false
    /// The session is ducked.
    var ducked = false
    /// The sink of the session's route (its first output), when the server has one.
    var sink: String?
    /// The source of the session's route (its first input), when the server has one.
    var source: String?

    /// Whether the session's streams are silenced: muted, or held (interrupted, paused by the
    /// system, ended without shouldResume) while it does not play.
    var silenced: Bool { muted || (!playing && (interrupted || held)) }

    /// Whether the session's streams of `direction` are silenced: as ``silenced`` says, its
    /// playback streams also while its app muted its output, its recording streams while its
    /// app muted its input.
    func silences(_ direction: ServerStream.Direction) -> Bool {
      silenced || (direction == .playback ? outputMuted : inputMuted)
    }

    /// The device of the session's route for a stream of `direction`.
    func device(for direction: ServerStream.Direction) -> String? {
      direction == .playback ? sink : source
    }
  }

  /// A request the backend sends, or a note it keeps, for the model.
  enum Action: Sendable, Equatable {
    /// List the stream in the intent file (the state it has now), before its mute or ducking.
    case appendIntent(ServerStream.Key)
    /// Mute the stream.
    case mute(ServerStream.Key)
    /// Unmute the stream.
    case unmute(ServerStream.Key)
    /// Set the stream's channel volumes: the ducked ones (`ducking`), or those to restore.
    case setVolumes(ServerStream.Key, [PulseVolume], ducking: Bool)
    /// Read the stream's channel volumes from the server and hand them to
    /// ``OtherStreamsModel/duck(_:read:)``.
    case readVolumes(ServerStream.Key)
    /// Move the stream to the sink (source) named `device`.
    case move(ServerStream.Key, device: String)
    /// Tell the engine `deviceChosen` for the session: the user moved the stream to `sink`, or
    /// it was first seen there (`firstSeen`).
    case deviceChosen(
      session: String, uid: String, key: ServerStream.Key, sink: String, firstSeen: Bool)
    /// A mute or ducking of a stream of the stream-database entry `entry` was just undone.
    case undone(LeftBehind, entry: String)
    /// The ducking ended and the stream keeps the volumes the user set meanwhile (nothing sent).
    case userVolumesKept(ServerStream.Key, [PulseVolume])
  }

  /// What the model changed on each stream.
  private(set) var states: [ServerStream.Key: StreamState] = [:]
  /// Which session each stream belongs to (the host's assignment).
  private(set) var assignment = StreamAssignment()
  /// The latest settled snapshot the model took in.
  private(set) var snapshot: PulseServerSnapshot?
  /// The sink each playback stream of the snapshot was last seen on, by stream index.
  private(set) var lastSinks: [UInt32: UInt32] = [:]
  /// The playback streams the latest snapshot shows on a sink for the first time, having shown
  /// them on none before (pipewire-pulse 1.4 shows a new stream so until it is linked): where
  /// such a stream is linked is where it was first seen.
  private(set) var firstLinked: Set<UInt32> = []
  /// The assigned playback streams that were on no sink when first routed (pipewire-pulse shows
  /// a native stream so until WirePlumber links it): where they are linked is where they were
  /// first seen (``adoptLinked(uid:into:)``).
  private(set) var unlinkedFirst: Set<ServerStream.Key> = []
  /// The streams whose first sink was adopted from the latest snapshot (not a user's move).
  private(set) var adoptedNow: Set<UInt32> = []
  /// Whether the backend uses the system's devices (a user's move or a first sink is a choice
  /// only then).
  let systemDevices: Bool
  /// Lowers one channel's volume by the policy's decibels.
  let duckVolume: @Sendable (PulseVolume) -> PulseVolume

  init(systemDevices: Bool, duckVolume: @escaping @Sendable (PulseVolume) -> PulseVolume) {
    self.systemDevices = systemDevices
    self.duckVolume = duckVolume
  }

  /// The volumes a stream is given when ducked.
  func duckedVolumes(_ volumes: [PulseVolume]) -> [PulseVolume] { volumes.map(duckVolume) }

  /// What a stream the model changed would leave its entry in the server's stream database
  /// with: its mute, its ducked volumes, and the volumes before the ducking.
  func leftBehind(_ state: StreamState) -> LeftBehind {
    LeftBehind(
      muted: state.mutedByUs, ducked: state.savedVolumes.map(duckedVolumes),
      original: state.savedVolumes)
  }

  /// What the living streams of `entry` besides `key` that the model muted or ducked would hand
  /// a new stream of the entry (``StreamInheritance``), in stream order.
  func leftBehind(byStreamsOf entry: String, besides key: ServerStream.Key) -> [LeftBehind] {
    states.filter { other, state in
      other != key && state.restoreName == entry && (state.mutedByUs || state.savedVolumes != nil)
    }
    .sorted(by: { $0.key < $1.key })
    .map { leftBehind($0.value) }
  }

  // MARK: Snapshots

  /// Takes in a settled snapshot (kept, not copied: the backend holds the same one).
  mutating func see(_ new: PulseServerSnapshot) {
    let shownBefore = Set(snapshot?.sinkInputs.map(\.index) ?? [])
    snapshot = new
    // The sink each playback stream was last seen on (WirePlumber's cork unlinks a stream: it
    // then shows on no sink).
    let sinks = Set(new.devices.filter { $0.direction == .output }.map(\.index))
    var seen: [UInt32: UInt32] = [:]
    firstLinked = []
    adoptedNow = []
    for input in new.sinkInputs {
      let linked = sinks.contains(input.sinkIndex)
      if linked, lastSinks[input.index] == nil, shownBefore.contains(input.index) {
        firstLinked.insert(input.index)
      }
      seen[input.index] = linked ? input.sinkIndex : lastSinks[input.index]
    }
    lastSinks = seen
  }

  /// Notes what the latest snapshot shows of the streams the model changed: each playback
  /// stream's volumes, and each stream's entry in the stream database, looked up once from its
  /// properties (`streams`: the other programs' streams in it, by key).
  mutating func noteShown(_ streams: [ServerStream.Key: ServerStream]) {
    guard !states.isEmpty, let snapshot else { return }
    for input in snapshot.sinkInputs {
      states[.init(.playback, input.index)]?.lastVolumes = input.channelVolumes
    }
    for (key, state) in states where state.restoreName == nil {
      guard let stream = streams[key] else { continue }
      states[key]?.restoreName = PulseStreamRestoreEntry.name(
        of: stream.properties, direction: key.direction)
    }
  }

  /// Forgets a stream that is gone (or whose index another client's stream has now), returning
  /// what the model had changed on it.
  mutating func forget(_ key: ServerStream.Key) -> StreamState? {
    followedRoleActions[key] = nil
    unlinkedFirst.remove(key)
    return states.removeValue(forKey: key)
  }

  /// Forgets every stream (a new connection: the old indices mean nothing).
  mutating func forgetAll() {
    states = [:]
    followedRoleActions = [:]
    unlinkedFirst = []
  }

  /// Another program's stream that the server moved off a sink that is gone (its device was
  /// unplugged) is muted at once, before the engine has decided anything: the server moves such
  /// streams to the fallback before it even announces the removal. Only assigned streams.
  mutating func silenceRescued(
    from previous: PulseServerSnapshot, to new: PulseServerSnapshot, into actions: inout [Action]
  ) {
    guard !assignment.sessions.isEmpty else { return }
    let sinks = Set(new.devices.filter { $0.direction == .output }.map(\.index))
    let sinksBefore = Set(previous.devices.filter { $0.direction == .output }.map(\.index))
    let before = Dictionary(
      previous.sinkInputs.map { ($0.index, $0.sinkIndex) }, uniquingKeysWith: { a, _ in a })
    for input in new.sinkInputs {
      let key = ServerStream.Key(.playback, input.index)
      guard assignment.sessions[key] != nil, let old = before[input.index] else { continue }
      // Moved off a sink that went; or on a loopback sink (a WirePlumber role sink) whose
      // device went, which its owner links to another device in a moment. A stream that was on
      // no sink (pipewire-pulse 1.4 shows a new stream so until it is linked, and a stream
      // WirePlumber's role policy corks so while it is unlinked) was rescued from nothing.
      let rescued = old != input.sinkIndex && sinksBefore.contains(old) && !sinks.contains(old)
      let heardOn = previous.audibleSink(old)?.index
      guard rescued || heardOn.map({ !sinks.contains($0) }) == true else { continue }
      setMuted(key, true, into: &actions)
    }
  }

  /// A stream the user moved to another sink (a mixer, `pactl move-sink-input`), in a burst
  /// where no device came or went (the caller checks) and the default stayed, is the user's
  /// choice of output for its session; a move the model asked for (its route's device) is not.
  /// One choice per session; `uid` names the device of a sink.
  func movedByUser(
    from previous: PulseServerSnapshot, to new: PulseServerSnapshot,
    uid: (String) -> String?, into actions: inout [Action]
  ) {
    guard systemDevices, !assignment.sessions.isEmpty,
      previous.server?.defaultSinkName == new.server?.defaultSinkName
    else { return }
    let before = Dictionary(
      previous.sinkInputs.map { ($0.index, $0.sinkIndex) }, uniquingKeysWith: { a, _ in a })
    let sinksBefore = Set(previous.devices.filter { $0.direction == .output }.map(\.index))
    var chosen: Set<String> = []
    for input in new.sinkInputs {
      let key = ServerStream.Key(.playback, input.index)
      // A stream that was on no sink was linked, not moved: for the first time (where it is
      // linked is where it was first seen, as ``adoptFirstSink`` takes it), or again after a
      // role policy's cork (nothing chosen).
      let linkedFirst = firstLinked.contains(input.index)
      guard !adoptedNow.contains(input.index), let name = assignment.sessions[key],
        !chosen.contains(name),
        let old = before[input.index], old != input.sinkIndex,
        sinksBefore.contains(old) || linkedFirst,
        let sink = new.audibleSink(input.sinkIndex)?.name,
        states[key]?.routeDevice != .some(sink),
        let device = uid(sink)
      else { continue }
      chosen.insert(name)
      actions.append(
        .deviceChosen(
          session: name, uid: device, key: key, sink: sink,
          firstSeen: !sinksBefore.contains(old)))
    }
  }

  // MARK: Decisions

  /// Takes the host's assignment; the streams it no longer lists are given back what they had.
  mutating func assign(_ new: StreamAssignment, into actions: inout [Action]) {
    let dropped = Set(assignment.sessions.keys).subtracting(new.sessions.keys)
    assignment = new
    for key in dropped.sorted() { restore(key, into: &actions) }
  }

  /// Makes one assigned stream follow its session's decision (nil: the session is gone, and the
  /// stream is given back what it had): muted while silenced, moved when the route changes,
  /// ducked (playback) while ducked and not silenced. A ducking ends with
  /// ``Action/readVolumes(_:)``: the backend reads the volumes and calls ``duck(_:read:)``.
  mutating func follow(
    _ key: ServerStream.Key, _ decision: Decision?, uid: (String) -> String?,
    into actions: inout [Action]
  ) {
    guard let decision else {
      restore(key, into: &actions)
      return
    }
    let silenced = decision.silences(key.direction)
    // What WirePlumber's role policy already does to the stream (ducks it, or corks it for a
    // louder role) is left to it: acting twice would silence a stream that either policy alone
    // ducks (docs/apps.md "Beside WirePlumber's role policy").
    let roleAction = key.direction == .playback ? rolePolicyAction(on: key) : .mix
    followedRoleActions[key] = roleAction == .mix ? nil : roleAction
    let byRolePolicy = roleAction != .mix
    setMuted(key, silenced && !(byRolePolicy && decision.interrupted), into: &actions)
    route(key, to: decision.device(for: key.direction), uid: uid, into: &actions)
    // Ducking lowers what is heard; a recording is not ducked.
    if key.direction == .playback {
      setDucked(key, decision.ducked && !silenced && !byRolePolicy, into: &actions)
    }
  }

  /// Mutes or unmutes a stream, remembering what to undo.
  private mutating func setMuted(
    _ key: ServerStream.Key, _ muted: Bool, into actions: inout [Action]
  ) {
    var state = states[key] ?? StreamState()
    guard state.mutedByUs != muted else { return }
    state.mutedByUs = muted
    states[key] = state
    if muted {
      // Listed before it is sent: a daemon killed at any moment leaves nothing muted for good.
      actions.append(.appendIntent(key))
      actions.append(.mute(key))
    } else {
      if let name = state.restoreName {
        actions.append(.undone(LeftBehind(muted: true), entry: name))
      }
      actions.append(.unmute(key))
    }
  }

  /// Moves a stream to the device of its session's route when that route changes, unless the
  /// latest snapshot shows it there already (a move sent late would undo one the user made
  /// meanwhile). Where the stream was first seen is the program's own choice and is kept.
  private mutating func route(
    _ key: ServerStream.Key, to device: String?, uid: (String) -> String?,
    into actions: inout [Action]
  ) {
    var state = states[key] ?? StreamState()
    let previous = state.routeDevice
    state.routeDevice = .some(device)
    states[key] = state
    if previous == nil { adoptFirstSink(key, routeDevice: device, uid: uid, into: &actions) }
    // A stream on a loopback sink (a WirePlumber role sink) is routed by the loopback's owner,
    // and so is one on no sink: WirePlumber links it (its role policy corked it, and a daemon
    // started meanwhile never saw on which role sink it was; moved, it left the role policy and
    // was heard beside the call that had corked it, docs/apps.md "On the server").
    guard case .some(let before) = previous, before != device, let device,
      self.device(of: key) != device, !isOnLoopback(key), !isUnlinked(key)
    else { return }
    actions.append(.move(key, device: device))
  }

  /// Where a program's playback stream is first seen is its own choice, kept; when that is not
  /// the device of its session's route, it is the session's chosen output, so that the route
  /// the session shows, and what an unplug does, follow where the audio plays.
  private mutating func adoptFirstSink(
    _ key: ServerStream.Key, routeDevice: String?, uid: (String) -> String?,
    into actions: inout [Action]
  ) {
    guard key.direction == .playback, systemDevices,
      let session = assignment.sessions[key], let snapshot,
      let input = snapshot.sinkInputs.first(where: { $0.index == key.index })
    else { return }
    guard let sink = snapshot.audibleSink(input.sinkIndex)?.name else {
      // On no sink yet, never linked (not unlinked by a role policy's cork): adopted once
      // linked.
      if lastSinks[key.index] == nil { unlinkedFirst.insert(key) }
      return
    }
    guard sink != routeDevice, let device = uid(sink) else { return }
    actions.append(
      .deviceChosen(session: session, uid: device, key: key, sink: sink, firstSeen: true))
  }

  /// Adopts the first sink of the streams that were on none when first routed, once the latest
  /// snapshot shows them linked (``adoptFirstSink``), whatever else the burst changed: on
  /// PipeWire with WirePlumber's role policy a native stream is routed before it is linked, and
  /// a burst in which a device's state changed was no user's move, so such a stream on the
  /// headphones was taken for one on the speaker and an unplug of the headphones paused nothing.
  mutating func adoptLinked(uid: (String) -> String?, into actions: inout [Action]) {
    guard !unlinkedFirst.isEmpty, let snapshot else { return }
    for key in unlinkedFirst.sorted() {
      guard assignment.sessions[key] != nil,
        case .some(let routeDevice)? = states[key]?.routeDevice,
        let input = snapshot.sinkInputs.first(where: { $0.index == key.index })
      else {
        unlinkedFirst.remove(key)
        continue
      }
      guard snapshot.audibleSink(input.sinkIndex) != nil else { continue }
      unlinkedFirst.remove(key)
      adoptedNow.insert(key.index)
      adoptFirstSink(key, routeDevice: routeDevice, uid: uid, into: &actions)
    }
  }

  /// What WirePlumber's role policy did to each assigned playback stream when the model last
  /// followed the decisions, by stream.
  private(set) var followedRoleActions: [ServerStream.Key: PulseRolePolicy.Action] = [:]

  /// Whether what WirePlumber's role policy does to an assigned playback stream changed since
  /// the model last followed the decisions (a prompt's stream reached its role sink, a call's
  /// stream corked): the decisions are then followed again, so that the model stops doing, or
  /// starts doing, what the role policy does not.
  func rolePolicyChanged() -> Bool {
    guard snapshot?.devices.contains(where: { $0.rolePolicy != nil }) == true else { return false }
    for key in assignment.sessions.keys where key.direction == .playback {
      if rolePolicyAction(on: key) != followedRoleActions[key, default: .mix] { return true }
    }
    return false
  }

  /// What WirePlumber's role policy does now to a playback stream (`mix`: nothing).
  func rolePolicyAction(on key: ServerStream.Key) -> PulseRolePolicy.Action {
    snapshot?.rolePolicyAction(on: key.index, lastSink: lastSinks[key.index]) ?? .mix
  }

  /// Whether the latest snapshot shows a playback stream on a loopback sink.
  func isOnLoopback(_ key: ServerStream.Key) -> Bool {
    guard key.direction == .playback, let snapshot,
      let input = snapshot.sinkInputs.first(where: { $0.index == key.index })
    else { return false }
    let sinks = snapshot.devices.filter { $0.direction == .output }
    let sink =
      sinks.first { $0.index == input.sinkIndex }
      ?? lastSinks[key.index].flatMap { last in sinks.first { $0.index == last } }
    return sink?.isLoopbackSink == true
  }

  /// Whether the latest snapshot shows a playback stream on no sink (pipewire-pulse shows a
  /// stream so until WirePlumber links it, and while its role policy corks it).
  func isUnlinked(_ key: ServerStream.Key) -> Bool {
    guard key.direction == .playback, let snapshot,
      let input = snapshot.sinkInputs.first(where: { $0.index == key.index })
    else { return false }
    return !snapshot.devices.contains { $0.direction == .output && $0.index == input.sinkIndex }
  }

  /// The sink (source) the latest snapshot shows a stream heard on (through a loopback sink,
  /// the sink behind it).
  func device(of key: ServerStream.Key) -> String? {
    guard let snapshot else { return nil }
    switch key.direction {
    case .playback:
      guard let input = snapshot.sinkInputs.first(where: { $0.index == key.index }) else {
        return nil
      }
      return snapshot.audibleSink(input.sinkIndex)?.name
    case .record:
      guard let output = snapshot.sourceOutputs.first(where: { $0.index == key.index }) else {
        return nil
      }
      return snapshot.devices.first { $0.direction == .input && $0.index == output.sourceIndex }?
        .name
    }
  }

  /// Ducks a playback stream (its volumes are read first), or gives it back exactly the volumes
  /// it had, unless the user set others while it was ducked.
  private mutating func setDucked(
    _ key: ServerStream.Key, _ ducked: Bool, into actions: inout [Action]
  ) {
    var state = states[key] ?? StreamState()
    state.wantsDucked = ducked
    if !ducked, let saved = state.savedVolumes {
      state.savedVolumes = nil
      states[key] = state
      if let name = state.restoreName {
        actions.append(
          .undone(
            LeftBehind(muted: false, ducked: duckedVolumes(saved), original: saved), entry: name))
      }
      if let chosen = userVolumes(saved, state) {
        actions.append(.userVolumesKept(key, chosen))
      } else {
        actions.append(.setVolumes(key, saved, ducking: false))
      }
      return
    }
    states[key] = state
    guard ducked, state.savedVolumes == nil else { return }
    actions.append(.readVolumes(key))
  }

  /// Ducks a stream whose volumes were read (``Action/readVolumes(_:)``), if the latest decision
  /// still ducks it and it is not ducked yet (it was decided again while they were read). The
  /// volumes read are the latest the server showed.
  mutating func duck(
    _ key: ServerStream.Key, read volumes: [PulseVolume], into actions: inout [Action]
  ) {
    guard var latest = states[key], latest.wantsDucked, latest.savedVolumes == nil else { return }
    latest.savedVolumes = volumes
    // What the server shows now: volumes of an older snapshot would pass for the user's choice
    // when the ducking ends before the next snapshot, and the stream would stay ducked.
    latest.lastVolumes = volumes
    states[key] = latest
    actions.append(.appendIntent(key))
    actions.append(.setVolumes(key, duckedVolumes(volumes), ducking: true))
  }

  /// The volumes the user gave a stream while it was ducked (a mixer, `pactl
  /// set-sink-input-volume`): the latest snapshot shows neither the ducked volumes nor those of
  /// before. They are the user's choice and stay when the ducking ends.
  func userVolumes(_ saved: [PulseVolume], _ state: StreamState) -> [PulseVolume]? {
    guard let shown = state.lastVolumes, shown != saved, shown != duckedVolumes(saved) else {
      return nil
    }
    return shown
  }

  /// The volumes a stream had before it was ducked become `original` (it had inherited the
  /// ducked ones of another stream of its entry); it is given their ducked form.
  mutating func replaceSaved(
    _ key: ServerStream.Key, with original: [PulseVolume], into actions: inout [Action]
  ) {
    guard states[key] != nil else { return }
    states[key]?.savedVolumes = original
    actions.append(.setVolumes(key, duckedVolumes(original), ducking: true))
  }

  // MARK: Restoring

  /// Undoes what the model did to a stream (its session or its assignment is gone, or the
  /// backend stops), and forgets it.
  mutating func restore(_ key: ServerStream.Key, into actions: inout [Action]) {
    guard let state = states.removeValue(forKey: key) else { return }
    if state.mutedByUs { actions.append(.unmute(key)) }
    if let saved = state.savedVolumes, userVolumes(saved, state) == nil {
      actions.append(.setVolumes(key, saved, ducking: false))
    }
  }

  /// Undoes everything, stream by stream in key order.
  mutating func restoreAll(into actions: inout [Action]) {
    for key in states.keys.sorted() { restore(key, into: &actions) }
  }
}
