import AudioSessionCore
import AudioSessionSystem

#if canImport(Glibc)
  import Glibc
#endif

/// Makes a socket path ready to bind: its folder exists (created 0700 when missing), and a
/// socket left by a daemon that died is removed, but one that a live daemon answers on is not.
enum SocketFolder {
  static func prepare(socketPath path: String) throws(DaemonServerError) {
    try checkLength(path)
    let folder = folder(of: path)
    if !folder.isEmpty { try makeFolder(folder) }
    var info = stat()
    guard lstat(path, &info) == 0 else { return }
    guard info.st_mode & S_IFMT == S_IFSOCK else { throw .notASocket(path: path) }
    if answers(path) { throw .alreadyRunning(path: path, pid: nil) }
    unlink(path)
  }

  /// Refuses a path too long for a Unix socket address (``UnixSocketAddress``), before anything
  /// is created.
  static func checkLength(_ path: String) throws(DaemonServerError) {
    do {
      _ = try UnixSocketAddress(path: path)
    } catch {
      throw .pathTooLong(path: path, limit: UnixSocketAddress.maxPathBytes)
    }
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
  static func answers(_ path: String) -> Bool { UnixSocketAddress.answers(path) }
}
