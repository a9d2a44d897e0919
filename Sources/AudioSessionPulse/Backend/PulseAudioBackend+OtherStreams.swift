public import AudioSession
import AudioSessionSystem
import Logging

/// Other programs' playback streams (docs/apps.md "On the server"): reported to the host as
/// ``ServerStreamEvent``s from each settled snapshot, and, once the host has assigned them to
/// sessions, made to follow their session's state as the engine decides it:
///
/// | the session | the stream |
/// |---|---|
/// | interrupted, paused by the system, muted, or its interruption ended without shouldResume (until it plays again) | muted (a control client cannot cork another client's stream) |
/// | its app muted its output (`sessionctl output-muted`, iOS 26 `setOutputMuted`) | its playback streams muted |
/// | its app muted its input (`sessionctl input-muted`, iOS 17 `setInputMuted`) | its recording streams muted |
/// | ducked | each channel lowered by `streams.duckDecibels`, the exact volumes restored after |
/// | otherwise, or gone | what it was: unmuted if we muted it, its volumes back if we ducked it |
///
/// Streams of any AudioSession backend (they carry `audiosession.owner`) are not other
/// programs' and are never reported. A user who unmutes or changes a stream's volume in a mixer
/// wins until the next decision about its session.
extension PulseAudioBackend {
  /// How a stream that went while ducked or muted was left, and what it had before.
  typealias LeftBehind = OtherStreamsModel.LeftBehind

  /// What the backend changed on another program's stream (``OtherStreamsModel``).
  typealias OtherStreamState = OtherStreamsModel.StreamState

  /// What the model changed on each of other programs' streams.
  var otherStreamStates: [ServerStream.Key: OtherStreamState] { otherModel.states }

  /// Which session each of other programs' streams belongs to (the host's ``assign(_:)``).
  var otherAssignment: StreamAssignment { otherModel.assignment }

  /// The other programs' streams in a snapshot: playback streams (sink inputs), and recording
  /// streams (source outputs) except those that record a sink's monitor (a level meter, a
  /// screen recorder's copy of the output: no microphone is in use).
  func otherStreams(in snapshot: PulseServerSnapshot) -> [ServerStream] {
    checkClaims(in: snapshot)
    let pipewire = endpoint.flavor == .pipewire
    let playback = snapshot.sinkInputs.compactMap { input -> ServerStream? in
      guard input.clientIndex != nil, input.properties[PulseSimulatedDevice.Key.owner] == nil,
        !claims.waits(input.properties, client: input.clientIndex, pipewire: pipewire)
      else { return nil }
      let key = ServerStream.Key(.playback, input.index)
      // The server's cork may be a start-up flap, held; a stream silent for its limit is not
      // (its silence is measured, not a flap).
      // (Asked for every stream, corked or not: it notes which have played.)
      let held = holdsStartCork(key, corked: input.isCorked)
      let corked = input.isCorked && !held
      return ServerStream(
        key: key,
        properties: claims.marked(input.properties, client: input.clientIndex, pipewire: pipewire),
        clientIndex: input.clientIndex, isCorked: corked || silence.silent.contains(key))
    }
    let monitors = Set(
      snapshot.devices.filter { $0.direction == .input && $0.isMonitor }.map(\.index))
    let record = snapshot.sourceOutputs.compactMap { output -> ServerStream? in
      guard output.clientIndex != nil, output.properties[PulseSimulatedDevice.Key.owner] == nil,
        !monitors.contains(output.sourceIndex),
        !claims.waits(output.properties, client: output.clientIndex, pipewire: pipewire)
      else { return nil }
      return ServerStream(
        key: .init(.record, output.index),
        properties: claims.marked(
          output.properties, client: output.clientIndex, pipewire: pipewire),
        clientIndex: output.clientIndex, isCorked: output.isCorked)
    }
    return playback + record
  }

