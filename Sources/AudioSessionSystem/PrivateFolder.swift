#if canImport(Glibc)
  import Glibc
#endif

/// The folders a daemon keeps its files in (its socket, the lock, the state file, the changes
/// file): nothing in them may be planted by another user (docs/protocol.md "The socket").
///
/// A folder is safe when it is a folder owned by this process's user (its effective uid) and
/// writable by no one else (no group or other write bit), and every folder above it is owned by
/// that user or root and, if others may write there, sticky (`/tmp`: no one can rename or remove
/// what another user put there). A symbolic link on the way is followed only when that user or
/// root owns it. What is created here is mode 0700.
public enum PrivateFolder {
  /// Why a folder cannot be used: the path and a sentence that says what is wrong and what to do.
  public struct Unsafe: Error, Sendable, Hashable, CustomStringConvertible {
    public var path: String
    public var reason: String

    public init(path: String, reason: String) {
      self.path = path
      self.reason = reason
    }

    public var description: String { "the folder '\(path)' cannot be used: \(reason)" }
  }

  /// What ``prepare(_:fixMode:)`` did.
  public enum Outcome: Sendable, Hashable {
    /// The folder was safe as it was.
    case safe
    /// It was missing: it was made, mode 0700.
    case created
    /// It is this user's and was writable by others: its mode was `from` and is now 0700.
    case fixed(from: UInt32)
  }

  /// Makes `path` (a folder; empty means the current one) ready for private files: creates it
  /// and the folders missing above it (0700), then checks it as the type's discussion says.
  ///
  /// - Parameter fixMode: When the folder is this user's but others may write to it, take their
  ///   write access away (mode 0700) instead of refusing: for the daemon's own folder
  ///   (`$XDG_RUNTIME_DIR/audiosession`, `/tmp/audiosession-<uid>`), never for one a user
  ///   named.
  @discardableResult
  public static func prepare(_ path: String, fixMode: Bool) throws(Unsafe) -> Outcome {
    let folder = path.isEmpty ? "." : path
    var created = false
    var info = stat()
    if lstat(folder, &info) != 0 {
      guard errno == ENOENT else { throw Unsafe(path: folder, reason: errorText()) }
      try make(folder)
      created = true
    }
    let user = geteuid()
    // The folder itself: a link only if its owner is trusted, and then what it names.
    if lstat(folder, &info) == 0, info.st_mode & S_IFMT == S_IFLNK, !trusted(info.st_uid, user) {
      throw Unsafe(
        path: folder,
        reason:
          "it is a symbolic link owned by uid \(info.st_uid), another user: remove it, or choose another folder"
      )
    }
    let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard fd >= 0 else {
      throw Unsafe(
        path: folder,
        reason: errno == ENOTDIR ? "it exists and is not a folder" : errorText())
    }
    defer { close(fd) }
    guard fstat(fd, &info) == 0 else { throw Unsafe(path: folder, reason: errorText()) }
    guard info.st_uid == user else {
      throw Unsafe(
        path: folder,
        reason: """
          it belongs to uid \(info.st_uid), not to this user (uid \(user)): another user could \
          plant files there; remove it (it may be someone's trap), or choose another folder
          """)
    }
    var outcome: Outcome = created ? .created : .safe
    let mode = UInt32(info.st_mode) & 0o7777
    if created {
      _ = fchmod(fd, 0o700)
    } else if mode & 0o022 != 0 {
      guard fixMode else {
        throw Unsafe(
          path: folder,
          reason: """
            other users may write to it (mode \(octal(mode))): take their write access away \
            (chmod go-w '\(folder)'), or choose another folder
            """)
      }
      guard fchmod(fd, 0o700) == 0 else {
        throw Unsafe(
          path: folder,
          reason:
            "other users may write to it (mode \(octal(mode))) and chmod failed: \(errorText())"
        )
      }
      outcome = .fixed(from: mode)
    }
    try checkAncestors(of: folder, user: user)
    return outcome
  }

  /// Every folder above the folder's real path: owned by `user` or root, and sticky where
  /// others may write.
  private static func checkAncestors(of folder: String, user: uid_t) throws(Unsafe) {
    guard let resolved = realpath(folder, nil) else {
      throw Unsafe(path: folder, reason: errorText())
    }
    let real = String(cString: resolved)
    free(resolved)
    var parts = real.split(separator: "/").map(String.init)
    while !parts.isEmpty {
      parts.removeLast()
      let ancestor = "/" + parts.joined(separator: "/")
      var info = stat()
      guard lstat(ancestor, &info) == 0 else { throw Unsafe(path: ancestor, reason: errorText()) }
      let mode = UInt32(info.st_mode) & 0o7777
      if !trusted(info.st_uid, user) {
        throw Unsafe(
          path: folder,
          reason: """
            the folder '\(ancestor)' above it belongs to uid \(info.st_uid), another user, who \
            could replace it: choose another folder
            """)
      }
      if mode & 0o022 != 0, mode & UInt32(S_ISVTX) == 0 {
        throw Unsafe(
          path: folder,
          reason: """
            other users may write to the folder '\(ancestor)' above it (mode \(octal(mode)), not \
            sticky) and could replace it: choose another folder
            """)
      }
    }
  }

  /// Creates `folder` and any missing parents, 0700.
  private static func make(_ folder: String) throws(Unsafe) {
    var info = stat()
    if stat(folder, &info) == 0 {
      guard info.st_mode & S_IFMT == S_IFDIR else {
        throw Unsafe(path: folder, reason: "it exists and is not a folder")
      }
      return
    }
    let parent = folder.split(separator: "/", omittingEmptySubsequences: false).dropLast()
      .joined(separator: "/")
    if !parent.isEmpty { try make(parent) }
    guard mkdir(folder, 0o700) == 0 || errno == EEXIST else {
      throw Unsafe(path: folder, reason: "cannot create it: \(errorText())")
    }
  }

  private static func trusted(_ owner: uid_t, _ user: uid_t) -> Bool { owner == user || owner == 0 }

  static func octal(_ mode: UInt32) -> String {
    let digits = String(mode, radix: 8)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }

  static func errorText() -> String { String(cString: strerror(errno)) }
}
