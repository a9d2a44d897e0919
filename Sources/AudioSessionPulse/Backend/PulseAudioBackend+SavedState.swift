import AudioSession
import AudioSessionSystem
import Logging

#if canImport(Glibc)
  import Glibc
#endif

/// A stream of another program that went while the backend had it muted or ducked leaves its
/// mute or ducked volumes in the server's memory of streams, which gives them to the program's
/// next stream (docs/apps.md "WirePlumber 0.5 keeps a mute"). PulseAudio's stream database
/// takes the entry written back (``forgetChanges(_:of:)``). WirePlumber 0.5, behind
/// pipewire-pulse 1.x, keeps its own state by the same key and takes nothing written: it only
/// saves what a living stream of that key is changed to. So on PipeWire the backend opens a
/// corked stream with the key's property, waits until WirePlumber has given it the saved mute
/// or ducked volumes, gives it back what the gone stream had before, and closes it.
///
/// A stream counts as gone with its changes when its removal is seen while the model still
/// has them; when it goes within two seconds of an undo (its session ended as its program
/// died, or the backend stops: pipewire-pulse 1.4 answers an undo for a stream whose program
/// was just killed, and WirePlumber never sees the change); and when a killed daemon's changes
/// file lists it and it is not there. The backend's stop waits for these repairs.
extension PulseAudioBackend {
  /// The repairs running, by number.
  struct Repairs {
    var running: [Int: Task<Void, Never>] = [:]
    var next = 0
  }

  /// The stream `stream` went with what the backend changed on it (`state`): its entry in the
  /// server's memory gets back what it had before. Tracked: the backend's stop waits for it.
  func streamWentChanged(_ state: OtherStreamState, of stream: ServerStream) {
    guard state.mutedByUs || state.savedVolumes != nil else { return }
    let entry =
      state.restoreName
      ?? PulseStreamRestoreEntry.name(of: stream.properties, direction: stream.key.direction)
    let repair = endpoint.flavor == .pipewire
    track {
      await self.forgetChanges(state, of: stream)
      guard repair, let entry else { return }
      await self.repairSavedState(
        entry: entry, muted: state.mutedByUs, original: state.savedVolumes)
    }
  }

  /// Runs `work` as a task the backend's stop waits for.
  func track(_ work: @escaping @Sendable () async -> Void) {
    let id = repairs.next
    repairs.next += 1
    repairs.running[id] = Task {
      await work()
      self.repairs.running[id] = nil
    }
  }

  /// Waits until every tracked repair is done.
  func waitForRepairs() async {
    while let (_, task) = repairs.running.first {
      await task.value
    }
  }

  /// The backend stops, on PipeWire: the streams undone lately whose program has exited, or that
  /// the server no longer lists, went with the change (on PulseAudio every entry is written
  /// back instead, ``restoreOtherStreams()``).
  func undoneStreamsGone() async {
    let undoneLately = report.takeUndone()
    guard !undoneLately.isEmpty, let link else { return }
    let inputs = (try? await link.context.sinkInputs()) ?? []
    let outputs = (try? await link.context.sourceOutputs()) ?? []
    for (key, undone) in undoneLately {
      let listed =
        key.direction == .playback
        ? inputs.first { $0.index == key.index }?.clientIndex
        : outputs.first { $0.index == key.index }?.clientIndex
      let exited = undone.stream.properties["application.process.id"].flatMap(Int32.init).map(
        Self.processEnded)
      guard exited == true || listed != undone.stream.clientIndex else { continue }
      configuration.logger.debug(
        "another program's stream \(key) went as its changes were undone",
        metadata: ["server": "\(serverDescription)"])
      streamWentChanged(undone.state, of: undone.stream)
    }
  }

