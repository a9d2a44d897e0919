#if canImport(Glibc)
  import Glibc
#endif

/// A process's parents, read from `/proc/PID/stat` (docs/mpris.md "Which player is whose"): a
/// program's MPRIS player may be owned by an ancestor of the process that plays (a browser's
/// audio runs in a child process).
public enum ProcessAncestry {
  /// `pid`, then its parent, its parent's parent, and so on, up to `limit` steps; stops at pid 1
  /// (not included) or at a process that is gone.
  public static func lineage(of pid: Int32, limit: Int = 100) -> [Int32] {
    var chain: [Int32] = []
    var current = pid
    while current > 1, chain.count <= limit, !chain.contains(current) {
      chain.append(current)
      guard let parent = parent(of: current) else { break }
      current = parent
    }
    return chain
  }

  /// The parent process id, or nil if the process is gone.
  public static func parent(of pid: Int32) -> Int32? {
    statField(1, of: pid)
  }

  /// The process group id (what a shell or a launcher started as one job), or nil if the
  /// process is gone (docs/apps.md "Sessions of other programs").
  public static func processGroup(of pid: Int32) -> Int32? {
    statField(2, of: pid)
  }

  /// A numeric field of `/proc/PID/stat` after the command's name: 0 is the state, 1 the parent,
  /// 2 the process group.
  private static func statField(_ field: Int, of pid: Int32) -> Int32? {
    guard let file = fopen("/proc/\(pid)/stat", "r") else { return nil }
    defer { fclose(file) }
    var buffer = [CChar](repeating: 0, count: 1024)
    guard fgets(&buffer, Int32(buffer.count), file) != nil else { return nil }
    let line = String(
      decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    // `pid (comm) state ppid …`; comm may hold spaces and parentheses: read after the last ')'.
    guard let close = line.lastIndex(of: ")") else { return nil }
    let fields = line[line.index(after: close)...].split(separator: " ")
    guard fields.count > field, let value = Int32(fields[field]) else { return nil }
    return value
  }
}
