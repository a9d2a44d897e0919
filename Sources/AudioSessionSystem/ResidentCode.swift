#if canImport(Glibc)
  import Glibc
#endif

/// Keeps a long-running process's resident code to what it runs (issue 9 item 7: the idle
/// daemon's memory beside the PulseAudio server's).
///
/// Start-up touches code all over the binary and its libraries (the Swift runtime's conformance
/// scans, argument parsing, policy loading), and the kernel maps pages around each fault (64 KiB
/// at a time), so a daemon that then sits idle keeps about 10 MiB of code resident that it will
/// not run again. ``trim()`` marks every executable, file-backed mapping as randomly accessed
/// (`MADV_RANDOM`: no read-ahead) and releases its pages (`MADV_DONTNEED`): they stay in the page
/// cache, shared with every other process, and come back as they run, with the kernel's 64 KiB
/// fault-around, which `MADV_RANDOM` does not turn off (docs/modules.md "What sessionctl
/// links"). Only executable mappings are touched: they are never written (no text relocations),
/// so releasing them loses nothing, whereas read-only data may hold relocations applied at
/// start-up.
public enum ResidentCode {
  /// The executable, file-backed mappings of this process, as /proc/self/maps lists them.
  public static func executableMappings() -> [(start: UInt, end: UInt, path: String)] {
    guard let file = fopen("/proc/self/maps", "r") else { return [] }
    defer { fclose(file) }
    var mappings: [(UInt, UInt, String)] = []
    var line: UnsafeMutablePointer<CChar>? = nil
    var capacity = 0
    defer { free(line) }
    while getline(&line, &capacity, file) > 0, let line {
      // start-end perms offset dev inode path
      let fields = String(cString: line).split(separator: " ", omittingEmptySubsequences: true)
      guard fields.count >= 6, fields[1] == "r-xp", fields[5].hasPrefix("/") else { continue }
      let range = fields[0].split(separator: "-")
      guard range.count == 2, let start = UInt(range[0], radix: 16),
        let end = UInt(range[1], radix: 16)
      else { continue }
      mappings.append((start, end, String(fields[5].drop { $0 == " " }).trimmingWhitespace()))
    }
    return mappings
  }

  /// Releases the resident pages of every executable mapping and turns its read-ahead off.
  /// Returns how many mappings it trimmed.
  @discardableResult
  public static func trim() -> Int {
    var trimmed = 0
    for mapping in executableMappings() {
      guard let address = UnsafeMutableRawPointer(bitPattern: mapping.start) else { continue }
      let length = Int(mapping.end - mapping.start)
      guard madvise(address, length, MADV_RANDOM) == 0 else { continue }
      if madvise(address, length, MADV_DONTNEED) == 0 { trimmed += 1 }
    }
    return trimmed
  }
}
