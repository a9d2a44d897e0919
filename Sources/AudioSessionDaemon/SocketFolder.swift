import AudioSession
import AudioSessionSystem
import AudioSessionWire

#if canImport(Glibc)
  import Glibc
#endif

/// Makes a socket path ready to bind: its folder exists (created 0700 when missing) and is safe
/// (``PrivateFolder``), and a socket left by a daemon that died is removed, but one that a live
/// daemon answers on is not.
enum SocketFolder {
  static func prepare(socketPath path: String) throws(DaemonServerError) {
    try checkLength(path)
    try makeFolder(folder(of: path))
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

  /// Creates `folder` (and missing parents) with mode 0700 when missing, and checks that no
  /// other user can plant files in it (``PrivateFolder``): the daemon's own folder
  /// (`$XDG_RUNTIME_DIR/audiosession`, `/tmp/audiosession-<uid>`) that others may write to has
  /// its mode fixed to 0700 when it is this user's; any other unsafe folder is refused with the
  /// reason (docs/protocol.md "The socket").
  @discardableResult
  static func makeFolder(_ folder: String) throws(DaemonServerError) -> PrivateFolder.Outcome {
    do {
      return try PrivateFolder.prepare(folder, fixMode: isDefaultFolder(folder))
    } catch {
      throw .unsafeFolder(path: error.path, reason: error.reason)
    }
  }

  /// Whether `folder` is the default socket's folder for this user and environment.
  static func isDefaultFolder(_ folder: String) -> Bool {
    var environment: [String: String] = [:]
    if let runtime = getenv(WireProtocol.runtimeDirectoryVariable) {
      environment[WireProtocol.runtimeDirectoryVariable] = String(cString: runtime)
    }
    let path = WireProtocol.defaultSocketPath(environment: environment, userID: geteuid())
    return PathText.normalized(folder) == PathText.normalized(Self.folder(of: path))
  }

  /// Whether a process accepts connections on the socket.
  static func answers(_ path: String) -> Bool { UnixSocketAddress.answers(path) }
}
