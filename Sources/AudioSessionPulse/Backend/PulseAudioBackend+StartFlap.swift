import AudioSession
import AudioSessionSystem
import Logging

/// Carries out ``StartCorkFilter``'s checks: a held start-up cork is looked at again on the
/// server ``flapHold`` later (docs/apps.md "A cork as a stream starts").
extension PulseAudioBackend {
  /// How long a start-up cork is held before it is reported.
  static let flapHold: Duration = .milliseconds(250)

  /// Whether the cork a playback stream shows is held (it is reported as playing). Called for
  /// every stream of every snapshot reported: it notes which streams have played.
  func holdsStartCork(_ key: ServerStream.Key, corked: Bool) -> Bool {
    let seen = startCorks.see(key, corked: corked) { pausedByUs(key) }
    if seen.check {
      configuration.logger.debug("another program's stream \(key) corked as it started: held")
      checkStartCork(key, after: Self.flapHold)
    }
    return seen.held
  }

  /// Whether the stream's session is interrupted or paused by the system: its cork may be the
  /// answer to the Pause its player was sent.
  private func pausedByUs(_ key: ServerStream.Key) -> Bool {
    guard let session = otherAssignment.sessions[key] else { return false }
    if ownModel.pausedBySystem.contains(session)
      || otherModel.heldAfterInterruption.contains(session)
    {
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
    guard startCorks.awaitsAnswer(key), !stopped, let link else { return }
    let input = try? await link.context.sinkInput(at: key.index)
    guard !stopped, let answer = startCorks.checked(key, corked: input?.isCorked ?? true) else {
      return
    }
    switch answer {
    case .askAgain: checkStartCork(key, after: .milliseconds(100))
    case .released: if let snapshot { reportOtherStreams(snapshot) }
    }
  }
}
