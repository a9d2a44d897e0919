/// Streams of other programs on the media server, which the daemon arbitrates as app sessions
/// (docs/apps.md). The backend reports them; the host decides which session each belongs to and
/// tells the backend (``StreamAssignment``), and the backend carries the engine's decisions out on
/// them as it does on the daemon's own streams.

/// One playback or record stream of a program other than the daemon, as the server shows it.
public struct ServerStream: Sendable, Hashable {
  public enum Direction: String, Sendable, Hashable, CaseIterable {
    /// A sink input.
    case playback
    /// A source output.
    case record
  }

  /// A stream's identity on the server: its index and direction (a sink input and a source
  /// output may share an index).
  public struct Key: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var direction: Direction
    public var index: UInt32

    public init(_ direction: Direction, _ index: UInt32) {
      self.direction = direction
      self.index = index
    }

    public static func < (lhs: Key, rhs: Key) -> Bool {
      (lhs.direction.rawValue, lhs.index) < (rhs.direction.rawValue, rhs.index)
    }

    public var description: String { "\(direction.rawValue) stream #\(index)" }
  }

  public var key: Key
  /// The stream's string properties with its client's merged in (the stream's win):
  /// `media.role`, `application.name`, `application.process.id`,
  /// `application.process.binary`, `audiosession.session`, `pipewire.access.portal.app_id`…
  public var properties: [String: String]
  /// The key a backend adds, with the claimed pid as its value, to a stream whose
  /// `application.process.id` does not check out against what the kernel says (another
  /// program's pid, claimed through `PULSE_PROP`): the stream is then taken as naming no
  /// process, so that it is never matched to that process's session or media players
  /// (docs/apps.md "Sessions of other programs"). A program that sets it itself only gives up
  /// its own pid.
  public static let unverifiedProcessKey = "audiosession.process.unverified"
  /// The server's client index, which groups the streams of a program that reports no process id.
  public var clientIndex: UInt32?
  /// Corked (paused by its own program): an app session is playing while one of its streams is
  /// not corked.
  public var isCorked: Bool

  public init(
    key: Key, properties: [String: String], clientIndex: UInt32? = nil, isCorked: Bool = false
  ) {
    self.key = key
    self.properties = properties
    self.clientIndex = clientIndex
    self.isCorked = isCorked
  }
}

/// What the backend saw happen to other programs' streams, in order.
public enum ServerStreamEvent: Sendable, Hashable {
  /// A stream appeared, or its properties or cork state changed.
  case updated(ServerStream)
  /// A stream went away.
  case removed(ServerStream.Key)
  /// Every stream on the server now (after connecting or reconnecting): any stream not listed
  /// is gone.
  case snapshot([ServerStream])
}

/// Which session each of other programs' streams belongs to, as the host decided: the backend
/// applies each session's decisions (mute, duck, pause, route) to its streams too. A stream
/// missing from the map is not arbitrated (an `ignore` rule).
public struct StreamAssignment: Sendable, Hashable {
  public var sessions: [ServerStream.Key: String]
  /// The playback streams whose silence counts as a pause, with the milliseconds of silence
  /// that make one (``AppRules/Rule/inactiveAfterSilence``): the backend listens to them and
  /// reports a stream silent that long as corked.
  public var silenceLimits: [ServerStream.Key: Int]

  public init(
    _ sessions: [ServerStream.Key: String] = [:], silenceLimits: [ServerStream.Key: Int] = [:]
  ) {
    self.sessions = sessions
    self.silenceLimits = silenceLimits
  }

  /// The streams of one session, in key order.
  public func streams(of session: String) -> [ServerStream.Key] {
    sessions.filter { $0.value == session }.map(\.key).sorted()
  }
}
