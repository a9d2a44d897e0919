#if canImport(Glibc)
  import Glibc
#endif

/// Calls `body` with a `sockaddr` for the Unix socket at `path` and its length, for `bind` and
/// `connect` in the tests' raw socket clients and servers.
func withUnixSocketAddress<Result>(
  _ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Result
) -> Result {
  var address = sockaddr_un()
  address.sun_family = sa_family_t(AF_UNIX)
  withUnsafeMutableBytes(of: &address.sun_path) { buffer in
    for (index, byte) in path.utf8.prefix(buffer.count - 1).enumerated() { buffer[index] = byte }
  }
  return withUnsafePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
      body($0, socklen_t(MemoryLayout<sockaddr_un>.size))
    }
  }
}