  /// Whether the process `pid` has ended: it is gone, or a zombie (killed, and not yet reaped
  /// by its parent: it still answers `kill(pid, 0)`, and its state in `/proc/PID/stat` is `Z`).
  static func processEnded(_ pid: Int32) -> Bool {
    guard kill(pid, 0) == 0 || errno != ESRCH else { return true }
    let descriptor = open("/proc/\(pid)/stat", O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    var buffer = [UInt8](repeating: 0, count: 512)
    let count = read(descriptor, &buffer, buffer.count)
    guard count > 0 else { return false }
    // `PID (COMMAND) STATE …`: the command may hold spaces and parentheses; the state follows
    // the last ')'.
    let text = buffer.prefix(count)
    guard let end = text.lastIndex(of: UInt8(ascii: ")")), end + 2 < count else { return false }
    return text[end + 2] == UInt8(ascii: "Z")
  }

  /// How long WirePlumber is given to restore the saved state on the stream opened for it (it
  /// does so within milliseconds; a machine under load has needed more than a second).
  static let restoreWait = Duration.seconds(2)

  /// Opens a corked stream remembered under `entry` (its one property), and, once the server
  /// shows it with the mute (`muted`) or the ducked form of `original` that the entry holds,
  /// gives it what the gone stream had: WirePlumber saves that for the entry. Nothing is done
  /// when the entry holds neither (it was right already), or when the name is not one a stream
  /// can be given (an entry by media name).
  func repairSavedState(entry: String, muted: Bool, original: [PulseVolume]?) async {
    guard let (direction, key) = PulseStreamRestoreEntry.properties(ofEntry: entry) else {
      configuration.logger.debug(
        "cannot open a stream remembered as '\(entry)'; its saved state is left as it is")
      return
    }
    let logger = configuration.logger
    let ducked = original.map(duckedVolumes)
    var properties = key
    properties[PulseSimulatedDevice.Key.owner] = owner
    properties[PulseSimulatedDevice.Key.repair] = "1"
    do {
      // A context of its own, with no application id: the server copies a client's id onto its
      // streams, and the id comes before the application name in the entry's key.
      let context = try PulseContext(name: "AudioSession saved-state repair")
      defer { context.disconnect() }
      try await context.connect(to: endpoint.address, cookieFile: endpoint.cookieFile)
      let name = "restores '\(entry)'"
      let stream: PulseStream
      switch direction {
      case .playback:
        let playback = try PulsePlaybackStream(
          context: context, name: name, properties: properties, channels: original?.count ?? 2)
        try await playback.connect(corked: true)
        stream = playback
      case .record:
        let record = try PulseRecordStream(context: context, name: name, properties: properties)
        try await record.connect(corked: true)
        stream = record
      }
      defer { stream.disconnect() }
      guard let index = stream.index else { return }
      // What WirePlumber restored, once it has (it does so a moment after the stream appears).
      var restored: (muted: Bool, ducked: Bool) = (false, false)
      let clock = ContinuousClock()
      let deadline = clock.now + Self.restoreWait
      while true {
        let shown = try await Self.shown(direction, index, on: context)
        restored = (
          muted && shown.muted,
          ducked.map { Self.nearly(shown.volumes, $0) } == true
        )
        if restored.muted || restored.ducked || clock.now >= deadline { break }
        try? await TimerThread.sleep(for: .milliseconds(20))
      }
      guard restored.muted || restored.ducked else {
        logger.debug("the saved state of '\(entry)' holds no change of ours")
        return
      }
      if restored.muted {
        switch direction {
        case .playback: try await context.setSinkInputMute(index, muted: false)
        case .record:
          await withCheckedContinuation { done in
            context.setSourceOutputMute(index, muted: false) { _ in done.resume() }
          }
        }
      }
      if restored.ducked, let original {
        try await context.setSinkInputVolume(index, to: original)
      }
      // WirePlumber saves the change when it sees it on the stream: the stream stays until the
      // server shows it, and 300 ms more for WirePlumber to take it.
      let shown = try await Self.shown(direction, index, on: context)
      try? await TimerThread.sleep(for: .milliseconds(300))
      logger.info(
        "gave the saved state of '\(entry)' back what it had before a stream of it went \(restored.muted ? "muted" : "ducked")",
        metadata: ["server": "\(serverDescription)", "muted": "\(shown.muted)"])
    } catch {
      logger.debug("cannot give the saved state of '\(entry)' back: \(error)")
    }
  }

  /// The mute and channel volumes the server shows for a stream of this backend's repair.
  private static func shown(
    _ direction: ServerStream.Direction, _ index: UInt32, on context: PulseContext
  ) async throws(PulseError) -> (muted: Bool, volumes: [PulseVolume]) {
    switch direction {
    case .playback:
      guard let input = try await context.sinkInput(at: index) else { throw .noSuchEntity }
      return (input.isMuted, input.channelVolumes)
    case .record:
      guard let output = try await context.sourceOutputs().first(where: { $0.index == index })
      else { throw .noSuchEntity }
      return (output.isMuted, [])
    }
  }

  /// Whether `volumes` are `target` within 1 % of the full volume (WirePlumber keeps volumes
  /// as floats, and what it restores may differ from the server's integers by rounding).
  static func nearly(_ volumes: [PulseVolume], _ target: [PulseVolume]) -> Bool {
    guard volumes.count == target.count, !volumes.isEmpty else { return false }
    let tolerance = Int64(PulseVolume.normal.rawValue) / 100
    return zip(volumes, target).allSatisfy {
      abs(Int64($0.rawValue) - Int64($1.rawValue)) <= tolerance
    }
  }
}
