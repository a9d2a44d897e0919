package import AudioSession
package import AudioSessionSystem

/// What the app's own MPRIS player shows (``MPRISPlayerService``; docs/ios-compat.md "MediaPlayer
/// over MPRIS"): the properties of `org.mpris.MediaPlayer2.Player`, as the app's Now Playing
/// information and remote commands make them. Built by the `MediaPlayer` module; the service
/// only publishes it.
package struct MPRISPlayerState: Sendable, Equatable {
  package var playbackStatus: PlaybackStatus
  /// `Rate`: never 0 (the MPRIS specification forbids it; a paused player says so with its
  /// status), so the rate playback resumes at.
  package var rate: Double
  package var minimumRate: Double
  package var maximumRate: Double
  package var metadata: MPRISMetadata
  package var position: MPRISPosition
  package var canPlay: Bool
  package var canPause: Bool
  package var canGoNext: Bool
  package var canGoPrevious: Bool
  package var canSeek: Bool

  package init(
    playbackStatus: PlaybackStatus = .stopped, rate: Double = 1, minimumRate: Double = 1,
    maximumRate: Double = 1, metadata: MPRISMetadata = MPRISMetadata(),
    position: MPRISPosition = MPRISPosition(), canPlay: Bool = false, canPause: Bool = false,
    canGoNext: Bool = false, canGoPrevious: Bool = false, canSeek: Bool = false
  ) {
    self.playbackStatus = playbackStatus
    self.rate = rate
    self.minimumRate = minimumRate
    self.maximumRate = maximumRate
    self.metadata = metadata
    self.position = position
    self.canPlay = canPlay
    self.canPause = canPause
    self.canGoNext = canGoNext
    self.canGoPrevious = canGoPrevious
    self.canSeek = canSeek
  }

  /// The properties whose change is signalled (`PropertiesChanged`) that differ from `old`'s.
  /// `Position` is not among them: MPRIS clients compute it from `Rate`, or read it.
  package func changedProperties(from old: MPRISPlayerState) -> [String] {
    var names: [String] = []
    if playbackStatus != old.playbackStatus { names.append("PlaybackStatus") }
    if rate != old.rate { names.append("Rate") }
    if minimumRate != old.minimumRate { names.append("MinimumRate") }
    if maximumRate != old.maximumRate { names.append("MaximumRate") }
    if metadata != old.metadata { names.append("Metadata") }
    if canPlay != old.canPlay { names.append("CanPlay") }
    if canPause != old.canPause { names.append("CanPause") }
    if canGoNext != old.canGoNext { names.append("CanGoNext") }
    if canGoPrevious != old.canGoPrevious { names.append("CanGoPrevious") }
    if canSeek != old.canSeek { names.append("CanSeek") }
    return names
  }

  /// The position a client extrapolating from `old` would not expect (the app seeked), for the
  /// `Seeked` signal: nil when the track changed (its `Metadata` says so) or the new position is
  /// within ``MPRISPosition/seekTolerance`` of the extrapolated one.
  package func seeked(from old: MPRISPlayerState, at now: MonotonicInstant) -> Int64? {
    guard metadata.trackID != nil, metadata.trackID == old.metadata.trackID,
      position != old.position
    else { return nil }
    let new = position.microseconds(at: now)
    let expected = old.position.microseconds(at: now)
    return abs(new - expected) > MPRISPosition.seekTolerance ? new : nil
  }
}

/// `Metadata`: the current track (MPRIS's metadata guidelines, `mpris:` and `xesam:` keys).
package struct MPRISMetadata: Sendable, Equatable {
  /// `mpris:trackid`, an object path; nil when there is no track (the map is then empty).
  package var trackID: String?
  package var title: String?
  package var artists: [String]
  package var album: String?
  package var albumArtists: [String]
  /// `mpris:length`, microseconds.
  package var length: Int64?
  package var url: String?

  package init(
    trackID: String? = nil, title: String? = nil, artists: [String] = [], album: String? = nil,
    albumArtists: [String] = [], length: Int64? = nil, url: String? = nil
  ) {
    self.trackID = trackID
    self.title = title
    self.artists = artists
    self.album = album
    self.albumArtists = albumArtists
    self.length = length
    self.url = url
  }
}

/// Where playback is: `elapsed` seconds at `since`, advancing at `rate` (0 unless playing), as
/// iOS extrapolates `MPNowPlayingInfoPropertyElapsedPlaybackTime` from the playback rate.
package struct MPRISPosition: Sendable, Equatable {
  package var elapsed: Double
  package var since: MonotonicInstant
  package var rate: Double
  /// The track's length in microseconds, which the position does not pass.
  package var length: Int64?

  /// How far (microseconds) a new position may be from the extrapolated one without being a
  /// seek: apps update the elapsed time with some drift.
  static let seekTolerance: Int64 = 1_000_000

  package init(
    elapsed: Double = 0, since: MonotonicInstant = MonotonicInstant(nanoseconds: 0),
    rate: Double = 0, length: Int64? = nil
  ) {
    self.elapsed = elapsed
    self.since = since
    self.rate = rate
    self.length = length
  }

  /// `Position` at `now`, microseconds, between 0 and the length.
  package func microseconds(at now: MonotonicInstant) -> Int64 {
    var seconds = elapsed
    if rate != 0, now > since {
      seconds += rate * Double(now.nanoseconds - since.nanoseconds) / 1e9
    }
    guard seconds.isFinite, seconds > 0 else { return 0 }
    let micros = seconds * 1e6 < Double(Int64.max) ? Int64(seconds * 1e6) : Int64.max
    return length.map { min(micros, $0) } ?? micros
  }
}

/// A method of `org.mpris.MediaPlayer2.Player` called by a client (or a write of `Rate`), for
/// the app to turn into a remote command.
package enum MPRISPlayerCall: Sendable, Hashable {
  case play, pause, playPause, stop, next, previous
  /// `Seek`: microseconds from the current position (negative: back).
  case seek(offset: Int64)
  /// `SetPosition`: the track it was meant for and the position, microseconds.
  case setPosition(trackID: String, position: Int64)
  /// A write of `Rate`.
  case setRate(Double)
}
