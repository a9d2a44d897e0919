import AudioSessionTestSupport
import Foundation
import Testing

/// An idle daemon does not wake up (docs/style.md §3.12): no code the daemon's run executes may
/// start a libdispatch worker, whose pool monitor then wakes the process about once a second for
/// good. A source scan, so that a `Task.sleep` or a `DispatchQueue` in the daemon's modules fails
/// here, before `DaemonIdleTests` or `make bench` could meet it at run time.
@Suite struct DaemonNoDispatchTests {
  /// The modules whose code runs in the daemon (`audiosessiond` and what it links for its run).
  /// Not scanned: the commands (`SessionctlCommands`: the daemon program only reads its options
  /// with them), the client library and the compatibility products, which run in apps.
  static let daemonModules = [
    "AudioSession", "AudioSessionSystem", "AudioSessionWire", "AudioSessionArbiter",
    "AudioSessionHost", "AudioSessionPulse", "AudioSessionMPRIS", "AudioSessionMPRISPlayer",
    "AudioSessionDaemon", "SessionctlPulse", "audiosessiond",
  ]

  /// Files of those modules that never run in the daemon, and why.
  static let exempt = [
    // The client's connection to a daemon: apps and sessionctl deliver notifications on it.
    "Sources/AudioSessionWire/DaemonConnection.swift"
  ]

  /// What starts libdispatch's workers: `Task.sleep` and a clock's `sleep` (Swift 6.3 schedules
  /// their wakeup on libdispatch, past the executor hook), and any of Dispatch's types.
  static let patterns = [
    #"(?:\bTask|Clock\(\)|\bclock)\.sleep\b"#, #"\bDispatch[A-Z]\w*"#,
    #"^\s*(?:@\w+\s+)?(?:public |package |internal )?import Dispatch\b"#,
  ]

  @Test("no Task.sleep, clock sleep or Dispatch in the code the daemon runs (docs/style.md §3.12)")
  func daemonModules_useNeitherTaskSleepNorDispatch() throws {
    let checker = try DocReferenceChecker(root: Repository.root)
    var found: [String] = []
    for module in Self.daemonModules {
      let files = try checker.files(under: "Sources/" + module).filter { $0.hasSuffix(".swift") }
      #expect(!files.isEmpty, "Sources/\(module) has no Swift files")
      for file in files where !Self.exempt.contains(file) {
        let text = try String(contentsOfFile: Repository.root + "/" + file, encoding: .utf8)
        found += try Self.uses(in: text, file: file)
      }
    }
    #expect(
      found.isEmpty,
      "wait with TimerThread.sleep, use SystemThread:\n\(found.joined(separator: "\n"))")
  }

  @Test("the scan finds Task.sleep, Dispatch types and imports, and skips comments")
  func scan_finds_usesOutsideComments() throws {
    let text = """
      import Dispatch
      try await Task.sleep(for: .seconds(1))
      let queue = DispatchQueue(label: "x")
      try await ContinuousClock().sleep(for: .seconds(1))
      /// Not `Task.sleep`, which would wake the daemon; `DispatchQueue` neither.
      try await TimerThread.sleep(for: .milliseconds(50))  // not Task.sleep
      """
    let found = try Self.uses(in: text, file: "Example.swift")
    #expect(
      found.map { $0.prefix(16) } == [
        "Example.swift:1:", "Example.swift:2:", "Example.swift:3:", "Example.swift:4:",
      ])
  }

  /// Each line of `text` outside comments that matches a pattern, as `file:line: text`.
  static func uses(in text: String, file: String) throws -> [String] {
    let expressions = try patterns.map { try NSRegularExpression(pattern: $0) }
    var found: [String] = []
    for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
    {
      var code = String(line)
      if let comment = code.range(of: "//") { code = String(code[..<comment.lowerBound]) }
      let range = NSRange(location: 0, length: (code as NSString).length)
      if expressions.contains(where: { $0.firstMatch(in: code, range: range) != nil }) {
        found.append("\(file):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
      }
    }
    return found
  }
}