  /// Reports what changed among other programs' streams since the last snapshot of this
  /// connection (everything, as a snapshot, on a new connection).
  func reportOtherStreams(_ new: PulseServerSnapshot) {
    let change = report.take(otherStreams(in: new), connection: connection)
    for event in change.events { observedSink.yield(.streams(event)) }
    guard !change.isSnapshot else { return }
    var forgotten = false
    for (gone, undone) in change.gone {
      startCorks.forget(gone.key)
      let state = otherModel.forget(gone.key)
      if state != nil { forgotten = true }
      if let state, state.mutedByUs || state.savedVolumes != nil {
        remember(state, of: gone)
        streamWentChanged(state, of: gone)
      } else if let undone {
        // Undone just before it went (the model may hold it again, with nothing changed, from
        // a snapshot shown after the undo): the server may have taken the undo and the
        // program's death in either order
        // (PulseAudio saves a stream's change only if the stream is still there when it gets
        // to it; pipewire-pulse answers an undo for a stream whose node is going, and
        // WirePlumber never sees it).
        streamWentChanged(undone.state, of: undone.stream)
      }
    }
    watchInheritance(in: new, appeared: change.appeared)
    // The volumes shown, and a stream's entry name (looked up once from its properties).
    otherModel.noteShown(report.reported)
    if forgotten { writeJournal() }
  }

  public func assign(_ assignment: StreamAssignment) async {
    var actions: [OtherStreamsModel.Action] = []
    otherModel.assign(assignment, into: &actions)
    send(actions)
    armUnplugGuard()
    updateSilenceMeters()
    if let lastStatus { await followOtherStreams(lastStatus) } else { writeJournal() }
  }

  /// Makes every assigned stream follow its session (called by `apply` and `assign`).
  func followOtherStreams(_ status: EngineStatus) async {
    guard !stopped else { return }
    let decisions = otherModel.decisions(
      status.sessions, pausedBySystem: ownModel.pausedBySystem,
      object: { [view = deviceView] in view.object(for: $0, $1) })
    var actions: [OtherStreamsModel.Action] = []
    for (key, name) in otherAssignment.sessions.sorted(by: { $0.key < $1.key }) {
      let decided = decisions[name]
      // Without a connection (or once stopped) nothing is changed; a stream whose session is
      // gone is forgotten all the same.
      if decided != nil, link == nil || stopped { continue }
      actions.removeAll(keepingCapacity: true)
      otherModel.follow(key, decided, uid: { deviceUID(of: $0, .output) }, into: &actions)
      await perform(actions)
    }
    // After the requests: the file is for a daemon killed later, not for this decision.
    writeJournal()
  }

  /// Another program's stream that the server moved off a sink that is gone (its device was
  /// unplugged) is muted at once, before the engine has decided anything: the server moves such
  /// streams to the fallback before it even announces the removal, so the stream would play on
  /// the speaker meanwhile. The engine's decision follows (the headphone pause keeps it muted;
  /// a session that plays on is unmuted again). Only streams assigned to a session.
  func silenceRescuedStreams(from previous: PulseServerSnapshot, to new: PulseServerSnapshot) {
    guard !stopped, !otherAssignment.sessions.isEmpty else { return }
    var actions: [OtherStreamsModel.Action] = []
    // Listed in the intent file before the request, as every mute.
    otherModel.silenceRescued(from: previous, to: new, into: &actions)
    send(actions)
  }

  /// Applies the model's actions for one stream in order, reading the volumes of a stream to
  /// duck from the server (the latest decision stands when it was decided again meanwhile).
  private func perform(_ actions: [OtherStreamsModel.Action]) async {
    for action in actions {
      guard let link else { return }
      guard case .readVolumes(let key) = action else {
        send(action, on: link)
        continue
      }
      guard !stopped, var input = try? await link.context.sinkInput(at: key.index), !stopped
      else { continue }
      // pipewire-pulse 1.4 shows a stream that just appeared at volume 0 until its node is set
      // up (docs/pulseaudio.md §2.2): those are not the volumes to give back when the ducking
      // ends. Read again, for at most half a second.
      for _ in 0..<10 where input.channelVolumes.allSatisfy({ $0.rawValue == 0 }) {
        try? await TimerThread.sleep(for: .milliseconds(50))
        guard !stopped, let again = try? await link.context.sinkInput(at: key.index), !stopped
        else { break }
        input = again
      }
      guard !stopped else { continue }
      var ducking: [OtherStreamsModel.Action] = []
      otherModel.duck(key, read: input.channelVolumes, into: &ducking)
      send(ducking)
    }
  }

