import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// The daemon's lock file seen from outside (`daemon.sock.lock` beside its socket): where it is
/// and who holds it, looked at without taking it. `sessionctl`, which does not link the daemon,
/// reads it to tell a daemon that is starting from none; the daemon takes it with `DaemonLock`
/// (docs/protocol.md "The socket").
public enum DaemonLockFile {
  /// glibc's `F_OFD_GETLK` and `F_OFD_SETLK` (`<bits/fcntl-linux.h>`: 36 and 37, declared only
  /// under `_GNU_SOURCE`, so Swift's Glibc does not import them).
  public static let getLock: Int32 = 36
  public static let setLock: Int32 = 37

  /// The lock file of the daemon on `socketPath`: the socket path with `.lock` appended.
  public static func path(socketPath: String) -> String { socketPath + ".lock" }

  /// Who holds the lock of the daemon on a socket.
  public enum Holder: Sendable, Hashable {
    /// No daemon holds it: none runs or is starting there.
    case none
    /// A daemon holds it: it is starting, or runs; `pid` is the one it wrote (nil until it has).
    case daemon(pid: Int32?)

    /// The holder's pid, if a daemon holds the lock and has written it.
    public var pid: Int32? {
      if case .daemon(let pid) = self { return pid }
      return nil
    }
  }

  /// Looks at the lock without taking it.
  public static func holder(socketPath: String) -> Holder {
    let path = Self.path(socketPath: socketPath)
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
    guard fd >= 0 else { return .none }
    defer { close(fd) }
    var request = wholeFile(F_WRLCK)
    guard fcntl(fd, getLock, &request) == 0, request.l_type != F_UNLCK else { return .none }
    return .daemon(pid: readPID(path))
  }

  /// A lock request over the whole file.
  static func wholeFile(_ type: Int32) -> flock {
    var request = flock()
    request.l_type = Int16(type)
    request.l_whence = Int16(SEEK_SET)
    request.l_start = 0
    request.l_len = 0
    return request
  }

  /// The pid the holder wrote, if it has.
  public static func readPID(_ path: String) -> Int32? {
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var buffer = [UInt8](repeating: 0, count: 32)
    let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
    guard count > 0 else { return nil }
    let text = String(decoding: buffer[0..<count], as: UTF8.self)
    return Int32(text.trimmingWhitespace())
  }
}
