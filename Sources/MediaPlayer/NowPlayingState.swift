import AudioSession
import AudioSessionMPRISPlayer
import AudioSessionSystem
import Foundation

/// How the app's Now Playing information and commands become its MPRIS player's properties
/// (docs/ios-compat.md "MediaPlayer over MPRIS"). Pure.
enum NowPlayingState {
  /// Where `mpris:trackid` paths live (the specification keeps `/org/mpris` for itself).
  static let trackPrefix = "/org/audiosession/MediaPlayer/track"

  static func make(
    info: [String: Any]?, since: MonotonicInstant, playbackState: MPNowPlayingPlaybackState,
    commands: MPRemoteCommandCenter, trackNumber: Int?
  ) -> MPRISPlayerState {
    // Apple: a missing playback rate is 1.0.
    let rate = number(info?[MPNowPlayingInfoPropertyPlaybackRate]) ?? 1
    let defaultRate =
      number(info?[MPNowPlayingInfoPropertyDefaultPlaybackRate]).flatMap { $0 > 0 ? $0 : nil } ?? 1
    let status: PlaybackStatus =
      switch playbackState {
      case .playing: .playing
      case .paused, .interrupted: .paused
      case .stopped: .stopped
      case .unknown: info == nil ? .stopped : rate != 0 ? .playing : .paused
      }
    // MPRIS's Rate is never 0: paused, it is the rate playback resumes at.
    let shownRate = status == .playing && rate != 0 ? rate : defaultRate
    var rates = [1, shownRate, defaultRate]
    if commands.changePlaybackRateCommand.isAvailable {
      rates += commands.changePlaybackRateCommand.supportedPlaybackRates.map(\.doubleValue)
    }
    let length = number(info?[MPMediaItemPropertyPlaybackDuration]).flatMap { seconds in
      seconds.isFinite && seconds > 0 && seconds < 9e12 ? Int64(seconds * 1e6) : nil
    }
    var metadata = MPRISMetadata()
    if let info, let trackNumber {
      metadata = MPRISMetadata(
        trackID: "\(trackPrefix)\(trackNumber)", title: string(info[MPMediaItemPropertyTitle]),
        artists: string(info[MPMediaItemPropertyArtist]).map { [$0] } ?? [],
        album: string(info[MPMediaItemPropertyAlbumTitle]),
        albumArtists: string(info[MPMediaItemPropertyAlbumArtist]).map { [$0] } ?? [],
        length: length, url: string(info[MPNowPlayingInfoPropertyAssetURL]))
    }
    let position = MPRISPosition(
      elapsed: number(info?[MPNowPlayingInfoPropertyElapsedPlaybackTime]) ?? 0, since: since,
      rate: status == .playing ? shownRate : 0, length: length)
    let play = commands.playCommand.isAvailable
    let pause = commands.pauseCommand.isAvailable
    let toggle = commands.togglePlayPauseCommand.isAvailable
    return MPRISPlayerState(
      playbackStatus: status, rate: shownRate, minimumRate: rates.min() ?? 1,
      maximumRate: rates.max() ?? 1, metadata: metadata, position: position,
      // The specification: a playing track can be played, a paused one paused.
      canPlay: play || toggle || status == .playing, canPause: pause || toggle || status == .paused,
      canGoNext: commands.nextTrackCommand.isAvailable,
      canGoPrevious: commands.previousTrackCommand.isAvailable,
      canSeek: commands.changePlaybackPositionCommand.isAvailable
        || commands.skipForwardCommand.isAvailable || commands.skipBackwardCommand.isAvailable)
  }

  /// What makes a track another one: a new number (`mpris:trackid`) when it changes.
  static func trackIdentity(_ info: [String: Any]) -> [String] {
    [
      MPMediaItemPropertyPersistentID, MPMediaItemPropertyTitle, MPMediaItemPropertyArtist,
      MPMediaItemPropertyAlbumTitle, MPMediaItemPropertyPlaybackDuration,
      MPNowPlayingInfoPropertyAssetURL,
    ].map { key in info[key].map { "\($0)" } ?? "" }
  }

  /// A number as iOS apps put it in the dictionary: a `Double`, another number type, or an
  /// `NSNumber`.
  static func number(_ value: Any?) -> Double? {
    switch value {
    case let number as Double: number
    case let number as NSNumber: number.doubleValue
    case let number as any BinaryInteger: Double(number)
    case let number as any BinaryFloatingPoint: Double(number)
    default: nil
    }
  }

  /// A text: a `String`, an `NSString`, or a URL (`MPNowPlayingInfoPropertyAssetURL`).
  static func string(_ value: Any?) -> String? {
    switch value {
    case let text as String: text
    case let text as NSString: String(describing: text)
    case let url as URL: url.absoluteString
    case let url as NSURL: url.absoluteString
    default: nil
    }
  }
}
