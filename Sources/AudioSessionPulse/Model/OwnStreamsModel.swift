import AudioSession

/// The sessions' own streams on the server, as a value (docs/pulseaudio-layer.md "Our own
/// streams"): the engine's status in, what to do to the streams out. It does no I/O; the
/// backend opens, closes, corks and moves the real streams as the actions say and tells the
/// model how an open went.
///
/// | engine says | the session's streams |
/// |---|---|
/// | playing | exist, uncorked, on the sink (and source) of the session's route |
/// | interrupted, or paused by the system | corked (kept, so that they resume where they were) |
/// | neither playing nor held | gone |
/// | its audio is other programs' streams (``Rules/followedElsewhere``) | gone: those follow it |
/// | ducked or muted | unchanged: they are silent, and the server's stream database, keyed by `media.role`, would hand a lowered volume or a mute to the next program with that role (docs/apps.md "Our own streams never leak") |
///
/// A stream's `media.role` comes from the session's category and mode; a session that plays
/// with another role gets new streams, and so does one whose pinned streams (not movable) are
/// elsewhere than its route or that the server killed.
struct OwnStreamsModel: Sendable, Equatable {
  /// A session's streams: what the backend opened and last asked of them.
  struct Streams: Sendable, Equatable {
    var role: String
    /// Whether they may be moved (else they were opened pinned).
    var movable: Bool
    var playback: Bool
    var record: Bool
    /// The sink and source they play to and record from.
    var sink: String?
    var source: String?
    var corked = false
    /// False once the server killed one of them (its pinned device went).
    var alive = true
  }

  /// Streams to open for a session.
  struct Opening: Sendable, Equatable {
    var session: String
    var role: String
    var sink: String?
    var source: String?
    var playback: Bool
    var record: Bool
    var movable: Bool
    /// The buffer target, in microseconds (``bufferLatency(_:)``).
    var latency: UInt64
  }

  /// What the backend does on the server.
  enum Action: Sendable, Equatable {
    /// Disconnect the session's streams.
    case close(session: String)
    /// Open them, then report with ``opened(_:_:)``.
    case open(Opening)
    case cork(session: String, Bool)
    case moveSink(session: String, to: String)
    case moveSource(session: String, to: String)
  }

  /// What the model needs to know of the backend's configuration and devices.
  struct Rules {
    /// The `media.role` of a session's streams.
    var role: (SessionConfiguration) -> String
    /// The sink or source behind a route's port (nil: none known).
    var target: (PortDescription?, PortDirection) -> String?
    /// Sessions whose audio is other programs' real streams (an app's, a `sessionctl run`'s,
    /// a library client's own): they need no stream of ours.
    var followedElsewhere: Set<String>
    /// Whether new streams may be moved (`policies/pulse.json` `streams.movable`).
    var movable: Bool
  }

  private(set) var streams: [String: Streams] = [:]
  /// Sessions whose streams are being opened: an open awaits the server, and a second must not
  /// start meanwhile.
  private(set) var opening: Set<String> = []
  /// Sessions the system paused (a `pause` notification: a route went) until they play again or
  /// are deactivated: their streams stay, corked.
  private(set) var pausedBySystem: Set<String> = []

  /// The engine's decisions: its notifications and the status after them. Returns what to do,
  /// in order: the closes of sessions that went, then for each session of the status in turn,
  /// its close, open, cork and moves. The backend takes the same steps one at a time
  /// (``take(_:sessions:)``, then ``follow(_:rules:)`` for each session just before it carries
  /// out that session's actions), as an open awaits the server and the state may change
  /// meanwhile.
  mutating func apply(
    _ notifications: [SessionNotification], status: EngineStatus, rules: Rules
  ) -> [Action] {
    var actions = take(notifications, sessions: status.sessions.map(\.name))
    for session in status.sessions {
      actions += follow(session, rules: rules)
    }
    return actions
  }

  /// Takes in the engine's notifications (a `pause` holds the session's streams) and the
  /// sessions that exist: the streams of the others are closed.
  mutating func take(_ notifications: [SessionNotification], sessions: [String]) -> [Action] {
    for notification in notifications {
      if case .pause = notification.event { pausedBySystem.insert(notification.session) }
    }
    let alive = Set(sessions)
    pausedBySystem.formIntersection(alive)
    return streams.keys.sorted().filter { !alive.contains($0) }.map { close($0) }
  }

