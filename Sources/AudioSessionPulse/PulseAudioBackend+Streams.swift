public import AudioSession
import AudioSessionSystem
import Logging

/// Sessions as real streams: `apply` makes each session's streams follow the engine.
///
/// | engine says | the session's streams |
/// |---|---|
/// | playing | exist, uncorked, on the sink (and source) of the session's route |
/// | interrupted, or paused by the system | corked (kept, so that they resume where they were) |
/// | neither playing nor held | gone |
/// | ducked or muted | unchanged: they are silent, and the server's stream database, keyed by `media.role`, would hand a lowered volume or a mute to the next program with that role (docs/apps.md "Our own streams never leak") |
///
/// A stream's `media.role` comes from the session's category and mode (`streams.roles`); a
/// session that changes them gets new streams. `apply` returns once its requests are sent;
/// ``synchronize()`` waits until the server has carried them out.
extension PulseAudioBackend {
  public func apply(_ notifications: [SessionNotification], status: EngineStatus) async {
    engineCallRinging = status.callRinging != nil
    guard link != nil else { return }
    for notification in notifications {
      switch notification.event {
      case .pause: pausedBySystem.insert(notification.session)
      case .interruptionEnded(let options, _) where !options.contains(.shouldResume):
        heldAfterInterruption.insert(notification.session)
      default: break
      }
    }
    let alive = Set(status.sessions.map(\.name))
    for (name, streams) in sessions where !alive.contains(name) {
      close(name, streams)
    }
    pausedBySystem.formIntersection(alive)
    for session in status.sessions {
      await follow(session)
    }
    await followOtherStreams(status)
  }

  private func close(_ name: String, _ streams: PulseSessionStreams) {
    streams.close()
    sessions[name] = nil
    if calls.close(name) { stateChanged() }
  }

  private func follow(_ session: SessionStatus) async {
    let name = session.name
    if session.playing || !session.active { pausedBySystem.remove(name) }
    // A session whose audio is other programs' real streams (an app's, a `sessionctl run`'s, a
    // library client's own) needs no silent stream of ours: those streams follow it instead.
    if otherAssignment.sessions.values.contains(name) {
      if let streams = sessions[name] { close(name, streams) }
      return
    }
    let held = !session.playing && (session.interrupted || pausedBySystem.contains(name))
    let role = configuration.policy.streams.role(for: session.configuration)
    var streams = sessions[name]
    if !session.playing && !held {
      if let streams { close(name, streams) }
      return
    }
    if let existing = streams, existing.role != role, session.playing {
      close(name, existing)
      streams = nil
    }
    // A stream the server killed (a pinned stream whose device went) is gone; a pinned stream
    // cannot be moved, so a new route gets new streams.
    if let existing = streams,
      !existing.isAlive
        || (!existing.movable && existing.isElsewhere(than: session.route, target: target))
    {
      close(name, existing)
      streams = nil
    }
    if streams == nil {
      guard session.playing, !opening.contains(name) else { return }
      opening.insert(name)
      streams = await open(session, role: role)
      opening.remove(name)
    }
    guard let streams, link != nil else { return }
    setCorked(streams, held)
    move(streams, to: session.route)
  }

  /// Opens the session's streams on its route's sink and source.
  private func open(_ session: SessionStatus, role: String) async -> PulseSessionStreams? {
    guard let link else { return nil }
    let sink = target(session.route.outputs.first, .output)
    let source = target(session.route.inputs.first, .input)
    // What the server remembers for the role (the mute a program of it was last given, where
    // it was last moved) is other programs' to take, not this silent stream's: PipeWire's
    // WirePlumber neither restores nor saves a stream whose `state.restore-*` is "false", and
    // PulseAudio restores no mute on a stream that starts unmuted (docs/apps.md "Our own
    // streams never leak").
    let properties = [
      "media.role": role, "media.name": session.name, "audiosession.session": session.name,
      PulseSimulatedDevice.Key.owner: owner, "state.restore-props": "false",
      "state.restore-target": "false",
    ]
    let wantsRecord = !session.route.inputs.isEmpty
    let wantsPlayback = !session.route.outputs.isEmpty || !wantsRecord
    let latency = Self.bufferLatency(session)
    let movable = configuration.policy.streams.movable
    do {
      var playback: PulsePlaybackStream?
      var record: PulseRecordStream?
      if wantsPlayback {
        let stream = try PulsePlaybackStream(
          context: link.context, name: session.name, properties: properties)
        watchCorkRequests(stream, of: session.name, monitor: link.monitor)
        try await stream.connect(
          toSink: sink, pinned: !movable, unmuted: true, latency: latency)
        playback = stream
      }
      if wantsRecord {
        let stream = try PulseRecordStream(
          context: link.context, name: session.name, properties: properties)
        watchKills(stream, of: session.name)
        try await stream.connect(
          toSource: source, pinned: !movable, unmuted: true, latency: latency)
        record = stream
      }
      let streams = PulseSessionStreams(
        session: session.name, role: role, playback: playback, record: record, sink: sink,
        source: source, movable: movable)
      streams.requestsSettled = link.monitor.requestSettle()
      sessions[session.name] = streams
      return streams
    } catch {
      note("cannot open the streams of '\(session.name)': \(error)", session: session.name)
      return nil
    }
  }

