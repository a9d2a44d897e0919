// What every benchmark program ends with (docs/style.md §3.10): one table of its goals,
// each with the figure it measured and whether the goal was met, and an exit status that says
// so (0: every goal met; 1: one was not; 3: the program ran past its time limit). Each row is
// also appended to the file named by BENCH_SUMMARY, as one tab-separated line (bench, goal,
// figure, met), which scripts/bench.sh reads to print the summary of all the benches.
//
// A watchdog thread ends the program when it runs past its time limit (BENCH_TIME_LIMIT
// seconds, or the program's default), saying so, with the goals measured until then: a bench
// that hangs or grows slow is a finding, not a wait.
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

public final class BenchGoals: @unchecked Sendable {
  public struct Row: Sendable {
    public var goal: String
    public var figure: String
    public var met: Bool
  }

  public let bench: String
  public let limitSeconds: Int
  /// Whether the bench runs in quick mode (BENCH_QUICK=1, `make bench-quick`): fewer rounds.
  public let quick: Bool
  private let lock = NSLock()
  private var rows: [Row] = []
  private var finished = false

  /// Starts the watchdog. `limitSeconds`: the program's own time limit, unless BENCH_TIME_LIMIT
  /// names another.
  public init(bench: String, limitSeconds: Int) {
    self.bench = bench
    let environment = ProcessInfo.processInfo.environment
    if let text = environment["BENCH_TIME_LIMIT"], let limit = Int(text), limit > 0 {
      self.limitSeconds = limit
    } else {
      self.limitSeconds = limitSeconds
    }
    self.quick = environment["BENCH_QUICK"] == "1"
    let thread = Thread { [self] in
      Thread.sleep(forTimeInterval: TimeInterval(self.limitSeconds))
      self.ranPastLimit()
    }
    thread.name = "bench watchdog"
    thread.start()
    print("\(bench): time limit \(self.limitSeconds) s\(quick ? ", quick mode" : "")")
  }

  /// Records one goal: `figure` is what was measured, as a reader wants it ("1.43x (7.03 / 4.90
  /// ms)").
  public func check(_ goal: String, _ figure: String, met: Bool) {
    lock.lock()
    rows.append(Row(goal: goal, figure: figure, met: met))
    lock.unlock()
  }

  /// Prints the table, appends it to BENCH_SUMMARY and exits: 0 when every goal was met.
  public func finish() -> Never {
    let rows = take()
    exit(report(rows, extra: nil) ? 0 : 1)
  }

  private func take() -> [Row] {
    lock.lock()
    defer { lock.unlock() }
    finished = true
    return rows
  }

  private func ranPastLimit() {
    lock.lock()
    let already = finished
    finished = true
    let rows = self.rows
    lock.unlock()
    guard !already else { return }
    print("")
    print(
      "\(bench): ran past its time limit of \(limitSeconds) s; stopped, with what it measured so far"
    )
    // The private servers and programs it started would outlive it: stop them by pid.
    let children = Self.descendants(of: getpid())
    for pid in children { kill(pid, SIGTERM) }
    usleep(200_000)
    for pid in children { kill(pid, SIGKILL) }
    _ = report(
      rows,
      extra: Row(goal: "finishes within \(limitSeconds) s", figure: "ran past it", met: false))
    exit(3)
  }

  /// The number of goals recorded so far.
  public var count: Int {
    lock.lock()
    defer { lock.unlock() }
    return rows.count
  }

  /// Every process below `root` (from each process's parent in /proc/PID/stat).
  static func descendants(of root: pid_t) -> [pid_t] {
    var parents: [pid_t: pid_t] = [:]
    for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
      guard let pid = pid_t(name),
        let stat = try? String(contentsOfFile: "/proc/\(name)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
      else { continue }
      // After the command's name: state, then the parent's pid.
      let fields = stat[stat.index(after: close)...].split(separator: " ")
      if fields.count > 1, let parent = pid_t(fields[1]) { parents[pid] = parent }
    }
    var found: [pid_t] = []
    var frontier = [root]
    while let next = frontier.popLast() {
      let children = parents.filter { $0.value == next }.map(\.key)
      found += children
      frontier += children
    }
    return found
  }

  /// Prints the table and writes the summary lines; whether every goal was met.
  private func report(_ rows: [Row], extra: Row?) -> Bool {
    var all = rows
    if let extra { all.append(extra) }
    if all.isEmpty {
      all.append(Row(goal: "measures at least one goal", figure: "none measured", met: false))
    }
    print("")
    print(Self.table(title: bench, all))
    if let path = ProcessInfo.processInfo.environment["BENCH_SUMMARY"], !path.isEmpty {
      let lines = all.map { row in
        [bench, row.goal, row.figure, row.met ? "met" : "NOT met"]
          .map { $0.replacingOccurrences(of: "\t", with: " ") }.joined(separator: "\t") + "\n"
      }.joined()
      if let handle = FileHandle(forWritingAtPath: path) ?? Self.create(path) {
        handle.seekToEndOfFile()
        handle.write(Data(lines.utf8))
        try? handle.close()
      }
    }
    fflush(nil)
    return all.allSatisfy(\.met)
  }

  private static func create(_ path: String) -> FileHandle? {
    _ = FileManager.default.createFile(atPath: path, contents: nil)
    return FileHandle(forWritingAtPath: path)
  }

  /// The goals as a table: goal, figure, met or NOT met.
  public static func table(title: String, _ rows: [Row]) -> String {
    let goalWidth = max(4, rows.map(\.goal.count).max() ?? 0)
    let figureWidth = max(6, rows.map(\.figure.count).max() ?? 0)
    func line(_ goal: String, _ figure: String, _ met: String) -> String {
      goal.padding(toLength: goalWidth, withPad: " ", startingAt: 0) + "  "
        + figure.padding(toLength: figureWidth, withPad: " ", startingAt: 0) + "  " + met
    }
    var text = "\(title) goals:\n" + line("goal", "figure", "result")
    for row in rows { text += "\n" + line(row.goal, row.figure, row.met ? "met" : "NOT met") }
    return text
  }
}