  /// What to do to one session's streams for its state.
  mutating func follow(_ session: SessionStatus, rules: Rules) -> [Action] {
    let name = session.name
    if session.playing || !session.active { pausedBySystem.remove(name) }
    if rules.followedElsewhere.contains(name) {
      return streams[name] == nil ? [] : [close(name)]
    }
    let held = !session.playing && (session.interrupted || pausedBySystem.contains(name))
    guard var current = streams[name] else {
      guard session.playing, !opening.contains(name) else { return [] }
      return [open(session, rules: rules)]
    }
    if !session.playing && !held { return [close(name)] }
    // New streams: another role while playing, killed, or pinned elsewhere than the route.
    let pinnedElsewhere =
      !current.movable && current.isElsewhere(than: session.route, target: rules.target)
    if (current.role != rules.role(session.configuration) && session.playing) || !current.alive
      || pinnedElsewhere
    {
      var actions = [close(name)]
      if session.playing, !opening.contains(name) { actions.append(open(session, rules: rules)) }
      return actions
    }
    var actions: [Action] = []
    if current.corked != held {
      current.corked = held
      actions.append(.cork(session: name, held))
    }
    if current.playback, let sink = rules.target(session.route.outputs.first, .output),
      sink != current.sink
    {
      current.sink = sink
      actions.append(.moveSink(session: name, to: sink))
    }
    if current.record, let source = rules.target(session.route.inputs.first, .input),
      source != current.source
    {
      current.source = source
      actions.append(.moveSource(session: name, to: source))
    }
    streams[name] = current
    return actions
  }

  private mutating func close(_ name: String) -> Action {
    streams[name] = nil
    return .close(session: name)
  }

  private mutating func open(_ session: SessionStatus, rules: Rules) -> Action {
    opening.insert(session.name)
    let record = !session.route.inputs.isEmpty
    return .open(
      Opening(
        session: session.name, role: rules.role(session.configuration),
        sink: rules.target(session.route.outputs.first, .output),
        source: rules.target(session.route.inputs.first, .input),
        playback: !session.route.outputs.isEmpty || !record, record: record,
        movable: rules.movable, latency: Self.bufferLatency(session)))
  }

  /// The buffer target of a session's streams, in microseconds: the buffer duration it was
  /// granted (its preference, clamped), else ``PulseStream/defaultLatency``.
  static func bufferLatency(_ session: SessionStatus) -> UInt64 {
    guard session.preferences.ioBufferDuration != nil, session.active else {
      return PulseStream.defaultLatency
    }
    return UInt64((session.hardware.ioBufferDuration * 1_000_000).rounded())
  }

  /// An open the model asked for is done: the streams are on the server, or (false) they could
  /// not be opened.
  mutating func opened(_ opening: Opening, _ succeeded: Bool) {
    self.opening.remove(opening.session)
    guard succeeded else { return }
    streams[opening.session] = Streams(
      role: opening.role, movable: opening.movable, playback: opening.playback,
      record: opening.record, sink: opening.sink, source: opening.source)
  }

  /// The server killed one of the session's streams: both are closed; the next decision opens
  /// new ones on its route if it still plays.
  mutating func killed(_ session: String) -> [Action] {
    guard streams[session] != nil else { return [] }
    return [close(session)]
  }

  /// The connection went, and every stream with it (the engine's state says what to open again
  /// once it is back).
  mutating func connectionLost() {
    streams = [:]
  }

  /// One of the session's streams is dead on the server (failed or terminated) before its kill
  /// was reported: the next decision replaces them.
  mutating func died(_ session: String) {
    streams[session]?.alive = false
  }

  /// Where the server shows the sessions' playback streams, by session (only those whose last
  /// open or move it has taken in), after a device came or went: the server moved them (rescued
  /// from a sink that went, or following a new default). They are taken as they are.
  mutating func adopt(_ shown: [String: String]) {
    for (session, sink) in shown { streams[session]?.sink = sink }
  }

  /// The same in a burst where no device came or went: a stream found on another sink than the
  /// backend put it on was moved by the user (`pactl move-sink-input`, a mixer), and that device
  /// becomes the session's chosen output (`deviceChosen` for that session). A stream that
  /// followed a new default sink (`newDefault`, when `defaultChanged`) is covered by the
  /// default's choice; a stream whose sink was not known yet is only adopted. `uid` names the
  /// device of a sink.
  mutating func moved(
    _ shown: [String: String], newDefault: String?, defaultChanged: Bool,
    uid: (String) -> String?
  ) -> [EngineInput] {
    var chosen: [EngineInput] = []
    for (session, sink) in shown.sorted(by: { $0.key < $1.key }) {
      guard let current = streams[session], current.sink != sink else { continue }
      streams[session]?.sink = sink
      guard current.sink != nil, !(defaultChanged && sink == newDefault), let device = uid(sink)
      else { continue }
      chosen.append(.deviceChosen(uid: device, direction: .output, session: session))
    }
    return chosen
  }

  /// Whether one of the sessions plays, uncorked, with one of `roles` (a call role: its stream
  /// may be what made module-role-cork cork another session's).
  func plays(withAnyOf roles: Set<String>) -> Bool {
    streams.values.contains { roles.contains($0.role) && !$0.corked }
  }
}

extension OwnStreamsModel.Streams {
  /// Whether the route's sink or source (`target` finds them) is another than the streams'.
  func isElsewhere(
    than route: RouteDescription, target: (PortDescription?, PortDirection) -> String?
  ) -> Bool {
    if playback, let wanted = target(route.outputs.first, .output), wanted != sink { return true }
    if record, let wanted = target(route.inputs.first, .input), wanted != source { return true }
    return false
  }
}
