import AudioSessionSystem

/// What one daemon holds at most, so that no number of clients, and no client that stops reading,
/// can take it down (issue 25 item 4; docs/protocol.md "Limits").
public struct DaemonLimits: Sendable, Hashable {
  /// The connections served at once when `--max-connections` is not given, unless the
  /// descriptor limit allows fewer.
  public static let defaultMaxConnections = 1024
  /// Descriptors kept for everything but clients: the backend's server connection and its
  /// memory pools, the session bus, the state file, a private server's pipes, the lock.
  public static let reservedDescriptors = 64
  /// The messages queued for one client that has not read them, in bytes of the buffers that
  /// hold them, before the daemon closes its connection (a message is always queued while the
  /// queue is below this, however large: a `status` of many sessions goes out whole).
  public static let defaultClientOutboxBytes = 4 << 20
  /// The same over every client together: past it, the connection with the most queued is
  /// closed.
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
  /// the descriptors leave after ``reservedDescriptors``, whichever is less.
  public static func standard(
    maxConnections: Int? = nil, descriptors: Int? = nil
  ) -> DaemonLimits {
    let descriptors = descriptors ?? DescriptorLimit.current().soft
    if let maxConnections { return DaemonLimits(maxConnections: maxConnections) }
    let available = descriptors == Int.max ? Int.max : descriptors - reservedDescriptors
    return DaemonLimits(maxConnections: min(defaultMaxConnections, max(1, available)))
  }
}
