#if canImport(Glibc)
  import Glibc
#endif

/// The address of a Unix socket, for `connect` and `bind`: the one place a `sockaddr_un` is
/// filled, by the client library, the daemon, the command line and the tests.
///
/// `sun_path` holds 108 bytes including the terminating NUL, so a path is at most 107 bytes; a
/// longer one is refused with ``PathTooLong`` (never cut short, which would reach another
/// socket).
package struct UnixSocketAddress: Sendable, Hashable {
  /// The longest path a Unix socket address holds, in bytes (`sun_path` less its NUL).
  package static let maxPathBytes = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

  package let path: String

  /// - Throws: ``PathTooLong`` when `path` is longer than ``maxPathBytes`` bytes.
  package init(path: String) throws(PathTooLong) {
    guard path.utf8.count <= Self.maxPathBytes else { throw PathTooLong(path: path) }
    self.path = path
  }

  /// A socket path longer than a Unix socket address holds.
  package struct PathTooLong: Error, Sendable, Hashable, CustomStringConvertible {
    package var path: String

    package init(path: String) { self.path = path }

    package var description: String {
      "the socket path '\(path)' is \(path.utf8.count) bytes long; Unix socket paths are at most "
        + "\(UnixSocketAddress.maxPathBytes) bytes: choose a shorter path"
    }
  }

  /// Calls `body` with the address as a `sockaddr` and its length.
  func withSockaddr<Result>(
    _ body: (UnsafePointer<sockaddr>, socklen_t) throws -> Result
  ) rethrows -> Result {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { buffer in
      for (index, byte) in path.utf8.enumerated() { buffer[index] = byte }
    }
    return try withUnsafePointer(to: &address) {
      try $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        try body($0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
  }

  /// `connect(fd, address)`: 0, or -1 with `errno` set.
  package func connect(_ fd: Int32) -> Int32 {
    withSockaddr { Glibc.connect(fd, $0, $1) }
  }

  /// `bind(fd, address)`: 0, or -1 with `errno` set.
  package func bind(_ fd: Int32) -> Int32 {
    withSockaddr { Glibc.bind(fd, $0, $1) }
  }

  /// Whether a process accepts connections on the socket at `path` (false for a path too long
  /// to be a socket's).
  package static func answers(_ path: String) -> Bool {
    guard let address = try? UnixSocketAddress(path: path) else { return false }
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    return address.connect(fd) == 0
  }
}

/// Who is at the other end of a connected Unix socket (`SO_PEERCRED`: the process that listened
/// or connected, as it was then).
public enum SocketPeer {
  /// `struct ucred`, which Glibc declares only under `_GNU_SOURCE`.
  private struct Credentials {
    var pid: Int32 = 0
    var uid: UInt32 = 0
    var gid: UInt32 = 0
  }

  /// The peer's user id, or nil when the socket does not say.
  public static func uid(_ fd: Int32) -> UInt32? {
    var credentials = Credentials()
    var length = socklen_t(MemoryLayout<Credentials>.size)
    guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0,
      length == socklen_t(MemoryLayout<Credentials>.size)
    else { return nil }
    return credentials.uid
  }

  /// Why a client should not believe what the process at `path` (the peer of `fd`) says, or nil
  /// when it runs as this user or as root (a socket another user planted in a folder it could
  /// write to: docs/protocol.md "The socket").
  public static func distrust(_ fd: Int32, path: String) -> String? {
    guard let peer = uid(fd) else { return nil }
    let user = geteuid()
    guard peer != user, peer != 0 else { return nil }
    return """
      the process listening on '\(path)' runs as uid \(peer), not as this user (uid \(user)) or \
      root: it is not your audio session daemon, and nothing it says is believed. Remove that \
      socket if its folder is yours, or use your own folder (--socket, $AUDIOSESSION_SOCKET, or \
      $XDG_RUNTIME_DIR)
      """
  }
}
