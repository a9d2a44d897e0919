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
