#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The state of the real media server a backend talks to, as `status` shows it (docs/protocol.md
/// "The server in `status`"):
/// connected, or lost and being reconnected since when. The simulated backend has none.
public struct MediaServerStatus: Sendable, Hashable {
  /// Where the backend stands with its server.
  public enum State: Sendable, Hashable {
    /// Connected since `since`.
    case connected(since: WallTime)
    /// The connection was lost at `since`; the backend has tried `attempts` times to connect
    /// again and keeps trying.
    case reconnecting(since: WallTime, attempts: Int)
  }

  /// What the server is: `PulseAudio server`, `PipeWire server`, `private PulseAudio server`.
  public var name: String
  /// Its address (`unix:/run/user/1000/pulse/native`), or nil for the environment's default.
  public var address: String?
  public var state: State

  public init(name: String, address: String?, state: State) {
    self.name = name
    self.address = address
    self.state = state
  }

  /// `connected` or `reconnecting`.
  public var stateName: String {
    switch state {
    case .connected: "connected"
    case .reconnecting: "reconnecting"
    }
  }
}

/// A moment of the wall clock, to the second, as people and scripts read it.
public struct WallTime: Sendable, Hashable, Comparable {
  /// Seconds since 1970-01-01 00:00:00 UTC.
  public var seconds: Int

  public init(seconds: Int) { self.seconds = seconds }

  /// Now.
  public static func now() -> WallTime { WallTime(seconds: Int(time(nil))) }

  public static func < (lhs: WallTime, rhs: WallTime) -> Bool { lhs.seconds < rhs.seconds }

  /// `2026-11-24T06:30:00Z` (ISO 8601, UTC).
  public var iso8601: String {
    var value = time_t(seconds)
    var parts = tm()
    gmtime_r(&value, &parts)
    func two(_ number: Int32) -> String { number < 10 ? "0\(number)" : "\(number)" }
    return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T"
      + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
  }

  /// Reads ``iso8601``'s form back; nil for anything else.
  public init?(iso8601 text: String) {
    let digits = text.utf8.map { Int($0) - 48 }
    guard text.utf8.count == 20, Array(text.utf8)[19] == UInt8(ascii: "Z") else { return nil }
    func number(_ range: Range<Int>) -> Int? {
      var value = 0
      for index in range {
        guard (0...9).contains(digits[index]) else { return nil }
        value = value * 10 + digits[index]
      }
      return value
    }
    guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
      let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
      (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
    else { return nil }
    var parts = tm()
    parts.tm_year = Int32(year - 1900)
    parts.tm_mon = Int32(month - 1)
    parts.tm_mday = Int32(day)
    parts.tm_hour = Int32(hour)
    parts.tm_min = Int32(minute)
    parts.tm_sec = Int32(second)
    self.seconds = Int(timegm(&parts))
  }
}
