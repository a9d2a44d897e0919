public import AudioSessionCore
import AudioSessionSystem
import Logging

/// Other programs' playback streams (docs/apps.md "On the server"): reported to the host as
/// ``ServerStreamEvent``s from each settled snapshot, and, once the host has assigned them to
/// sessions, made to follow their session's state as the engine decides it:
///
/// | the session | the stream |
/// |---|---|
/// | interrupted, paused by the system, or muted | muted (a control client cannot cork another client's stream) |
/// | ducked | each channel lowered by `streams.duckDecibels`, the exact volumes restored after |
/// | otherwise, or gone | what it was: unmuted if we muted it, its volumes back if we ducked it |
///
/// Streams of any AudioSession backend (they carry `audiosession.owner`) are not other
/// programs' and are never reported. A user who unmutes or changes a stream's volume in a mixer
/// wins until the next decision about its session.
extension PulseAudioBackend {
  /// What the backend changed on another program's stream, to undo it exactly.
  struct OtherStreamState: Sendable {
    var mutedByUs = false
    var savedVolumes: [PulseVolume]?
  }

  /// The other programs' playback streams in a snapshot.
  func otherStreams(in snapshot: PulseServerSnapshot) -> [ServerStream] {
    snapshot.sinkInputs.compactMap { input in
      guard input.clientIndex != nil, input.properties[PulseSimulatedDevice.Key.owner] == nil
      else { return nil }
      return ServerStream(
        key: .init(.playback, input.index), properties: input.properties,
        clientIndex: input.clientIndex, isCorked: input.isCorked)
    }
  }

  /// Reports what changed among other programs' streams since the last snapshot of this
  /// connection (everything, as a snapshot, on a new connection).
  func reportOtherStreams(_ new: PulseServerSnapshot) {
    let current = otherStreams(in: new)
    if reportedConnection != connection {
      reportedConnection = connection
      reported = Dictionary(uniqueKeysWithValues: current.map { ($0.key, $0) })
      streamSink.yield(.snapshot(current.sorted { $0.key < $1.key }))
      return
    }
    let byKey = Dictionary(uniqueKeysWithValues: current.map { ($0.key, $0) })
    for key in reported.keys.sorted() where byKey[key] == nil {
      streamSink.yield(.removed(key))
      otherStreamStates[key.index] = nil
    }
    for stream in current.sorted(by: { $0.key < $1.key }) where reported[stream.key] != stream {
      streamSink.yield(.updated(stream))
    }
    reported = byKey
  }

  public func assign(_ assignment: StreamAssignment) async {
    let dropped = Set(otherAssignment.sessions.keys).subtracting(assignment.sessions.keys)
    otherAssignment = assignment
    for key in dropped { await restore(key.index) }
    if let lastStatus { await followOtherStreams(lastStatus) }
  }

  /// Makes every assigned stream follow its session (called by `apply` and `assign`).
  func followOtherStreams(_ status: EngineStatus) async {
    lastStatus = status
    let sessions = Dictionary(status.sessions.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
    for (key, name) in otherAssignment.sessions.sorted(by: { $0.key < $1.key })
    where key.direction == .playback {
      guard let session = sessions[name] else {
        await restore(key.index)
        continue
      }
      let silenced =
        session.muted || (!session.playing && (session.interrupted || pausedBySystem.contains(name)))
      await set(key.index, muted: silenced, ducked: session.ducked && !silenced)
    }
  }

  /// Mutes or unmutes, ducks or unducks another program's stream, remembering what to undo.
  private func set(_ index: UInt32, muted: Bool, ducked: Bool) async {
    guard let link else { return }
    var state = otherStreamStates[index] ?? OtherStreamState()
    do {
      if muted != state.mutedByUs {
        try await link.context.setSinkInputMute(index, muted: muted)
        state.mutedByUs = muted
      }
      if ducked, state.savedVolumes == nil {
        guard let input = try await link.context.sinkInput(at: index) else { return }
        let rules = configuration.policy.streams
        try await link.context.setSinkInputVolume(index, to: input.channelVolumes.map(rules.ducked))
        state.savedVolumes = input.channelVolumes
      } else if !ducked, let saved = state.savedVolumes {
        try await link.context.setSinkInputVolume(index, to: saved)
        state.savedVolumes = nil
      }
    } catch {
      // The program may have gone meanwhile: nothing is left to restore on a stream that is gone.
      configuration.logger.debug(
        "cannot change another program's stream #\(index): \(error)",
        metadata: ["server": "\(serverDescription)"])
    }
    otherStreamStates[index] = state
  }

  /// Undoes what the backend did to another program's stream, if it still exists.
  func restore(_ index: UInt32) async {
    guard let state = otherStreamStates.removeValue(forKey: index), let link else { return }
    if state.mutedByUs { try? await link.context.setSinkInputMute(index, muted: false) }
    if let saved = state.savedVolumes { try? await link.context.setSinkInputVolume(index, to: saved) }
  }

  /// Undoes everything (the backend stops).
  func restoreOtherStreams() async {
    for index in otherStreamStates.keys.sorted() { await restore(index) }
  }
}
