public import AudioSessionSystem
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// The lock file beside a daemon's socket (`daemon.sock.lock`): the daemon that holds it owns
/// the socket path, from the first instant of its start (before it loads policies or reaches
/// PulseAudio) until it stops (docs/protocol.md "The socket").
///
/// The lock is an open-file-description lock (`F_OFD_SETLK`, Linux ≥ 3.15): it belongs to the
/// daemon's open file, so it ends when the daemon exits however it exits, is not inherited by
/// the processes the daemon starts (the file is opened close-on-exec), and can be looked at
/// (`F_OFD_GETLK`) without taking it, so a command that checks whether a daemon is starting never
/// makes that daemon's own attempt fail. The holder writes its pid into the file. The file is
/// never removed: removing a lock file that others may have opened lets two processes each hold
/// a lock on a different file of the same name.
public final class DaemonLock: Sendable {
  /// The lock file: the socket path with `.lock` appended.
  public let path: String
  private let fd: Int32

  static let setLock = DaemonLockFile.setLock

  private init(path: String, fd: Int32) {
    self.path = path
    self.fd = fd
  }

  /// The lock file of the daemon on `socketPath`.
  public static func path(socketPath: String) -> String {
    DaemonLockFile.path(socketPath: socketPath)
  }

  /// Makes the socket's folder ready (created 0700 when missing) and checks that no other user
  /// can plant files in it, as ``acquire(socketPath:)`` does first; says whether it made the
  /// folder or took other users' write access away from it (the daemon logs that).
  ///
  /// - Throws: ``DaemonServerError/unsafeFolder(path:reason:)``, or another
  ///   ``DaemonServerError`` when the path cannot be used.
  @discardableResult
  public static func prepareFolder(socketPath: String) throws(DaemonServerError)
    -> PrivateFolder.Outcome
  {
    try SocketFolder.checkLength(socketPath)
    return try SocketFolder.makeFolder(SocketFolder.folder(of: socketPath))
  }

  /// Takes the lock for `socketPath`, creating the socket's folder (0700) and the lock file
  /// (0600) when missing, and writes this process's pid into it. The folder must be safe
  /// (``prepareFolder(socketPath:)``), and the lock file this user's own regular file.
  ///
  /// - Throws: ``DaemonServerError/alreadyRunning(path:pid:)`` when another daemon holds it
  ///   (with its pid), or another ``DaemonServerError`` when the path cannot be used.
  public static func acquire(socketPath: String) throws(DaemonServerError) -> DaemonLock {
    try prepareFolder(socketPath: socketPath)
    let path = Self.path(socketPath: socketPath)
    let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o600)
    guard fd >= 0 else {
      throw .cannotLock(path: path, reason: String(cString: strerror(errno)))
    }
    var info = stat()
    guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_uid == geteuid() else {
      close(fd)
      throw .cannotLock(
        path: path, reason: "it is not a regular file of this user (uid \(geteuid())); remove it")
    }
    var request = Self.wholeFile(F_WRLCK)
    guard fcntl(fd, setLock, &request) == 0 else {
      let code = errno
      close(fd)
      guard code == EAGAIN || code == EACCES else {
        throw .cannotLock(path: path, reason: String(cString: strerror(code)))
      }
      throw .alreadyRunning(path: socketPath, pid: readPID(path))
    }
    let text = Array("\(getpid())\n".utf8)
    _ = ftruncate(fd, 0)
    _ = text.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
    return DaemonLock(path: path, fd: fd)
  }

  /// Empties the file and releases the lock (closing the file); a process that ends releases it
  /// too.
  public func release() {
    _ = ftruncate(fd, 0)
    close(fd)
  }

  /// Who holds the lock of the daemon on a socket.
  public typealias Holder = DaemonLockFile.Holder

  /// Looks at the lock without taking it.
  public static func holder(socketPath: String) -> Holder {
    DaemonLockFile.holder(socketPath: socketPath)
  }

  private static func wholeFile(_ type: Int32) -> flock {
    var request = flock()
    request.l_type = Int16(type)
    request.l_whence = Int16(SEEK_SET)
    request.l_start = 0
    request.l_len = 0
    return request
  }

  static func readPID(_ path: String) -> Int32? { DaemonLockFile.readPID(path) }
}
