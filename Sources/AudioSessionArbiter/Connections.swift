// Who the daemon's clients are, as the arbiter knows them: numbers and the kernel's word.

/// Identifies one connection for as long as the daemon runs.
public struct ConnectionID: Sendable, Hashable, Comparable, CustomStringConvertible {
  public let rawValue: Int

  public init(rawValue: Int) { self.rawValue = rawValue }

  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

  public var description: String { "connection \(rawValue)" }
}

/// Who is at the other end of a Unix socket, as the kernel reports it (`SO_PEERCRED`).
public struct PeerCredentials: Sendable, Hashable {
  public var pid: Int32
  public var uid: UInt32
  public var gid: UInt32

  public init(pid: Int32, uid: UInt32, gid: UInt32) {
    self.pid = pid
    self.uid = uid
    self.gid = gid
  }
}

/// Who holds a session.
public enum SessionOwner: Sendable, Hashable {
  /// The daemon, on behalf of the command line (`--session NAME`): it lives until removed and
  /// survives a restart of the daemon.
  case daemon
  /// A client connection (the library): the session ends with the connection.
  case connection(ConnectionID)
  /// Another program on the media server (an app session, docs/apps.md): it lives with the
  /// program's streams.
  case app(pid: Int32?)
}
