import AudioSessionClient
import AudioSessionSystem
public import Foundation

// `import MediaPlayer` on Linux, the Now Playing part: an app's Now Playing information, which
// makes its session the system's Now Playing app in the engine (docs/ios-compat.md "MediaPlayer")
// and is served, with the remote commands, as the process's MPRIS player on the session bus
// (NowPlayingService; docs/ios-compat.md "MediaPlayer over MPRIS"). Linux only (Package.swift).

public let MPMediaItemPropertyTitle = "title"
public let MPMediaItemPropertyArtist = "artist"
public let MPMediaItemPropertyAlbumTitle = "albumTitle"
public let MPMediaItemPropertyAlbumArtist = "albumArtist"
public let MPMediaItemPropertyPlaybackDuration = "playbackDuration"
public let MPMediaItemPropertyArtwork = "artwork"
public let MPMediaItemPropertyMediaType = "mediaType"
public let MPMediaItemPropertyPersistentID = "persistentID"
public let MPNowPlayingInfoPropertyElapsedPlaybackTime =
  "MPNowPlayingInfoPropertyElapsedPlaybackTime"
public let MPNowPlayingInfoPropertyPlaybackRate = "MPNowPlayingInfoPropertyPlaybackRate"
public let MPNowPlayingInfoPropertyDefaultPlaybackRate =
  "MPNowPlayingInfoPropertyDefaultPlaybackRate"
public let MPNowPlayingInfoPropertyPlaybackQueueIndex = "MPNowPlayingInfoPropertyPlaybackQueueIndex"
public let MPNowPlayingInfoPropertyPlaybackQueueCount = "MPNowPlayingInfoPropertyPlaybackQueueCount"
public let MPNowPlayingInfoPropertyIsLiveStream = "MPNowPlayingInfoPropertyIsLiveStream"
public let MPNowPlayingInfoPropertyMediaType = "MPNowPlayingInfoPropertyMediaType"
public let MPNowPlayingInfoPropertyAssetURL = "MPNowPlayingInfoPropertyAssetURL"

/// `MPNowPlayingPlaybackState`.
public enum MPNowPlayingPlaybackState: UInt, Sendable, Hashable {
  case unknown = 0
  case playing = 1
  case paused = 2
  case stopped = 3
  case interrupted = 4
}

/// `MPNowPlayingInfoType` (`MPNowPlayingInfoPropertyMediaType`'s values).
public enum MPNowPlayingInfoMediaType: UInt, Sendable, Hashable {
  case none = 0
  case audio = 1
  case video = 2
}

/// `MPNowPlayingInfoCenter`: setting `nowPlayingInfo` (non-nil) makes the app's shared session
/// the Now Playing app in the engine (`setNowPlaying(true)`, as `now-playing on`), as iOS makes an
/// app that publishes Now Playing information and plays; nil gives the role up. The information
/// is also the process's MPRIS player's (its title, position, playback status…).
open class MPNowPlayingInfoCenter: NSObject, @unchecked Sendable {
  private static let shared: MPNowPlayingInfoCenter = {
    let center = MPNowPlayingInfoCenter()
    AVAudioSession.onResetSharedState { [weak center] in center?.clear() }
    return center
  }()

  /// `default()`.
  open class func `default`() -> MPNowPlayingInfoCenter { shared }

  private let lock = NSLock()
  private var info: [String: Any]?
  /// When `info` was set: the elapsed time it gives advances from then at its playback rate.
  private var infoSince = MonotonicInstant.now()
  private var state = MPNowPlayingPlaybackState.unknown
  /// The session given the Now Playing role: the shared session when the information was set.
  private weak var roleOwner: AVAudioSession?

  /// `nowPlayingInfo`.
  open var nowPlayingInfo: [String: Any]? {
    get {
      lock.lock()
      defer { lock.unlock() }
      return info
    }
    set {
      // The role follows the shared session: set again after the shared session was bound
      // elsewhere (`useInProcessEngine`), the information makes the new one Now Playing.
      let session = AVAudioSession.sharedInstance()
      lock.lock()
      let owner = roleOwner
      info = newValue
      infoSince = MonotonicInstant.now()
      roleOwner = newValue == nil ? nil : session
      lock.unlock()
      NowPlayingService.shared.changed()
      if newValue != nil, owner !== session {
        try? session.setNowPlaying(true)
      } else if newValue == nil, let owner {
        try? owner.setNowPlaying(false)
      }
    }
  }

  /// ``AVAudioSession/resetSharedState()``: no information, state unknown, no role.
  private func clear() {
    lock.lock()
    info = nil
    state = .unknown
    roleOwner = nil
    infoSince = MonotonicInstant.now()
    lock.unlock()
    NowPlayingService.shared.changed()
  }

  /// The information and when it was set.
  var infoAndTime: ([String: Any]?, MonotonicInstant) {
    lock.lock()
    defer { lock.unlock() }
    return (info, infoSince)
  }

  /// `playbackState` (iOS reads it on macOS and Mac Catalyst only): when not `unknown`, it is
  /// the MPRIS player's `PlaybackStatus` (`interrupted` shows as `Paused`), instead of the one
  /// the playback rate gives.
  open var playbackState: MPNowPlayingPlaybackState {
    get {
      lock.lock()
      defer { lock.unlock() }
      return state
    }
    set {
      lock.lock()
      state = newValue
      lock.unlock()
      NowPlayingService.shared.changed()
    }
  }
}
