#if canImport(Glibc)
  import Glibc
#endif

/// Files under /proc, read line by line: they report no size, so a read of the whole file at
/// once may stop short.
public enum ProcFile {
  /// The lines of the file at `path`, without their line ends; nil if it cannot be opened.
  public static func lines(_ path: String) -> [String]? {
    guard let file = fopen(path, "r") else { return nil }
    defer { fclose(file) }
    var lines: [String] = []
    var line: UnsafeMutablePointer<CChar>? = nil
    var capacity = 0
    defer { free(line) }
    while getline(&line, &capacity, file) > 0, let line {
      var text = String(cString: line)
      if text.hasSuffix("\n") { text.removeLast() }
      lines.append(text)
    }
    return lines
  }
}
