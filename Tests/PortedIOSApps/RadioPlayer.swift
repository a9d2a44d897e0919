import AVFoundation
import MediaPlayer

/// A radio app's lock-screen controls: Now Playing information and the remote commands' handlers,
/// as iOS apps set them up.
public final class RadioPlayer {
  public private(set) var isPlaying = false
  private var targets: [Any] = []

  public init() {}

  public func start(station: String) throws {
    let session = AVAudioSession.sharedInstance()
    try session.setCategory(.playback, mode: .default, policy: .longFormAudio)
    try session.setActive(true)
    isPlaying = true
    MPNowPlayingInfoCenter.default().nowPlayingInfo = [
      MPMediaItemPropertyTitle: station,
      MPNowPlayingInfoPropertyIsLiveStream: true,
      MPNowPlayingInfoPropertyPlaybackRate: 1.0,
    ]
    let commands = MPRemoteCommandCenter.shared()
    commands.nextTrackCommand.isEnabled = false
    targets.append(
      commands.pauseCommand.addTarget { [weak self] _ in
        guard let self = self, self.isPlaying else { return .commandFailed }
        self.isPlaying = false
        return .success
      })
    targets.append(
      commands.playCommand.addTarget { [weak self] _ in
        guard let self = self else { return .commandFailed }
        do {
          try AVAudioSession.sharedInstance().setActive(true)
          self.isPlaying = true
          return .success
        } catch {
          return .commandFailed
        }
      })
  }

  public func stop() throws {
    let commands = MPRemoteCommandCenter.shared()
    commands.pauseCommand.removeTarget(nil)
    commands.playCommand.removeTarget(nil)
    targets.removeAll()
    MPNowPlayingInfoCenter.default().nowPlayingInfo = nil
    isPlaying = false
    try AVAudioSession.sharedInstance().setActive(false, options: .notifyOthersOnDeactivation)
  }
}
