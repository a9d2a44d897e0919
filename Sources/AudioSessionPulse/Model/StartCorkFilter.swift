import AudioSession

/// Which corks of other programs' playback streams are a start-up flap, as a value
/// (docs/apps.md "A cork as a stream starts"): no I/O and no clock. The backend asks it about
/// every playback stream of every snapshot it reports, asks the server later when it says so,
/// and hands it the answer.
///
/// A program may cork its stream for a moment as it starts (espeak-ng corks about 15 ms after
/// its first samples and plays on at once, measured on PipeWire 1.4 and PulseAudio 16.1): were
/// that cork reported, its app session would deactivate and activate again within milliseconds,
/// and a player it interrupts would be sent Pause, Play and nothing more, playing on muted. So
/// the first cork of a playback stream that has played is held (reported as playing) until the
/// server, asked a moment later, still shows it corked; never that of a stream whose session is
/// interrupted or paused by the system (its cork answers our Pause), and only once per stream.
/// No clock decides which cork is the flap: on a busy machine the backend sees a cork made 15 ms
/// after the start seconds later, and a program's first real pause is only reported a moment
/// late.
struct StartCorkFilter: Sendable, Equatable {
  /// One stream's start, noted once it has played.
  struct Flap: Sendable, Equatable {
    /// Its first cork is being held.
    var held = false
    /// The server still showed it corked when asked: the cork is reported.
    var released = false
    /// Its one flap is over (or will never be): every cork from now on is reported.
    var settled = false
  }

  /// What to do about a stream shown in a snapshot.
  struct Seen: Sendable, Equatable {
    /// Its cork is held: report it as playing.
    var held: Bool
    /// A hold began: ask the server in a moment whether it is still corked
    /// (``checked(_:corked:)``).
    var check: Bool
  }

  /// What the server's answer means.
  enum Answer: Sendable, Equatable {
    /// Still corked (or gone): the cork lasted, and is reported from now on.
    case released
    /// Playing again: still held until a snapshot shows it playing; ask again.
    case askAgain
  }

  private(set) var flaps: [ServerStream.Key: Flap] = [:]

  /// A playback stream as a snapshot shows it; `pausedByUs` says whether its session is
  /// interrupted or paused by the system (asked only for a stream's first cork).
  mutating func see(
    _ key: ServerStream.Key, corked: Bool, pausedByUs: () -> Bool
  ) -> Seen {
    let report = Seen(held: false, check: false)
    guard var flap = flaps[key] else {
      // Noted once it has played; a stream that starts corked has made no flap.
      if !corked { flaps[key] = Flap() }
      return report
    }
    guard !flap.settled else { return report }
    defer { flaps[key] = flap }
    guard corked else {
      // It played again: the flap is over, and the next cork is the program's pause.
      if flap.held { flap.settled = true }
      return report
    }
    guard flap.held else {
      guard !pausedByUs() else {
        flap.settled = true
        return report
      }
      flap.held = true
      return Seen(held: true, check: true)
    }
    if flap.released { flap.settled = true }
    return Seen(held: !flap.released, check: false)
  }

  /// Whether a check of the stream is still wanted: its cork is held and not released.
  func awaitsAnswer(_ key: ServerStream.Key) -> Bool {
    guard let flap = flaps[key] else { return false }
    return flap.held && !flap.released && !flap.settled
  }

  /// The server's answer for a held stream (`corked`: still corked, or gone); nil when none is
  /// awaited any more.
  mutating func checked(_ key: ServerStream.Key, corked: Bool) -> Answer? {
    guard awaitsAnswer(key) else { return nil }
    guard corked else { return .askAgain }
    flaps[key]?.released = true
    return .released
  }

  /// The stream went (or its index is another's now).
  mutating func forget(_ key: ServerStream.Key) {
    flaps[key] = nil
  }
}
