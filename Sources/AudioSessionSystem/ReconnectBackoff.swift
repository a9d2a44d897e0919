/// The delays between attempts to reach a daemon that went away: 50 ms, doubling up to one
/// second, so that a restarted daemon is found at once and a stopped one costs one attempt a
/// second. The client library's sessions and `sessionctl watch` reconnect with it; the PulseAudio
/// backend, with delays of its own configuration.
public struct ReconnectBackoff: Sendable, Hashable {
  /// The delay before the first attempt.
  public static let first: Duration = .milliseconds(50)
  /// The longest delay between attempts.
  public static let longest: Duration = .seconds(1)

  private var upcoming: Duration
  private let longest: Duration

  /// Delays from `first`, doubling up to `longest`.
  public init(first: Duration = Self.first, longest: Duration = Self.longest) {
    upcoming = first
    self.longest = longest
  }

  /// The delay to wait before the next attempt; each call doubles the following one, up to
  /// the longest delay.
  public mutating func nextDelay() -> Duration {
    let delay = upcoming
    upcoming = min(upcoming * 2, longest)
    return delay
  }
}
