import AudioSessionSystem
import AudioSessionTestSupport
import AudioSessionWire
import Foundation
import Testing

@testable import AudioSession

#if canImport(Glibc)
  import Glibc
#endif

/// `scripts/check-docs.sh`, which `make test` runs on the README and docs/ (every
/// documented command tried as written), checked on fixtures: it must fail on a
/// wrong block and say where, skip only what is marked with a reason, and leave nothing running.
@Suite struct DocsCheckTests {
  /// What one run of the checker printed, and how it exited.
  struct Run {
    var status: Int32?
    var output: String
    var lines: [String] { output.split(separator: "\n").map(String.init) }
  }

  /// Runs the checker on one Markdown file written to a temporary directory. It is spawned with
  /// a clean signal mask (`ChildProcess`), as from a shell: a child of a Swift test inherits
  /// libdispatch's blocked signals otherwise, and the SIGTERM it sends its blocks' background
  /// commands would never arrive.
  static func check(_ markdown: String, in directory: String) throws -> Run {
    let file = directory + "/fixture.md"
    try markdown.write(toFile: file, atomically: true, encoding: .utf8)
    let binaries = URL(fileURLWithPath: SessionctlProcess.executable).deletingLastPathComponent()
    var environment = ProcessInfo.processInfo.environment
    environment["CHECK_DOCS_BIN"] = binaries.path
    let log = directory + "/check-docs.log"
    let child = try ChildProcess.spawn(
      "/bin/bash", arguments: [Repository.root + "/scripts/check-docs.sh", file],
      environment: environment, output: .appending(log))
    // Bounded wait for an external process: the checker limits each block to 60 s.
    let deadline = Date().addingTimeInterval(120)
    while child.isRunning, Date() < deadline { usleep(10_000) }
    if child.isRunning { child.end(SIGTERM) }
    return Run(
      status: child.exitStatus, output: try String(contentsOfFile: log, encoding: .utf8))
  }

  static func temporaryDirectory() throws -> String {
    let path = NSTemporaryDirectory() + "/docs-check-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    return path
  }

  /// Whether a process with this pid exists and is not a zombie.
  static func isRunning(_ pid: Int32) -> Bool {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else {
      return false
    }
    return !stat.contains(") Z ")
  }

  @Test(
    "a console block whose output differs, a failing sh block and an unmarked fence fail with file:line, expected and actual; '...' and marked skips pass (scripts/check-docs.sh)"
  )
  func wrongBlocks_fail_withFileAndLine() throws {
    let directory = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let fixture = """
      # Fixture

      ```console
      $ printf 'one\\ntwo\\nthree\\n'
      one
      ...
      three
      ```

      ```console
      $ sessionctl policy check policies
      OK: policies: 99 categories
      ```

      <!-- check-docs: skip: needs a system service -->
      ```sh
      systemctl --user status audiosession
      ```

      ```sh
      sessionctl policy check policies
      sessionctl policy check no/such/dir
      echo not reached
      ```

      ```
      sessionctl status
      ```

      <!-- check-docs: skip -->
      ```sh
      true
      ```
      """
    let run = try Self.check(fixture, in: directory)
    let file = directory + "/fixture.md"
    #expect(run.status == 1, "\(run.output)")
    #expect(run.output.contains("ok   \(file):3 (console"), "\(run.output)")
    // The wrong output: where, the command, expected and actual.
    #expect(run.output.contains("FAIL \(file):11 (console block at line 10)"), "\(run.output)")
    #expect(run.output.contains("command: sessionctl policy check policies"))
    #expect(run.output.contains("-OK: policies: 99 categories"))
    #expect(run.output.contains("+OK: policies: 7 categories"))
    // The failing command of an sh block is named by its own line.
    #expect(run.output.contains("FAIL \(file):22 (sh block at line 20)"), "\(run.output)")
    #expect(run.output.contains("command: sessionctl policy check no/such/dir"))
    #expect(!run.output.contains("not reached"))
    // Skips are reported with their reason; a skip without one, and a fence without a
    // language, are failures.
    #expect(run.output.contains("skip \(file):16 (sh): needs a system service"))
    #expect(run.output.contains("FAIL \(file):26\n"), "\(run.output)")
    #expect(run.output.contains("FAIL \(file):31\n"), "\(run.output)")
    #expect(run.lines.last == "1 passed, 4 failed")
  }

  @Test(
    "a sh block's background commands, its daemon and its private pulseaudio are stopped by PID, and its socket is private (scripts/check-docs.sh)"
  )
  func sandbox_isPrivate_andLeavesNothingRunning() throws {
    let directory = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let fixture = """
      <!-- check-docs: pulse; env AUDIOSESSION_AUTOSTART=1 -->
      ```sh
      sleep 300 &
      echo $! > \(directory)/sleep.pid
      test "$HOME" != "\(NSHomeDirectory())"
      test -S "$XDG_RUNTIME_DIR/pulse/native"
      pactl info | grep -q 'Server Name: pulseaudio'
      cat "$XDG_RUNTIME_DIR/pulse/pid" > \(directory)/pulse.pid
      sessionctl status 2> \(directory)/autostart.txt
      cat "$XDG_RUNTIME_DIR/audiosession/daemon.sock.lock" > \(directory)/daemon.pid
      ```
      """
    let run = try Self.check(fixture, in: directory)
    #expect(run.status == 0, "\(run.output)")
    #expect(run.lines.last == "1 passed, 0 failed", "\(run.output)")
    // The command started a daemon (autostart on, as the block asked), on the private socket.
    let autostart = try String(contentsOfFile: directory + "/autostart.txt", encoding: .utf8)
    #expect(autostart.contains("started the audio session daemon"), "\(autostart)")
    #expect(!autostart.contains(ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"] ?? "\0"))
    for name in ["sleep", "pulse", "daemon"] {
      let text = try String(contentsOfFile: "\(directory)/\(name).pid", encoding: .utf8)
      let pid = Int32(text.filter(\.isNumber)) ?? 0
      #expect(pid > 0, "\(name): \(text)")
      #expect(!Self.isRunning(pid), "the block's \(name) (pid \(pid)) is still running")
    }
  }
}