  /// The buffer target of a session's streams, in microseconds: the buffer duration it was
  /// granted (its preference, clamped), else ``PulseStream/defaultLatency``.
  static func bufferLatency(_ session: SessionStatus) -> UInt64 {
    guard session.preferences.ioBufferDuration != nil, session.active else {
      return PulseStream.defaultLatency
    }
    return UInt64((session.hardware.ioBufferDuration * 1_000_000).rounded())
  }

  /// The sink or source behind a route's port.
  private func target(_ port: PortDescription?, _ direction: PortDirection) -> String? {
    port.flatMap { targets[.init(uid: $0.uid, direction: direction)] }
  }

  /// Hands module-role-cork's requests for the stream to the backend. Each request hops to the
  /// actor in a task of its own, and tasks may run out of order: requests are numbered on the
  /// loop thread, and one older than the last handled is dropped (the latest says how things
  /// stand). Each also asks the monitor for a settle and carries the sequence before it: only a
  /// later snapshot can show the stream that caused the request.
  private func watchCorkRequests(
    _ stream: PulsePlaybackStream, of session: String, monitor: PulseServerMonitor
  ) {
    let identity = ObjectIdentifier(stream)
    let counter = PulseEventCounter()
    stream.setEventHandler { [weak self] event in
      let cork: Bool
      switch event {
      case .requestCork: cork = true
      case .requestUncork: cork = false
      case .state(.failed):
        Task { await self?.streamKilled(identity, of: session) }
        return
      default: return
      }
      let request = CorkRequest(
        session: session, stream: identity, cork: cork, number: counter.next(),
        settled: monitor.requestSettle())
      Task { await self?.corkRequested(request) }
    }
  }

  /// Tells the backend when the server kills the stream (its source went).
  private func watchKills(_ stream: PulseRecordStream, of session: String) {
    let identity = ObjectIdentifier(stream)
    stream.setEventHandler { [weak self] event in
      guard case .state(.failed) = event else { return }
      Task { await self?.streamKilled(identity, of: session) }
    }
  }

  /// The server killed one of a session's streams (a pinned stream whose device went, or
  /// `pactl kill-sink-input`): both are closed, and the next decision about the session opens
  /// new ones on its route if it still plays (the engine's route may still name the device that
  /// went). Nothing played elsewhere meanwhile.
  func streamKilled(_ stream: ObjectIdentifier, of session: String) {
    guard let streams = sessions[session],
      streams.streams.contains(where: { ObjectIdentifier($0) == stream })
    else { return }
    configuration.logger.debug(
      "the server killed a stream of '\(session)'",
      metadata: ["session": "\(session)", "server": "\(serverDescription)"])
    close(session, streams)
  }

  /// module-role-cork's request for a session's stream.
  struct CorkRequest: Sendable {
    var session: String
    var stream: ObjectIdentifier
    var cork: Bool
    var number: Int
    var settled: Int
  }

  /// `request-cork` begins a call at once (the phone stream is announced only after it);
  /// `request-uncork` ends this stream's part in it.
  func corkRequested(_ request: CorkRequest) {
    guard let streams = sessions[request.session], let playback = streams.playback,
      ObjectIdentifier(playback) == request.stream, request.number > streams.lastCorkRequest
    else { return }
    streams.lastCorkRequest = request.number
    carryOut(
      calls.corkRequested(
        session: request.session, cork: request.cork, settled: request.settled,
        facts: link.flatMap(callFacts)))
    stateChanged()
  }

