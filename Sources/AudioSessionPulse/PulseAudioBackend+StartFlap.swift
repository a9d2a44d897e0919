import AudioSession
import AudioSessionSystem
import Logging

/// A program whose stream corks for a moment as it starts (espeak-ng corks about 15 ms after
/// its first samples and plays on at once, measured on PipeWire 1.4 and PulseAudio 16.1): were
/// that cork reported, its app session would deactivate and activate again within milliseconds,
/// and a player it interrupts would be sent Pause, Play and nothing more, playing on muted
/// (docs/apps.md "A cork as a stream starts"). The first cork of a playback stream that has
/// played is held, reported only if the server still shows it corked ``flapHold`` later; never
/// that of a stream whose session is interrupted or paused by the system (its cork answers our
/// Pause), and only once per stream. No clock decides which cork is the flap: on a busy machine
/// the backend sees a cork made 15 ms after the start seconds later (measured under load with six
/// daemons at once), and a program's first real pause is only reported ``flapHold`` late.
extension PulseAudioBackend {
  /// How long a start-up cork is held before it is reported.
  static let flapHold: Duration = .milliseconds(250)

  /// One stream's start, noted once it has played: whether its cork is held, whether the cork
  /// was found to last (released: reported), and whether its one flap is over.
  struct StartFlap: Sendable {
    var held = false
    var released = false
    var settled = false
  }

  /// Whether the cork a playback stream shows is held (it is reported as playing). Called for
  /// every stream of every snapshot reported: it notes which streams have played.
  func holdsStartCork(_ key: ServerStream.Key, corked: Bool) -> Bool {
    guard var flap = startFlaps[key] else {
      if !corked { startFlaps[key] = StartFlap() }
      return false
    }
    guard !flap.settled else { return false }
    defer { startFlaps[key] = flap }
    guard corked else {
      // It played again: the flap is over, and the next cork is the program's pause.
      if flap.held { flap.settled = true }
      return false
    }
    guard flap.held else {
      guard !pausedByUs(key) else {
        flap.settled = true
        return false
      }
      flap.held = true
      configuration.logger.debug("another program's stream \(key) corked as it started: held")
      checkStartCork(key, after: Self.flapHold)
      return true
    }
    if flap.released { flap.settled = true }
    return !flap.released
  }

  /// Whether the stream's session is interrupted or paused by the system: its cork may be the
  /// answer to the Pause its player was sent.
  private func pausedByUs(_ key: ServerStream.Key) -> Bool {
    guard let session = otherAssignment.sessions[key] else { return false }
    if ownModel.pausedBySystem.contains(session) || heldAfterInterruption.contains(session) {
      return true
    }
    return lastStatus?.sessions.first { $0.name == session }?.interrupted == true
  }

  /// Asks the server, after `delay`, whether a held stream is still corked: the snapshots may
  /// come late on a busy machine, and the server's answer comes after every change it made
  /// before it. Still corked: the cork lasted, and is reported; playing again: held until a
  /// snapshot shows it so, and asked again meanwhile.
  private func checkStartCork(_ key: ServerStream.Key, after delay: Duration) {
    Task { [weak self] in
      try? await TimerThread.sleep(for: delay)
      await self?.startCorkChecked(key)
    }
  }

  private func startCorkChecked(_ key: ServerStream.Key) async {
    guard let flap = startFlaps[key], !flap.settled, !flap.released, !stopped, let link else {
      return
    }
    let input = try? await link.context.sinkInput(at: key.index)
    guard var latest = startFlaps[key], !latest.settled, !latest.released, !stopped else { return }
    if let input, !input.isCorked {
      checkStartCork(key, after: .milliseconds(100))
      return
    }
    latest.released = true
    startFlaps[key] = latest
    if let snapshot { reportOtherStreams(snapshot) }
  }
}
