#if canImport(Glibc)
  import Glibc
#endif

/// Writing to standard output and error without Foundation's FileHandle: the whole text, retried
/// on EINTR and short writes.
public enum StandardStreams {
  public static func writeOutput(_ text: String) { write(text, to: STDOUT_FILENO) }
  public static func writeError(_ text: String) { write(text, to: STDERR_FILENO) }

  public static func write(_ text: String, to descriptor: Int32) {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
      let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
      if written < 0 {
        if errno == EINTR { continue }
        return
      }
      bytes = bytes.dropFirst(written)
    }
  }
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
