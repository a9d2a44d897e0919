#if canImport(Glibc)
  package import Glibc
#endif

/// Another user, for the tests of folders and sockets another user made: uid 65534 (nobody),
/// and a path's permission bits.
package enum OtherUser {
  package static let nobody: uid_t = 65534

  /// The permission bits of `path` itself (not of what a link points to).
  package static func mode(_ path: String) -> UInt32 {
    var info = stat()
    lstat(path, &info)
    return UInt32(info.st_mode) & 0o7777
  }
}
