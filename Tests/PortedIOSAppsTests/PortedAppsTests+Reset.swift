#if canImport(PortedIOSApps)
  import AVFAudio
  import AudioSession
  import AudioSessionClient
  import Foundation
  import MediaPlayer
  import Testing

  // Tests that bind the shared session one after another: the Now Playing role follows the
  // binding, and one call clears what a test leaves (docs/ios-compat.md "Where
  // `sharedInstance()` lives").
  extension PortedAppsTests {
    /// Records the interruption reasons posted on the default center.
    final class ReasonRecorder: @unchecked Sendable {
      private let lock = NSLock()
      private var reasons: [UInt] = []
      private var token: (any NSObjectProtocol)?

      init() {
        token = NotificationCenter.default.addObserver(
          forName: AVAudioSession.interruptionNotification, object: nil, queue: nil
        ) { [weak self] notification in
          guard let reason = notification.userInfo?[AVAudioSessionInterruptionReasonKey] as? UInt
          else { return }
          self?.lock.withLock { self?.reasons.append(reason) }
        }
      }

      deinit { token.map(NotificationCenter.default.removeObserver) }

      var recorded: [UInt] { lock.withLock { reasons } }
    }

    @Test(
      "Now Playing information set again after a rebinding makes the new shared session Now Playing, and iOS 17's route-disconnect interruption reaches it (docs/ios-compat.md MediaPlayer, docs/avaudiosession.md §13.5)"
    )
    func nowPlaying_afterRebinding_followsTheSharedSession() async throws {
      let first = try Rig.engine()
      MPNowPlayingInfoCenter.default().nowPlayingInfo = [MPMediaItemPropertyTitle: "One"]
      let firstName = AVAudioSession.sharedInstance().name
      #expect(await first.status().sessions.first { $0.name == firstName }?.nowPlaying == true)
      await first.stop()
      // A second test's engine; the information left by the first is still set.
      let second = try Rig.engine()
      let session = AVAudioSession.sharedInstance()
      try session.setCategory(.playback)
      try session.setActive(true)
      try session.setPlaying(true)
      try second.simulate(.plug(preset: "headphones"))
      MPNowPlayingInfoCenter.default().nowPlayingInfo = [MPMediaItemPropertyTitle: "Two"]
      #expect(await second.status().sessions.first { $0.name == session.name }?.nowPlaying == true)
      let recorder = ReasonRecorder()
      try second.simulate(.unplug("headphones"))
      #expect(
        Self.eventually {
          recorder.recorded.contains(AVAudioSession.InterruptionReason.routeDisconnected.rawValue)
        })
      AVAudioSession.resetSharedState()
      await second.stop()
    }

    @Test(
      "resetSharedState clears the shared session, the Now Playing information and the command targets (docs/ios-compat.md Where sharedInstance() lives)"
    )
    func resetSharedState_clearsSessionInfoAndTargets() async throws {
      let rig = try Rig.engine()
      let old = AVAudioSession.sharedInstance()
      try old.setCategory(.playback)
      MPNowPlayingInfoCenter.default().nowPlayingInfo = [MPMediaItemPropertyTitle: "One"]
      MPNowPlayingInfoCenter.default().playbackState = .playing
      let commands = MPRemoteCommandCenter.shared()
      commands.playCommand.addTarget { _ in .success }
      commands.nextTrackCommand.isEnabled = false
      #expect(commands.playCommand.send() == .success)
      AVAudioSession.resetSharedState()
      #expect(MPNowPlayingInfoCenter.default().nowPlayingInfo == nil)
      #expect(MPNowPlayingInfoCenter.default().playbackState == .unknown)
      #expect(commands.playCommand.send() == .noSuchContent)
      #expect(commands.nextTrackCommand.isEnabled)
      #expect(AVAudioSession.sharedInstance() !== old)
      #expect(await rig.status().sessions.first { $0.name == old.name } == nil)
      await rig.stop()
    }
  }
#endif
