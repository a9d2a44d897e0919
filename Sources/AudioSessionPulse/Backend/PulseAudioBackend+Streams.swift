public import AudioSession
import AudioSessionSystem
import Logging

/// Sessions as real streams: `apply` makes each session's streams follow the engine, as
/// ``OwnStreamsModel`` decides (its table says what each of the engine's states means for
/// them), and carries out its actions. `apply` returns once its requests are sent;
/// ``synchronize()`` waits until the server has carried them out.
extension PulseAudioBackend {
  public func apply(_ notifications: [SessionNotification], status: EngineStatus) async {
    lastStatus = status
    guard link != nil else { return }
    otherModel.take(notifications)
    for (name, streams) in sessions where !streams.isAlive { ownModel.died(name) }
    for action in ownModel.take(notifications, sessions: status.sessions.map(\.name)) {
      await carryOut(action)
    }
    // Each session's actions are decided just before they are carried out: an open awaits the
    // server, and another decision may come meanwhile.
    var rules = ownStreamRules()
    for session in status.sessions {
      for action in ownModel.follow(session, rules: rules) {
        await carryOut(action)
        // The devices, or the streams other programs' sessions have, may have changed while
        // the open awaited the server.
        if case .open = action { rules = ownStreamRules() }
      }
    }
    await followOtherStreams(status)
  }

  /// What the model of our own streams needs to know now.
  private func ownStreamRules() -> OwnStreamsModel.Rules {
    OwnStreamsModel.Rules(
      role: { [policy = configuration.policy] in policy.streams.role(for: $0) },
      // The sink or source behind a route's port.
      target: { [view = deviceView] port, direction in
        port.flatMap { view.object(for: $0.uid, direction) }
      },
      followedElsewhere: Set(otherAssignment.sessions.values),
      movable: configuration.policy.streams.movable)
  }

  /// Carries out one of the model's actions on the server. Corks and moves are sent without
  /// waiting for the server's answer: requests on one connection are carried out in order, and
  /// the session is told at once (the server may be busy starting the very stream that caused
  /// the change).
  private func carryOut(_ action: OwnStreamsModel.Action) async {
    switch action {
    case .close(let name):
      sessions.removeValue(forKey: name)?.close()
      if calls.close(name) { stateChanged() }
    case .open(let opening):
      let opened = await open(opening)
      ownModel.opened(opening, opened != nil)
      if let opened { sessions[opening.session] = opened }
    case .cork(let name, let corked):
      guard let streams = sessions[name], link != nil else { return }
      for stream in streams.streams {
        stream.setCorked(
          corked,
          completion: reporting(
            "\(corked ? "cork" : "uncork") the streams of '\(name)'", session: name))
      }
      if !corked, ownCallRolePlaying { stateChanged() }
    case .moveSink(let name, let sink):
      guard let link, let streams = sessions[name], let index = streams.playback?.index else {
        return
      }
      link.context.moveSinkInput(
        index, toSink: sink,
        completion: reporting("move '\(name)' to \(sink)", session: name))
      streams.requestsSettled = link.monitor.requestSettle()
    case .moveSource(let name, let source):
      guard let link, let index = sessions[name]?.record?.index else { return }
      link.context.moveSourceOutput(
        index, toSource: source,
        completion: reporting("move the input of '\(name)' to \(source)", session: name))
    }
  }

  /// Opens a session's streams on its route's sink and source; nil if they could not be.
  private func open(_ opening: OwnStreamsModel.Opening) async -> PulseSessionStreams? {
    guard let link else { return nil }
    let name = opening.session
    // What the server remembers for the role (the mute a program of it was last given, where
    // it was last moved) is other programs' to take, not this silent stream's: PipeWire's
    // WirePlumber neither restores nor saves a stream whose `state.restore-*` is "false", and
    // PulseAudio restores no mute on a stream that starts unmuted (docs/apps.md "Our own
    // streams never leak").
    let properties = [
      "media.role": opening.role, "media.name": name, "audiosession.session": name,
      PulseSimulatedDevice.Key.owner: owner, "state.restore-props": "false",
      "state.restore-target": "false",
    ]
    do {
      var playback: PulsePlaybackStream?
      var record: PulseRecordStream?
      if opening.playback {
        let stream = try PulsePlaybackStream(
          context: link.context, name: name, properties: properties)
        watchCorkRequests(stream, of: name, monitor: link.monitor)
        try await stream.connect(
          toSink: opening.sink, pinned: !opening.movable, unmuted: true,
          latency: opening.latency)
        playback = stream
      }
      if opening.record {
        let stream = try PulseRecordStream(
          context: link.context, name: name, properties: properties)
        watchKills(stream, of: name)
        try await stream.connect(
          toSource: opening.source, pinned: !opening.movable, unmuted: true,
          latency: opening.latency)
        record = stream
      }
      let streams = PulseSessionStreams(session: name, playback: playback, record: record)
      streams.requestsSettled = link.monitor.requestSettle()
      return streams
    } catch {
      note("cannot open the streams of '\(name)': \(error)", session: name)
      return nil
    }
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
  func streamKilled(_ stream: ObjectIdentifier, of session: String) async {
    guard let streams = sessions[session],
      streams.streams.contains(where: { ObjectIdentifier($0) == stream })
    else { return }
    configuration.logger.debug(
      "the server killed a stream of '\(session)'",
      metadata: ["session": "\(session)", "server": "\(serverDescription)"])
    for action in ownModel.killed(session) { await carryOut(action) }
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
}

extension PulseAudioBackend {
  /// Each session's sample rate, channel counts and latencies are its route's sink's and
  /// source's as the server reports them (docs/pulseaudio-layer.md "Hardware values"); the
  /// buffer duration stays what the session was granted, which its streams were opened with.
  public func withRealHardware(_ status: EngineStatus) async -> EngineStatus {
    guard let devices = snapshot?.devices else { return status }
    var status = status
    func device(_ port: PortDescription?, _ direction: PortDirection) -> PulseDeviceSnapshot? {
      guard let name = port.flatMap({ deviceView.object(for: $0.uid, direction) })
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
      hardware.ioBufferDuration = Double(OwnStreamsModel.bufferLatency(session)) / 1_000_000
      status.sessions[index].hardware = hardware
    }
    return status
  }
}