  /// Applies actions that need no answer from the server (all but reading volumes); nothing
  /// without a connection.
  func send(_ actions: [OtherStreamsModel.Action]) {
    guard let link else { return }
    for action in actions { send(action, on: link) }
  }

  /// Applies one of the model's actions: a request to the server (sent without waiting for the
  /// answer: the program may be gone meanwhile, and the failure is logged at debug), a line of
  /// the intent file, a choice of device for the engine, or a note.
  private func send(_ action: OtherStreamsModel.Action, on link: Link) {
    switch action {
    case .appendIntent(let key):
      // Listed before it is sent: a daemon killed at any moment leaves nothing changed for good.
      appendIntent(key)
    case .mute(let key): sendMute(key, true, on: link)
    case .unmute(let key):
      report.noteUndone(key, muted: true, original: nil)
      sendMute(key, false, on: link)
    case .setVolumes(let key, let volumes, let ducking):
      if !ducking { report.noteUndone(key, muted: false, original: volumes) }
      link.context.setSinkInputVolume(
        key.index, to: volumes, completion: ignoring(ducking ? "duck" : "unduck", key))
    case .readVolumes(let key):
      preconditionFailure("reading the volumes of \(key) needs perform(_:)")
    case .move(let key, let device):
      configuration.logger.debug(
        "moving another program's stream \(key) to its session's route",
        metadata: ["device": "\(device)"])
      switch key.direction {
      case .playback:
        link.context.moveSinkInput(key.index, toSink: device, completion: ignoring("move", key))
      case .record:
        link.context.moveSourceOutput(
          key.index, toSource: device, completion: ignoring("move", key))
      }
    case .deviceChosen(let session, let uid, let key, let sink, let firstSeen):
      configuration.logger.debug(
        firstSeen
          ? "another program's stream \(key) was first seen on \(sink), not its route's device: its session's chosen output"
          : "another program's stream \(key) was moved to \(sink): its session's chosen output",
        metadata: ["session": "\(session)"])
      deviceView.userChose([.deviceChosen(uid: uid, direction: .output, session: session)])
      if firstSeen { stateChanged() }
    case .undone(let undone, let entry): inheritances.undone(undone, entry: entry, at: .now)
    case .userVolumesKept(let key, let volumes):
      configuration.logger.debug(
        "left another program's stream \(key) at the volume the user set while it was ducked",
        metadata: ["volumes": "\(volumes.map(\.rawValue))"])
    }
  }

  /// Asks the server to mute or unmute a playback or recording stream, without waiting.
  func sendMute(_ key: ServerStream.Key, _ muted: Bool, on link: Link) {
    let completion = ignoring("\(muted ? "mute" : "unmute")", key)
    switch key.direction {
    case .playback: link.context.setSinkInputMute(key.index, muted: muted, completion: completion)
    case .record: link.context.setSourceOutputMute(key.index, muted: muted, completion: completion)
    }
  }

  /// Logs at debug a request on another program's stream that failed (it is gone, most often).
  private func ignoring(_ what: String, _ key: ServerStream.Key) -> @Sendable (PulseError?) -> Void
  {
    let logger = configuration.logger
    let server = serverDescription
    return { error in
      guard let error else { return }
      logger.debug(
        "cannot \(what) another program's stream \(key): \(error)",
        metadata: ["server": "\(server)"])
    }
  }

