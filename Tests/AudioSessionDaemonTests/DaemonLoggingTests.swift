import AudioSession
import AudioSessionDaemon
import AudioSessionHost
import AudioSessionSystem
import AudioSessionTestSupport
import AudioSessionWire
import Foundation
import InMemoryLogging
import Logging
import Synchronization
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// README "Running the daemon" (logging): the daemon logs through swift-log, one line per event
/// with its level and metadata, and with its syslog priority when standard error is the journal.
@Suite struct DaemonLoggingTests {
  /// A logger that keeps what it is given, from `trace` up.
  static func recording() -> (Logger, InMemoryLogHandler) {
    let handler = InMemoryLogHandler()
    var logger = Logger(label: "test") { _ in handler }
    logger.logLevel = .trace
    return (logger, handler)
  }

  @Test("a restored session is logged at notice with the state file and the sessions")
  func restore_savedSessions_logsNoticeWithMetadata() async throws {
    let folder = try TemporaryFolder.make()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/sessions.json"
    try SessionStore(path: path).save([.init(name: "music", configuration: .initial)])
    let (logger, handler) = Self.recording()
    let core = try await DaemonCore(
      policy: TestPolicies.policy(), backend: InMemoryAudioBackend(), stateFile: path,
      identity: DaemonCore.Identity(pid: getpid(), profile: "default"), logger: logger)
    await core.shutdown()
    let restored = handler.entries.filter { $0.level == .notice }
    #expect(restored.map(\.message.description) == ["restored 1 session from \(path)"])
    #expect(restored.first?.metadata["path"] == "\(path)")
    #expect(restored.first?.metadata["sessions"] == .array(["music"]))
  }

  @Test("an unreadable state file is logged as an error naming the file")
  func restore_corruptStateFile_logsError() async throws {
    let folder = try TemporaryFolder.make()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/sessions.json"
    try Data("{not json".utf8).write(to: URL(fileURLWithPath: path))
    let (logger, handler) = Self.recording()
    let core = try await DaemonCore(
      policy: TestPolicies.policy(), backend: InMemoryAudioBackend(), stateFile: path,
      identity: DaemonCore.Identity(pid: getpid(), profile: "default"), logger: logger)
    await core.shutdown()
    let errors = handler.entries.filter { $0.level == .error }
    #expect(errors.count == 1)
    #expect(errors.first?.message.description.hasSuffix("; starting with no sessions") == true)
    #expect(errors.first?.metadata["path"] == "\(path)")
  }

  @Test("a client's connection and its end are logged at debug with its pid")
  func connection_openAndClose_logsDebugWithPid() async throws {
    let (logger, handler) = Self.recording()
    let folder = try TemporaryFolder.make()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let core = try await DaemonCore(
      policy: TestPolicies.policy(), backend: InMemoryAudioBackend(), stateFile: nil,
      identity: DaemonCore.Identity(pid: getpid(), profile: "default"), logger: logger)
    let server = try await DaemonServer.start(
      core: core, socketPath: folder + "/d.sock", logger: logger)
    let client = try DaemonConnection(socketPath: folder + "/d.sock")
    #expect(try client.request(.command(.status)).error == nil)
    let opened = handler.entries.first { $0.message.description == "connection 1 opened" }
    #expect(opened?.level == .debug)
    #expect(opened?.metadata["pid"] == "\(getpid())")
    #expect(opened?.metadata["uid"] == "\(getuid())")
    await server.stop()
  }

  /// Collects the lines a ``DaemonLogHandler`` writes.
  final class Lines: Sendable {
    let lines = Mutex<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
  }

  @Test("lines: info plain, others with their level, metadata sorted, one line per event")
  func handler_lines_levelMetadataOneLine() {
    let lines = Lines()
    var logger = Logger(label: "test") { _ in
      DaemonLogHandler(prefix: "audiosessiond", level: .debug, journal: false) {
        lines.append($0)
      }
    }
    logger.logLevel = .debug
    logger.info("listening on /tmp/s")
    logger.warning("cannot restore\nsession 'x'", metadata: ["session": "x", "pid": "12"])
    logger.trace("not shown")
    logger.debug("shown")
    #expect(
      lines.lines.withLock { $0 } == [
        "audiosessiond: listening on /tmp/s\n",
        "audiosessiond: warning: cannot restore\\nsession 'x' {pid=12, session=x}\n",
        "audiosessiond: debug: shown\n",
      ])
  }

  @Test("under the journal each line starts with its syslog priority")
  func handler_journal_priorityPrefix() {
    let lines = Lines()
    let logger = Logger(label: "test") { _ in
      DaemonLogHandler(prefix: "audiosessiond", level: .info, journal: true) {
        lines.append($0)
      }
    }
    logger.info("listening")
    logger.notice("restored")
    logger.error("cannot save", metadata: ["path": "/x"])
    logger.critical("gone")
    #expect(
      lines.lines.withLock { $0 } == [
        "<6>audiosessiond: listening\n", "<5>audiosessiond: restored\n",
        "<3>audiosessiond: error: cannot save {path=/x}\n",
        "<2>audiosessiond: critical: gone\n",
      ])
  }

  @Test("JOURNAL_STREAM counts only when it names standard error's own device and inode")
  func journalStream_mustNameStandardError() {
    var info = stat()
    #expect(fstat(2, &info) == 0)
    let own = "\(info.st_dev):\(info.st_ino)"
    #expect(DaemonLogHandler.standardErrorIsJournal(environment: ["JOURNAL_STREAM": own]))
    let other = "\(info.st_dev):\(info.st_ino + 1)"
    #expect(!DaemonLogHandler.standardErrorIsJournal(environment: ["JOURNAL_STREAM": other]))
    #expect(!DaemonLogHandler.standardErrorIsJournal(environment: ["JOURNAL_STREAM": "x"]))
    #expect(!DaemonLogHandler.standardErrorIsJournal(environment: [:]))
  }

  @Test("audiosessiond --log-level warning leaves out info lines; debug shows connections")
  func sessionctl_logLevel_filters() throws {
    let folder = try TemporaryFolder.make()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let socket = folder + "/d.sock"
    let debug = try SessionctlProcess.launch(["daemon", "--socket", socket, "--log-level", "debug"])
    #expect(SessionctlProcess.readLine(debug.error)?.contains("listening on") == true)
    _ = try SessionctlProcess.run(["status", "--socket", socket])
    let opened = SessionctlProcess.readLine(debug.error)
    #expect(opened?.hasPrefix("audiosessiond: debug: connection 1 opened {") == true)
    #expect(opened?.contains("pid=") == true)
    debug.process.terminate()
    debug.process.waitUntilExit()

    let quiet = try SessionctlProcess.launch(
      ["daemon", "--socket", socket], environment: ["AUDIOSESSION_LOG_LEVEL": "warning"])
    let deadline = Date(timeIntervalSinceNow: 20)
    while (try? RawSocketClient(path: socket)) == nil, Date() < deadline { usleep(20_000) }
    quiet.process.terminate()
    quiet.process.waitUntilExit()
    let rest = quiet.error.fileHandleForReading.readDataToEndOfFile()
    #expect(String(decoding: rest, as: UTF8.self) == "")
  }
}
