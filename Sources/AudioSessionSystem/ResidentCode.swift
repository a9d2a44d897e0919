#if canImport(Glibc)
  import Glibc
#endif

/// Keeps a long-running process's resident code and read-only data to what it uses (issue 9
/// item 7: the idle daemon's memory beside the PulseAudio server's).
///
/// Start-up touches code all over the binary and its libraries (the Swift runtime's conformance
/// scans, argument parsing, policy loading) and read-only data the dynamic loader and the runtime
/// read once (symbol tables, relocation tables, type metadata), and the kernel maps pages around
/// each fault (64 KiB at a time), so a daemon that then sits idle would keep about 10 MiB of
/// them resident that it will not use again; each command then adds the code it ran. ``trim()``
/// releases them (`MADV_DONTNEED`): they stay in the page cache, shared with every other process,
/// and come back as they are used, with the kernel's 64 KiB fault-around. The daemon trims each
/// time its engine thread has been without work for ``quietSeconds`` (docs/modules.md "What
/// sessionctl links").
///
/// What may be released, and why nothing is lost:
/// - executable mappings (`r-xp`) are never written (no text relocations): all their pages are
///   the file's. They are also marked randomly accessed (`MADV_RANDOM`: no read-ahead), which
///   does not turn fault-around off.
/// - read-only mappings (`r--p`) can no longer be written, but pages the dynamic loader wrote
///   before it made them read-only (relocations, RELRO) are private copies: releasing those
///   would bring back the file's unrelocated bytes. So only the pages /proc/self/pagemap shows as
///   the file's own are released, and a private copy is kept.
/// - writable mappings are left alone: a page written between reading pagemap and releasing it
///   would be lost.
public enum ResidentCode {
  /// How long the daemon's engine thread waits without work before it trims: long enough that a
  /// client's run of commands (`set`, `activate`, `play`) is one burst, short enough that a
  /// daemon left alone holds only what it needs soon after.
  public static let quietSeconds: Double = 2

  /// A file-backed mapping of this process, as /proc/self/maps lists it.
  public struct Mapping: Equatable, Sendable {
    public let start: UInt
    public let end: UInt
    /// `r-xp`, `r--p`, …
    public let permissions: String
    public let path: String
  }

  /// The file-backed mappings of this process, from one read of /proc/self/maps.
  public static func fileMappings() -> [Mapping] {
    (ProcFile.lines("/proc/self/maps") ?? []).compactMap { line in
      // start-end perms offset dev inode path
      let fields = line.split(separator: " ", omittingEmptySubsequences: true)
      guard fields.count >= 6, fields[5].hasPrefix("/") else { return nil }
      let range = fields[0].split(separator: "-")
      guard range.count == 2, let start = UInt(range[0], radix: 16),
        let end = UInt(range[1], radix: 16)
      else { return nil }
      return Mapping(
        start: start, end: end, permissions: String(fields[1]), path: String(fields[5]))
    }
  }

  /// What ``trim()`` did.
  public struct Trimmed: Equatable, Sendable {
    /// Executable mappings released.
    public var executableMappings = 0
    /// Read-only mappings whose file pages were released.
    public var readOnlyMappings = 0
    /// Pages of read-only mappings kept because they are private copies (relocated).
    public var privatePagesKept = 0
  }

  /// Releases the resident pages of every executable mapping, and the file's own pages of every
  /// read-only mapping, and turns read-ahead off for the executable ones.
  ///
  /// Everything is read and worked out before the first page goes: code that ran after that
  /// (reading /proc/self/maps, splitting its lines into strings) would fault its pages straight
  /// back, with their 64 KiB neighbourhoods: about 2 MB in the daemon.
  @discardableResult
  public static func trim() -> Trimmed {
    var trimmed = Trimmed()
    let mappings = fileMappings()
    let code = mappings.filter { $0.permissions == "r-xp" }
    var data: [(start: UInt, pages: Int)] = []
    let pagemap = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC)
    if pagemap >= 0 {
      for mapping in mappings where mapping.permissions == "r--p" {
        guard let scan = filePageRuns(of: mapping, pagemap: pagemap) else { continue }
        trimmed.readOnlyMappings += 1
        trimmed.privatePagesKept += scan.kept
        data += scan.runs
      }
      close(pagemap)
    }
    // From here on, only madvise calls.
    for run in data {
      _ = madvise(
        UnsafeMutableRawPointer(bitPattern: run.start), run.pages * Int(pageSize), MADV_DONTNEED)
    }
    for mapping in code {
      let address = UnsafeMutableRawPointer(bitPattern: mapping.start)
      let length = Int(mapping.end - mapping.start)
      guard madvise(address, length, MADV_RANDOM) == 0 else { continue }
      if madvise(address, length, MADV_DONTNEED) == 0 { trimmed.executableMappings += 1 }
    }
    return trimmed
  }

  /// Page size of this machine.
  static let pageSize = UInt(sysconf(Int32(_SC_PAGESIZE)))

  /// The runs of `mapping`'s pages that are not private copies, and how many pages are, or nil
  /// if pagemap could not be read. A pagemap entry (64 bits per page, the kernel's
  /// Documentation/admin-guide/mm/pagemap.rst): bit 63 present, bit 61 file page or shared.
  static func filePageRuns(
    of mapping: Mapping, pagemap: Int32
  ) -> (runs: [(start: UInt, pages: Int)], kept: Int)? {
    let pages = Int((mapping.end - mapping.start) / pageSize)
    guard pages > 0 else { return ([], 0) }
    var entries = [UInt64](repeating: 0, count: pages)
    let wanted = pages * MemoryLayout<UInt64>.size
    let read = entries.withUnsafeMutableBytes { buffer in
      pread(pagemap, buffer.baseAddress, wanted, off_t(mapping.start / pageSize) * 8)
    }
    guard read == wanted else { return nil }
    let present: UInt64 = 1 << 63
    let filePage: UInt64 = 1 << 61
    var runs: [(start: UInt, pages: Int)] = []
    var kept = 0
    var runStart: Int? = nil
    for (index, entry) in entries.enumerated() {
      let privateCopy = entry & present != 0 && entry & filePage == 0
      if privateCopy {
        kept += 1
        if let first = runStart {
          runs.append((mapping.start + UInt(first) * pageSize, index - first))
        }
        runStart = nil
      } else if runStart == nil {
        runStart = index
      }
    }
    if let first = runStart { runs.append((mapping.start + UInt(first) * pageSize, pages - first)) }
    return (runs, kept)
  }
}