  /// A stream the backend had ducked or muted is gone: the server's stream database remembers
  /// it that way, and would start the program's next stream ducked or muted. Its entry gets the
  /// volumes and mute the stream had before. PulseAudio lists the entry (its device is kept);
  /// pipewire-pulse 0.3.65 lists none but takes a written one (WirePlumber's restore-stream
  /// applies it to the next stream): the entry is then written anew, when the server names the
  /// stream's entry (`module-stream-restore.id`). A server without the database: nothing to do.
  func forgetChanges(_ state: OtherStreamState, of stream: ServerStream) async {
    guard state.mutedByUs || state.savedVolumes != nil, let link,
      let name = PulseStreamRestoreEntry.name(
        of: stream.properties, direction: stream.key.direction)
    else { return }
    let listed = (try? await link.context.streamRestoreEntries())?.first { $0.name == name }
    guard
      var entry = listed
        ?? (stream.properties["module-stream-restore.id"] == nil
          ? nil
          : PulseStreamRestoreEntry(
            name: name, channelPositions: [], volumes: [], device: nil, isMuted: false))
    else { return }
    if state.mutedByUs { entry.isMuted = false }
    if let volumes = state.savedVolumes ?? state.lastVolumes {
      if entry.volumes.isEmpty {
        entry.channelPositions = PulseStreamRestoreEntry.defaultPositions(count: volumes.count)
        entry.volumes = volumes
      } else if volumes.count == entry.volumes.count, state.savedVolumes != nil {
        entry.volumes = volumes
      }
    }
    // A new entry needs volumes (a recording stream's are not known): left alone. A listed one
    // may have none: PulseAudio keeps an entry's volume only once someone set the stream's
    // volume, so the first program of a role that the backend muted leaves a mute alone; it is
    // written back without volumes (the server accepts a volume of no channels as "none kept").
    guard !entry.volumes.isEmpty || listed != nil else { return }
    link.context.writeStreamRestore(entry, completion: ignoring("restore the entry of", stream.key))
    // A reply comes after every request sent before it: the write has reached the server when
    // this returns, and a backend that stops meanwhile (it waits for this) does not cut it off.
    _ = try? await link.context.serverInfo()
  }

  /// Keeps how a ducked or muted stream was left when it went (``watchInheritance``).
  /// The streams of this connection that the backend has muted or ducked, as last reported.
  func changedOtherStreams() -> [(state: OtherStreamState, stream: ServerStream)] {
    otherModel.states.sorted { $0.key < $1.key }.compactMap { key, state in
      guard state.mutedByUs || state.savedVolumes != nil, let stream = report.reported[key]
      else { return nil }
      return (state, stream)
    }
  }

  /// Streams the backend had muted or ducked when their server went (killed or stopped): the
  /// server's memory of streams kept those changes for the streams' roles (PulseAudio's
  /// stream database saves a change as it is made, and saved ours as it stopped; WirePlumber
  /// keeps its own), and gave them to every new stream of the role after the restart, with the
  /// daemon and after it. So, on the new connection, each counts as gone with its changes: its
  /// entry gets back what it had before, on PipeWire WirePlumber's saved state is repaired, and
  /// a new stream that takes the change meanwhile is given back its own.
  func streamsWentWithServer(_ gone: [(state: OtherStreamState, stream: ServerStream)]) {
    for (state, stream) in gone {
      remember(state, of: stream)
      streamWentChanged(state, of: stream)
    }
  }

  private func remember(_ state: OtherStreamState, of stream: ServerStream) {
    guard state.mutedByUs || state.savedVolumes != nil,
      let name = PulseStreamRestoreEntry.name(
        of: stream.properties, direction: stream.key.direction)
    else { return }
    inheritances.wentChanged(otherModel.leftBehind(state), entry: name)
  }

  /// The volumes the backend gives a stream it ducks.
  func duckedVolumes(_ volumes: [PulseVolume]) -> [PulseVolume] {
    otherModel.duckedVolumes(volumes)
  }

  /// Watches the streams that appeared for what the server's stream database handed them
  /// because of the backend, and undoes it (``StreamInheritance``).
  private func watchInheritance(in snapshot: PulseServerSnapshot, appeared: Set<ServerStream.Key>) {
    let now = ContinuousClock.now
    for key in appeared where key.direction == .playback {
      guard let stream = report.reported[key],
        let name = PulseStreamRestoreEntry.name(of: stream.properties, direction: .playback)
      else { continue }
      inheritances.appeared(key, entry: name, at: now)
    }
    guard let link, !inheritances.fresh.isEmpty else { return }
    let model = otherModel
    let fixes = inheritances.fixes(
      snapshot.sinkInputs.map {
        StreamInheritance.Shown(
          key: .init(.playback, $0.index), muted: $0.isMuted, volumes: $0.channelVolumes)
      }, at: now, living: { model.leftBehind(byStreamsOf: $0, besides: $1) },
      changed: { model.states[$0] })
    for fix in fixes {
      switch fix {
      case .unmute(let key):
        link.context.setSinkInputMute(key.index, muted: false, completion: ignoring("unmute", key))
      case .setVolumes(let key, let original):
        link.context.setSinkInputVolume(
          key.index, to: original, completion: ignoring("unduck", key))
      case .replaceSaved(let key, let original):
        var actions: [OtherStreamsModel.Action] = []
        otherModel.replaceSaved(key, with: original, into: &actions)
        send(actions)
      }
    }
  }

