import MediaPlayer

/// A podcast app's lock-screen code in a file whose only audio import is MediaPlayer, as iOS
/// allows: it configures the audio session and publishes Now Playing information.
public final class LockScreenOnly {
  public init() {}

  public func publish(title: String) throws {
    let session = AVAudioSession.sharedInstance()
    try session.setCategory(.playback, mode: .spokenAudio, options: [])
    try session.setActive(true)
    MPNowPlayingInfoCenter.default().nowPlayingInfo = [
      MPMediaItemPropertyTitle: title,
      MPNowPlayingInfoPropertyPlaybackRate: 1.0,
    ]
  }

  public var category: AVAudioSession.Category { AVAudioSession.sharedInstance().category }

  public func clear() throws {
    MPNowPlayingInfoCenter.default().nowPlayingInfo = nil
    try AVAudioSession.sharedInstance().setActive(false)
  }
}
