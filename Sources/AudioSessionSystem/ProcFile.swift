#if canImport(Glibc)
  import Glibc
#endif

/// Files under /proc, read line by line or whole, to their end: they report no size, so a read
/// of the whole file at once may stop short.
///
/// Also what the layers above `AudioSession` read a whole file with (its policy loader, below
/// them, reads files that are never empty when valid): Foundation's
/// `FileManager.contents(atPath:)` (FoundationEssentials as shipped with Swift 6.3.1) keeps
/// the 4 KiB buffer it allocates for a file that reports no size and turns out empty (a kernel
/// thread's `/proc/PID/cmdline`, an empty log), so each such read leaks; AddressSanitizer's leak
/// check found it (docs/fuzzing.md "Sanitizers").
public enum ProcFile {
  /// The bytes of the file at `path`, read to its end; nil if it cannot be opened or read.
  public static func bytes(_ path: String) -> [UInt8]? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 14)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        return nil
      }
      if count == 0 { return bytes }
      bytes += buffer[0..<count]
    }
  }

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