  /// Undoes everything (the backend stops), and waits until the server has carried it out.
  func restoreOtherStreams() async {
    // On PulseAudio, taken before the model lets go of it: written back below.
    let writeBack = endpoint.flavor == .pulseaudio ? changedStreams() : []
    var actions: [OtherStreamsModel.Action] = []
    otherModel.restoreAll(into: &actions)
    send(actions)
    writeJournal()
    journal.writer.flush()
    // A reply comes after every request sent before it on the connection.
    _ = try? await link?.context.serverInfo()
    if endpoint.flavor == .pulseaudio {
      // PulseAudio saves a stream's undo into its database only if the stream is still there
      // when the server gets to it: a program killed as the daemon stops, whichever way the
      // backend learnt of its death (or did not), would leave its role muted or ducked. Every
      // stream the backend changed or undid lately gets its entry written back, living or not:
      // for a living one it is what the server saves anyway (DaemonKilledTests failed about one
      // full test run in three while this depended on telling dead from living streams).
      _ = report.takeUndone()
      for (state, stream) in writeBack { await forgetChanges(state, of: stream) }
    } else {
      await undoneStreamsGone()
    }
    await waitForRepairs()
  }

  /// The other programs' streams the backend has changed, or undid within
  /// ``UndoneStream/window``, each with all that was done to it.
  private func changedStreams() -> [(OtherStreamState, ServerStream)] {
    var changed: [ServerStream.Key: (state: OtherStreamState, stream: ServerStream)] = [:]
    for (key, undone) in report.undone() {
      changed[key] = (undone.state, undone.stream)
    }
    for (key, state) in otherStreamStates where state.mutedByUs || state.savedVolumes != nil {
      guard let stream = report.reported[key] else { continue }
      var merged = changed[key]?.state ?? OtherStreamState()
      merged.mutedByUs = merged.mutedByUs || state.mutedByUs
      merged.savedVolumes = state.savedVolumes ?? merged.savedVolumes
      merged.lastVolumes = state.lastVolumes
      merged.restoreName = state.restoreName ?? merged.restoreName
      changed[key] = (merged, stream)
    }
    return changed.sorted { $0.key < $1.key }.map { ($0.value.state, $0.value.stream) }
  }
}

extension PulseAudioBackend {
  /// pipewire-pulse 1.4 shows a native program's new stream on no sink until WirePlumber links
  /// it, and announces no change when it does: the backend took mpv on the headphones for mpv
  /// on no device, its session's route stayed the speaker, and an unplug of the headphones
  /// paused nothing (in 2 of 4 runs beside WirePlumber's role policy). So while a snapshot of
  /// a PipeWire server shows a playback stream on no sink, the backend asks for such streams
  /// again, 50 ms later, then twice as long each time up to once a second (a stream WirePlumber
  /// corks for a louder role stays unlinked as long as the louder one plays).
  func pollUnlinkedStreams(in snapshot: PulseServerSnapshot) {
    guard endpoint.flavor == .pipewire, unlinkedPollDelay == nil else { return }
    let sinks = Set(snapshot.devices.filter { $0.direction == .output }.map(\.index))
    guard snapshot.sinkInputs.contains(where: { !sinks.contains($0.sinkIndex) }) else { return }
    unlinkedPollDelay = .milliseconds(50)
    scheduleUnlinkedPoll()
  }

  private func scheduleUnlinkedPoll() {
    guard let delay = unlinkedPollDelay else { return }
    Task { [weak self] in
      try? await TimerThread.sleep(for: delay)
      await self?.unlinkedPolled()
    }
  }

  private func unlinkedPolled() {
    guard !stopped, let link, link.monitor.refetchUnlinkedStreams(),
      let delay = unlinkedPollDelay
    else {
      unlinkedPollDelay = nil
      return
    }
    unlinkedPollDelay = min(delay * 2, .seconds(1))
    scheduleUnlinkedPoll()
  }
}
