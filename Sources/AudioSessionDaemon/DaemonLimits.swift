import AudioSessionSystem

/// What one daemon holds at most, so that no number of clients, and no client that stops reading,
/// can take it down (docs/protocol.md "Limits").
public struct DaemonLimits: Sendable, Hashable {
  /// The connections served at once when `--max-connections` is not given, unless the
  /// descriptor limit allows fewer.
  public static let defaultMaxConnections = 1024
  /// Descriptors kept for everything but clients: the backend's server connection and its
  /// memory pools, the session bus, the state file, a private server's pipes, the lock. Under a
  /// low limit the daemon keeps half of it instead, and at least
  /// ``minimumReservedDescriptors`` (``reserved(of:)``).
  public static let reservedDescriptors = 64
  /// The least kept under a low limit: the daemon idle on the PulseAudio backend with a private
  /// server of its own holds 28 descriptors (its standard streams and log, the state journal
  /// and lock, the server connection's pipes, eventfds and timers, the event loops' epolls),
  /// and the rest is room for what a session bus and the server's streams add. Keeping all 64
  /// of a 64-descriptor limit left one client: a `sessionctl watch` locked every other command
  /// out (docs/protocol.md "Limits").
  public static let minimumReservedDescriptors = 32
  /// The messages queued for one client that has not read them, in bytes of the buffers that
  /// hold them, before the daemon closes its connection (a message is always queued while the
  /// queue is below this, however large: a `status` of many sessions goes out whole).
  public static let defaultClientOutboxBytes = 4 << 20
  /// The same over every client together, less the largest reply waiting (a reply of any size
  /// goes out whole): past it, the connection with the most queued is closed. A reply larger
  /// than the client limit that does not fit beside what waits is refused with `busy`
  /// (docs/protocol.md "Limits").
  public static let defaultTotalOutboxBytes = 64 << 20

  /// Connections served at once; the next one gets a `tooManyConnections` reply and is closed.
  public var maxConnections: Int
  public var clientOutboxBytes: Int
  public var totalOutboxBytes: Int

  public init(
    maxConnections: Int, clientOutboxBytes: Int = DaemonLimits.defaultClientOutboxBytes,
    totalOutboxBytes: Int = DaemonLimits.defaultTotalOutboxBytes
  ) {
    self.maxConnections = max(1, maxConnections)
    self.clientOutboxBytes = max(1, clientOutboxBytes)
    self.totalOutboxBytes = max(1, totalOutboxBytes)
  }

  /// The limits for a daemon whose soft descriptor limit is `descriptors` (nil: the current
  /// one): `maxConnections` when given (obeyed as given), else ``defaultMaxConnections`` or what
  /// the descriptors leave after those the daemon keeps (``reserved(of:)``), whichever is less.
  public static func standard(
    maxConnections: Int? = nil, descriptors: Int? = nil
  ) -> DaemonLimits {
    let descriptors = descriptors ?? DescriptorLimit.current().soft
    if let maxConnections { return DaemonLimits(maxConnections: maxConnections) }
    let available = descriptors == Int.max ? Int.max : descriptors - reserved(of: descriptors)
    return DaemonLimits(maxConnections: min(defaultMaxConnections, max(1, available)))
  }

  /// The descriptors kept for everything but clients under a limit of `descriptors`:
  /// ``reservedDescriptors``, or half the limit when that is less, but never fewer than
  /// ``minimumReservedDescriptors`` (64 descriptors: 32 kept, 32 clients; 100: 50 and 50; from
  /// 128 on, 64 kept).
  public static func reserved(of descriptors: Int) -> Int {
    min(reservedDescriptors, max(minimumReservedDescriptors, descriptors / 2))
  }
}