  /// Undoes module-role-cork's mute on a session's stream (the cork came from one of our own
  /// sessions, which the engine arbitrates).
  func restoreMute(of session: String) {
    guard let streams = sessions[session], let index = streams.playback?.index, let link else {
      return
    }
    link.context.setSinkInputMute(
      index, muted: false,
      completion: reporting("restore the mute of '\(session)'", session: session))
  }

  /// Keeps and logs a decision that could not be applied to a session's streams.
  func note(_ problem: String, session: String) {
    problems.append(problem)
    configuration.logger.warning(
      "\(problem)", metadata: ["session": "\(session)", "server": "\(serverDescription)"])
  }

  /// Called with a request's outcome on the loop thread: notes a failure.
  private func reporting(_ what: String, session: String) -> @Sendable (PulseError?) -> Void {
    { [weak self] error in
      guard let error else { return }
      Task { await self?.note("cannot \(what): \(error)", session: session) }
    }
  }

  // Corks, mutes and moves are sent without waiting for the server's answer: requests on one
  // connection are carried out in order, and the session is told at once (the server may be
  // busy starting the very stream that caused the change).

  private func setCorked(_ streams: PulseSessionStreams, _ corked: Bool) {
    guard streams.corked != corked else { return }
    streams.corked = corked
    for stream in streams.streams {
      stream.setCorked(
        corked,
        completion: reporting(
          "\(corked ? "cork" : "uncork") the streams of '\(streams.session)'",
          session: streams.session))
    }
    if !corked, ownCallRolePlaying { stateChanged() }
  }

  private func move(_ streams: PulseSessionStreams, to route: RouteDescription) {
    guard let link else { return }
    if let sink = target(route.outputs.first, .output), sink != streams.sink,
      let index = streams.playback?.index
    {
      link.context.moveSinkInput(
        index, toSink: sink,
        completion: reporting("move '\(streams.session)' to \(sink)", session: streams.session))
      streams.sink = sink
      streams.requestsSettled = link.monitor.requestSettle()
    }
    if let source = target(route.inputs.first, .input), source != streams.source,
      let index = streams.record?.index
    {
      link.context.moveSourceOutput(
        index, toSource: source,
        completion: reporting(
          "move the input of '\(streams.session)' to \(source)", session: streams.session))
      streams.source = source
    }
  }
}

extension PulseAudioBackend {
  /// Each session's sample rate, channel counts and latencies are its route's sink's and
  /// source's as the server reports them (docs/pulseaudio-layer.md "Hardware values"); the
  /// buffer duration stays what the session was granted, which its streams were opened with.
  public func withRealHardware(_ status: EngineStatus) async -> EngineStatus {
    guard let devices = snapshot?.devices else { return status }
    var status = status
    func device(_ port: PortDescription?, _ direction: PortDirection) -> PulseDeviceSnapshot? {
      guard let name = port.flatMap({ targets[.init(uid: $0.uid, direction: direction)] })
      else { return nil }
      return devices.first { $0.direction == direction && $0.name == name }
    }
    for index in status.sessions.indices {
      let session = status.sessions[index]
      var hardware = session.hardware
      let granted = session.active ? session.preferences : HardwarePreferences()
      if let sink = device(session.route.outputs.first, .output), sink.sampleRate > 0 {
        hardware.sampleRate = Double(sink.sampleRate)
        if hardware.outputNumberOfChannels > 0 {
          hardware.outputNumberOfChannels = min(
            granted.outputNumberOfChannels ?? sink.channelCount, sink.channelCount)
        }
        hardware.outputLatency = Double(max(sink.latency, sink.configuredLatency)) / 1_000_000
      }
      if let source = device(session.route.inputs.first, .input), source.sampleRate > 0 {
        if session.route.outputs.isEmpty { hardware.sampleRate = Double(source.sampleRate) }
        if hardware.inputNumberOfChannels > 0 {
          hardware.inputNumberOfChannels = min(
            granted.inputNumberOfChannels ?? source.channelCount, source.channelCount)
        }
        hardware.inputLatency =
          Double(max(source.latency, source.configuredLatency)) / 1_000_000
      }
      hardware.ioBufferDuration = Double(Self.bufferLatency(session)) / 1_000_000
      status.sessions[index].hardware = hardware
    }
    return status
  }
}
