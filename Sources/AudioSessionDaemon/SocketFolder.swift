#if canImport(Glibc)
  import Glibc
#endif

/// Makes a socket path ready to bind: its folder exists (created 0700 when missing), and a
/// socket left by a daemon that died is removed, but one that a live daemon answers on is not.
enum SocketFolder {
  /// `sun_path` holds 108 bytes including the terminating NUL.
  static let maxPathBytes = 107

  static func prepare(socketPath path: String) throws(DaemonServerError) {
    guard path.utf8.count <= maxPathBytes else {
      throw .pathTooLong(path: path, limit: maxPathBytes)
    }
    let folder = folder(of: path)
    if !folder.isEmpty { try makeFolder(folder) }
    var info = stat()
    guard lstat(path, &info) == 0 else { return }
    guard info.st_mode & S_IFMT == S_IFSOCK else { throw .notASocket(path: path) }
    if answers(path) { throw .alreadyRunning(path: path, pid: nil) }
    unlink(path)
  }

  /// The folder a path is in (empty for a bare name).
  static func folder(of path: String) -> String {
    path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
  }

  /// Creates `folder` and any missing parents with mode 0700.
  static func makeFolder(_ folder: String) throws(DaemonServerError) {
    var info = stat()
    if stat(folder, &info) == 0 {
      guard info.st_mode & S_IFMT == S_IFDIR else {
        throw .cannotCreateFolder(path: folder, reason: "it exists and is not a folder")
      }
      return
    }
    let parent = folder.split(separator: "/", omittingEmptySubsequences: false).dropLast()
      .joined(separator: "/")
    if !parent.isEmpty { try makeFolder(parent) }
    guard mkdir(folder, 0o700) == 0 || errno == EEXIST else {
      throw .cannotCreateFolder(path: folder, reason: String(cString: strerror(errno)))
    }
    chmod(folder, 0o700)
  }

  /// Whether a process accepts connections on the socket.
  static func answers(_ path: String) -> Bool {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { buffer in
      for (index, byte) in path.utf8.prefix(buffer.count - 1).enumerated() {
        buffer[index] = byte
      }
    }
    let result = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    return result == 0
  }
}
