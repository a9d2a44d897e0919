#if canImport(Glibc)
  import Glibc
#endif

/// The process's limit on open file descriptors (`RLIMIT_NOFILE`), which bounds how many clients
/// the daemon can hold: each connection is one descriptor (docs/protocol.md "Limits").
///
/// systemd starts user services with a soft limit of 1,024 and a hard limit far above it, and a
/// shell's `ulimit -Sn` lowers only the soft one: a process may raise its soft limit up to the
/// hard one by itself, which the daemon does as it starts (``raiseSoftToHard()``).
public enum DescriptorLimit {
  /// The soft and hard limits, as `getrlimit` reads them (`RLIM_INFINITY` as `Int.max`).
  public struct Limits: Equatable, Sendable {
    public var soft: Int
    public var hard: Int
  }

  /// The current limits.
  public static func current() -> Limits {
    var limit = rlimit()
    guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else {
      return Limits(soft: 1024, hard: 1024)
    }
    return Limits(soft: count(limit.rlim_cur), hard: count(limit.rlim_max))
  }

  /// Raises the soft limit to the hard one (a hard limit of "unlimited" is taken as
  /// `/proc/sys/fs/nr_open`, the most the kernel allows). Returns the limits before and after;
  /// they are equal when there was nothing to raise or the kernel refused.
  @discardableResult
  public static func raiseSoftToHard() -> (before: Limits, after: Limits) {
    let before = current()
    guard before.soft < before.hard else { return (before, before) }
    var target = before.hard
    if target == Int.max { target = kernelMaximum() ?? before.soft }
    guard target > before.soft else { return (before, before) }
    var limit = rlimit(rlim_cur: rlim_t(target), rlim_max: rlim_t(clamping: before.hard))
    if before.hard == Int.max { limit.rlim_max = infinity }
    guard setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return (before, before) }
    return (before, current())
  }

  /// `RLIM_INFINITY`, all ones (the C macro does not import).
  private static let infinity = rlim_t.max

  private static func count(_ value: rlim_t) -> Int {
    value == infinity ? Int.max : Int(clamping: value)
  }

  /// `/proc/sys/fs/nr_open`: the most descriptors a process may be allowed.
  private static func kernelMaximum() -> Int? {
    guard let line = ProcFile.lines("/proc/sys/fs/nr_open")?.first else { return nil }
    return Int(line.trimmingWhitespace())
  }
}
