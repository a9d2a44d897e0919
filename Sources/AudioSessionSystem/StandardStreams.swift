#if canImport(Glibc)
  import Glibc
#endif

/// Writing to standard output and error without Foundation's FileHandle: the whole text, retried
/// on EINTR and short writes.
public enum StandardStreams {
  public static func writeOutput(_ text: String) { write(text, to: STDOUT_FILENO) }
  public static func writeError(_ text: String) { write(text, to: STDERR_FILENO) }

  public static func write(_ text: String, to descriptor: Int32) {
    _ = writeAll(text, to: descriptor)
  }

  /// Writes the whole text; false on an error (errno says which).
  static func writeAll(_ text: String, to descriptor: Int32) -> Bool {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
      let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
      if written < 0 {
        if errno == EINTR { continue }
        return false
      }
      bytes = bytes.dropFirst(written)
    }
    return true
  }

  /// Writes `text` to the file at `path` (created 0644); nil, or why it could not.
  ///
  /// An existing file is overwritten, then cut to the new length, rather than truncated to zero
  /// first: ext4 flushes a file truncated to zero and rewritten when it is closed (its
  /// `auto_da_alloc` guard against losing a replaced file), which costs ten times the write.
  /// With `creating`, a file that exists is left as it is (`O_EXCL`), and ``fileExists`` is
  /// the reason.
  public static func writeFile(
    _ text: String, atPath path: String, creating: Bool = false
  ) -> String? {
    let flags = O_WRONLY | O_CREAT | O_CLOEXEC | (creating ? O_EXCL | O_NOFOLLOW : 0)
    let descriptor = open(path, flags, 0o644)
    guard descriptor >= 0 else {
      return errno == EEXIST && creating ? fileExists : String(cString: strerror(errno))
    }
    var ok = writeAll(text, to: descriptor) && ftruncate(descriptor, off_t(text.utf8.count)) == 0
    let reason = ok ? nil : String(cString: strerror(errno))
    ok = close(descriptor) == 0 && ok
    return ok ? nil : reason ?? String(cString: strerror(errno))
  }

  /// Why ``writeFile(_:atPath:creating:)`` did not create a file: it exists.
  public static let fileExists = "it exists"
}

/// Paths as text: `a/./b/../c` → `a/c`, without touching the file system.
public enum PathText {
  /// `path` with `.` and empty components dropped and each `..` taking its parent away (never
  /// above `/`).
  public static func normalized(_ path: String) -> String {
    let absolute = path.hasPrefix("/")
    var parts: [Substring] = []
    for part in path.split(separator: "/") {
      switch part {
      case ".": continue
      case "..":
        if let last = parts.last, last != ".." {
          parts.removeLast()
        } else if !absolute {
          parts.append(part)
        }
      default: parts.append(part)
      }
    }
    let joined = parts.joined(separator: "/")
    return absolute ? "/" + joined : (joined.isEmpty ? "." : joined)
  }
}
