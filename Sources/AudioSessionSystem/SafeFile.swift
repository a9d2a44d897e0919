#if canImport(Glibc)
  import Glibc
#endif

/// The daemon's own files, in a folder ``PrivateFolder`` checked: read only when they are this
/// user's regular files (a symbolic link is never followed), written to a new file made beside
/// with `O_CREAT | O_EXCL | O_NOFOLLOW` under a random name (mode 0600), then renamed over the
/// old one, the folder flushed after the rename when it must survive a power cut
/// (docs/protocol.md "The socket").
public enum SafeFile {
  /// Why a file could not be read or written: a sentence naming it.
  public struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
    public var description: String
    /// `errno` of the call that failed, if one did.
    public var code: Int32

    public init(_ description: String, code: Int32 = 0) {
      self.description = description
      self.code = code
    }
  }

  /// The content of the file at `path`, or nil when there is none.
  ///
  /// - Throws: When it exists but cannot be read, is a symbolic link or not a regular file, or
  ///   belongs to another user.
  public static func read(_ path: String) throws(Failure) -> [UInt8]? {
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
    guard fd >= 0 else {
      let code = errno
      if code == ENOENT { return nil }
      throw Failure(
        code == ELOOP
          ? "'\(path)' is a symbolic link, which is never followed"
          : "cannot read '\(path)': \(text(code))", code: code)
    }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw failure("cannot read '\(path)'") }
    guard info.st_mode & S_IFMT == S_IFREG else {
      throw Failure("'\(path)' is not a regular file", code: EINVAL)
    }
    guard info.st_uid == geteuid() else {
      throw Failure(
        "'\(path)' belongs to uid \(info.st_uid), not to this user (uid \(geteuid()))",
        code: EPERM)
    }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(Int(info.st_size))
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        throw failure("cannot read '\(path)'")
      }
      if count == 0 { return bytes }
      bytes += buffer[0..<count]
    }
  }

  /// Replaces the file at `path` with `bytes` (mode 0600), atomically: a reader sees the old
  /// file or the new one, never half of one.
  ///
  /// - Parameter durable: Flush the new file before the rename and the folder after it, so that
  ///   it is the one on disk after a power cut too (the state file); without, it survives the
  ///   process being killed, not the machine.
  public static func replace(_ path: String, with bytes: [UInt8], durable: Bool) throws(Failure) {
    let (fd, temporary) = try create(beside: path)
    var ok = writeAll(fd, bytes)
    if ok, durable { ok = fsync(fd) == 0 }
    let code = errno
    close(fd)
    guard ok else {
      unlink(temporary)
      throw Failure("cannot write '\(path)': \(text(code))", code: code)
    }
    guard rename(temporary, path) == 0 else {
      let code = errno
      unlink(temporary)
      throw Failure("cannot replace '\(path)': \(text(code))", code: code)
    }
    if durable { syncFolder(of: path) }
  }

  /// A new file beside `path`, `<path>.tmp-<random>`, made with `O_CREAT | O_EXCL |
  /// O_NOFOLLOW` (mode 0600), open for writing; its descriptor and path.
  public static func create(beside path: String) throws(Failure) -> (Int32, String) {
    for _ in 0..<16 {
      let temporary =
        "\(path)\(temporarySuffix)\(String(UInt64.random(in: 0...UInt64.max), radix: 36))"
      let fd = open(
        temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode_t(0o600))
      if fd >= 0 { return (fd, temporary) }
      if errno != EEXIST { throw failure("cannot create a file beside '\(path)'") }
    }
    throw Failure("cannot create a file beside '\(path)': every name tried exists", code: EEXIST)
  }

  /// What a temporary file's name adds to the name of the file it replaces.
  public static let temporarySuffix = ".tmp-"

  /// Removes the temporary files a process killed in the middle of ``replace(_:with:durable:)``
  /// left beside `path` (this user's only).
  public static func removeTemporaries(of path: String) {
    let (folder, name) = split(path)
    guard let directory = opendir(folder) else { return }
    defer { closedir(directory) }
    let prefix = name + temporarySuffix
    while let entry = readdir(directory) {
      let entryName = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      guard entryName.hasPrefix(prefix) else { continue }
      let full = folder + "/" + entryName
      var info = stat()
      if lstat(full, &info) == 0, info.st_uid == geteuid() { unlink(full) }
    }
  }

  /// Opens the file at `path` for appending, creating it (mode 0600) when missing; a symbolic
  /// link, a file that is not regular, or another user's file is refused.
  public static func openAppending(_ path: String) throws(Failure) -> Int32 {
    let fd = open(
      path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, mode_t(0o600))
    guard fd >= 0 else {
      let code = errno
      throw Failure(
        code == ELOOP
          ? "'\(path)' is a symbolic link, which is never followed"
          : "cannot open '\(path)': \(text(code))", code: code)
    }
    var info = stat()
    guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_uid == geteuid()
    else {
      close(fd)
      throw Failure("'\(path)' is not a regular file of this user", code: EPERM)
    }
    return fd
  }

  /// Writes all of `bytes`; false on an error (errno says which).
  public static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
    var written = 0
    while written < bytes.count {
      let count = bytes.withUnsafeBytes { buffer -> Int in
        guard let base = buffer.baseAddress else { return 0 }
        return Glibc.write(fd, base + written, buffer.count - written)
      }
      if count < 0 {
        if errno == EINTR { continue }
        return false
      }
      if count == 0 {
        errno = ENOSPC
        return false
      }
      written += count
    }
    return true
  }

  /// Flushes the folder of `path`, so that a rename or a new file in it is on disk.
  @discardableResult
  public static func syncFolder(of path: String) -> Bool {
    let fd = open(split(path).folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    return fsync(fd) == 0
  }

  /// Moves the file at `path` aside, to `<path>.bad-<UTC time>` (`sessions.json.bad-
  /// 20261127T084700Z`, with `-2`, `-3`… when that exists), and returns that path; the folder
  /// is flushed.
  public static func moveAside(_ path: String) throws(Failure) -> String {
    var seconds = time(nil)
    var parts = tm()
    gmtime_r(&seconds, &parts)
    func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
    let stamp =
      "\(parts.tm_year + 1900)\(two(parts.tm_mon + 1))\(two(parts.tm_mday))T"
      + "\(two(parts.tm_hour))\(two(parts.tm_min))\(two(parts.tm_sec))Z"
    var target = "\(path).bad-\(stamp)"
    var number = 1
    var info = stat()
    while lstat(target, &info) == 0 {
      number += 1
      target = "\(path).bad-\(stamp)-\(number)"
    }
    guard rename(path, target) == 0 else {
      throw failure("cannot move '\(path)' aside to '\(target)'")
    }
    syncFolder(of: path)
    return target
  }

  /// The folder a path is in (`.` for a bare name).
  public static func folder(of path: String) -> String { split(path).folder }

  /// The folder and the name of a path (`.` for a bare name).
  static func split(_ path: String) -> (folder: String, name: String) {
    guard let slash = path.lastIndex(of: "/") else { return (".", path) }
    let folder = String(path[..<slash])
    return (folder.isEmpty ? "/" : folder, String(path[path.index(after: slash)...]))
  }

  private static func failure(_ what: String) -> Failure {
    let code = errno
    return Failure("\(what): \(text(code))", code: code)
  }

  static func text(_ code: Int32) -> String { String(cString: strerror(code)) }
}
