import AudioSessionWire

#if canImport(Glibc)
  import Glibc
#endif

/// Fresh temporary folders for a test's sockets and files.
package enum TemporaryFolder {
  /// A fresh temporary folder with a short path (Unix socket paths are limited to 107 bytes).
  package static func make() throws -> String {
    var template = Array("/tmp/as-test-XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else {
      throw ConnectionFailure("mkdtemp failed: \(String(cString: strerror(errno)))")
    }
    return String(cString: made)
  }
}
