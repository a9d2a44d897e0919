import AudioSession

/// What the server's stream database may hand a program's new stream because of the backend,
/// and how that is undone, as a value (docs/apps.md "WirePlumber 0.5 keeps a mute"): no I/O, and
/// the time comes in as an argument.
///
/// The database gives a new stream the volume and mute its program's last stream of the same
/// entry had (same `media.role`, else application); WirePlumber sets them a moment after the
/// stream appears. A stream the backend ducked or muted, living or gone, would so hand its
/// ducked volumes or its mute to the next one: a second music player would start muted because
/// the first was interrupted, or keep -20 dB for good. For ``window`` after it appears, a stream
/// that is muted, or at exactly such ducked volumes, without the backend having done it, gets
/// what the other had before; a ducked stream whose volumes before ducking were such inherited
/// ones gets the true ones. Any other start is the program's own.
struct StreamInheritance: Sendable {
  typealias LeftBehind = OtherStreamsModel.LeftBehind
  typealias Instant = ContinuousClock.Instant

  /// How long a new stream is watched for what it inherited (WirePlumber sets the saved values
  /// a moment after the stream appears; on a loaded machine, later), and how long an undone
  /// change may still be handed on (the server took the value before the undo reached it).
  static let window = Duration.seconds(5)

  /// A stream of another program as a snapshot shows it.
  struct Shown: Sendable, Equatable {
    var key: ServerStream.Key
    var muted: Bool
    var volumes: [PulseVolume]
  }

  /// What to do about a stream that inherited the backend's change.
  enum Fix: Sendable, Equatable {
    /// It started muted by the database: unmute it.
    case unmute(ServerStream.Key)
    /// It started at the ducked volumes: give it the volumes before ducking.
    case setVolumes(ServerStream.Key, [PulseVolume])
    /// The backend ducked it, and the volumes it saved were the inherited ducked ones: the
    /// model keeps the true ones instead (``OtherStreamsModel/replaceSaved(_:with:into:)``).
    case replaceSaved(ServerStream.Key, [PulseVolume])
  }

  /// How the streams that went while ducked or muted left their entries.
  private(set) var leftBehind: [String: LeftBehind] = [:]
  /// Changes undone lately, by entry: each distinct value once, with its latest deadline.
  private var recentlyUndone: [String: [(undone: LeftBehind, until: Instant)]] = [:]
  /// New streams being watched: their entry, until when.
  private(set) var fresh: [ServerStream.Key: (entry: String, until: Instant)] = [:]

  /// A stream of `entry` went muted or ducked as `left` says (or a killed daemon's changes file
  /// says so).
  mutating func wentChanged(_ left: LeftBehind, entry: String) {
    leftBehind[entry] = left
  }

  /// A mute or a ducking just undone on a stream of `entry`: for ``window`` the server may
  /// still hand it to a new stream of the entry. A stream muted and unmuted again and again (a
  /// call every few seconds) adds nothing new.
  mutating func undone(_ undone: LeftBehind, entry: String, at now: Instant) {
    recentlyUndone = recentlyUndone.compactMapValues { entries in
      let kept = entries.filter { $0.until > now }
      return kept.isEmpty ? nil : kept
    }
    recentlyUndone[entry, default: []].removeAll { $0.undone == undone }
    recentlyUndone[entry, default: []].append((undone, now + Self.window))
  }

  /// A playback stream of `entry` appeared: watched for ``window``.
  mutating func appeared(_ key: ServerStream.Key, entry: String, at now: Instant) {
    fresh[key] = (entry, now + Self.window)
  }

  /// What a stream of `entry` may start with because of the backend: the mute and ducked
  /// volumes of a living stream of the same entry the backend changed (`living`), of a gone one,
  /// or of one undone lately; and the volumes before the ducking. nil: nothing.
  mutating func inheritance(
    _ entry: String, living: [LeftBehind], at now: Instant
  ) -> LeftBehind? {
    var sources = living
    if let gone = leftBehind[entry] { sources.append(gone) }
    recentlyUndone[entry]?.removeAll { $0.until <= now }
    sources += recentlyUndone[entry, default: []].map(\.undone)
    guard sources.contains(where: { $0.muted || $0.ducked != nil }) else { return nil }
    let ducking = sources.first { $0.ducked != nil }
    return LeftBehind(
      muted: sources.contains { $0.muted }, ducked: ducking?.ducked, original: ducking?.original)
  }

  /// A snapshot's playback streams: the fixes for the watched ones that inherited a change.
  /// `living(entry, key)` lists what the backend has changed on the other living streams of the
  /// entry; `changed(key)` what it has changed on this one (nil: nothing). The fixes are
  /// idempotent: once made, their condition no longer holds. A stream gone, or past its window,
  /// is no longer watched.
  mutating func fixes(
    _ shown: [Shown], at now: Instant,
    living: (String, ServerStream.Key) -> [LeftBehind],
    changed: (ServerStream.Key) -> OtherStreamsModel.StreamState?
  ) -> [Fix] {
    guard !fresh.isEmpty else { return [] }
    var fixes: [Fix] = []
    for stream in shown {
      guard let watched = fresh[stream.key], now < watched.until,
        let inherited = inheritance(
          watched.entry, living: living(watched.entry, stream.key), at: now)
      else { continue }
      let state = changed(stream.key)
      if inherited.muted, stream.muted, state?.mutedByUs != true {
        fixes.append(.unmute(stream.key))
      }
      guard let ducked = inherited.ducked, let original = inherited.original else { continue }
      if state?.savedVolumes == nil, stream.volumes == ducked {
        fixes.append(.setVolumes(stream.key, original))
      } else if state?.savedVolumes == ducked {
        fixes.append(.replaceSaved(stream.key, original))
      }
    }
    let keys = Set(shown.map(\.key))
    fresh = fresh.filter { key, watched in now < watched.until && keys.contains(key) }
    return fixes
  }
}
