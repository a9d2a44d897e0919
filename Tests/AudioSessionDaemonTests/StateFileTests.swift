import AudioSession
import AudioSessionDaemon
import AudioSessionDaemonTestSupport
import AudioSessionHost
import AudioSessionHostTestSupport
import AudioSessionSystem
import AudioSessionTestSupport
import AudioSessionWire
import Foundation
import InMemoryLogging
import Logging
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// docs/protocol.md "The state file": state never lost, and state that scales: what the daemon
/// cannot read is moved aside and named in the log and in `status`, one bad entry drops that entry
/// alone, a newer version's file is left untouched, every socket has its own file, names read back
/// obey the protocol, and each change is appended to a journal before it is answered
/// (docs/protocol.md "The state file").
@Suite struct StateFileTests {
  static func entry(_ name: String, _ category: String = "playback") -> String {
    #"{"name":"\#(name)","category":"\#(category)","mode":"default","options":[],"policy":"default"}"#
  }

  static func snapshot(_ entries: [String]) -> String {
    #"{"v":1,"sessions":["# + entries.joined(separator: ",") + "]}\n"
  }

  /// A core on the state file at `path` (no socket), logging to a recorder.
  static func core(_ path: String) async throws -> (DaemonCore, InMemoryLogHandler) {
    let handler = InMemoryLogHandler()
    var logger = Logger(label: "test") { _ in handler }
    logger.logLevel = .trace
    let core = try await DaemonCore(
      policy: TestPolicies.policy(), backend: InMemoryAudioBackend(), stateFile: path,
      identity: DaemonCore.Identity(pid: getpid(), profile: "default"), logger: logger)
    return (core, handler)
  }

  static func names(_ core: DaemonCore) async -> [String] {
    await core.status().sessions.map(\.name)
  }

  static func run(_ core: DaemonCore, _ command: Command) async -> DaemonReply {
    let id = await core.connect(RecordingPeer())
    return await core.perform(DaemonRequest(id: 1, .command(command)), from: id)
  }

  static func set(_ name: String, _ category: AudioSession.Category = .playback) -> Command {
    .input(.setCategory(session: name, category: category, mode: nil, options: []))
  }

  /// The files in `folder`, sorted.
  static func files(_ folder: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
  }

  /// The file the state file was moved aside to, if one was.
  static func aside(_ folder: String, _ name: String = "sessions.json") -> String? {
    files(folder).first { $0.hasPrefix(name + ".bad-") }.map { folder + "/" + $0 }
  }

  static func errors(_ handler: InMemoryLogHandler) -> [String] {
    handler.entries.filter { $0.level == .error }.map(\.message.description)
  }

  @Test(
    "a truncated or garbage state file is moved aside byte for byte, named in the log and in status, and never written over",
    arguments: [
      Array(#"{"v":1,"sessions":[{"name":"mus"#.utf8), [0xFF, 0xFE, 0x00, 0x7B, 0x0A],
      Array(#"["not","an","object"]"#.utf8), Array(#"{"sessions":[]}"#.utf8),
    ])
  func unreadable_movedAsideAndNamed(bytes: [UInt8]) async throws {
    let folder = try TemporaryFolder.make()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/sessions.json"
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    let (core, handler) = try await Self.core(path)
    // The daemon starts with no session, and says why, where the file went, in the log
    #expect(await Self.names(core).isEmpty)
    let aside = try #require(Self.aside(folder))
    #expect(try Data(contentsOf: URL(fileURLWithPath: aside)) == Data(bytes))
    let errors = Self.errors(handler)
    #expect(errors.count == 1)
    #expect(errors.first?.hasPrefix("state file: '\(path)' cannot be read: ") == true)
    #expect(errors.first?.contains("moved aside, as it was, to '\(aside)'") == true)
    #expect(errors.first?.hasSuffix("; starting with no sessions") == true)
    // and in status
    let problems = try #require(await core.status().stateFile?.problems)
    #expect(problems.count == 1)
    #expect(problems.first?.contains(aside) == true)
    // as the wire carries it (system.stateFile)
    let json = TranscriptJSON.status(await core.status())
    #expect(try WireDecoding.status(json).stateFile?.problems == problems)
    // The first change saves the new state; the old bytes stay where they were moved
    #expect(await Self.run(core, Self.set("music"))["notSaved"] == nil)
    #expect(try SessionStore(path: path).load().map(\.name) == ["music"])
    #expect(try Data(contentsOf: URL(fileURLWithPath: aside)) == Data(bytes))
    await core.shutdown()
  }

  @Test(
    "a state file the daemon may not read (another user's, a link, a folder) is moved aside too")
  func unreadableKinds_movedAside() async throws {
    let folder = try TemporaryFolder.make()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/sessions.json"
    var kinds: [(String, () throws -> Void)] = [
      ("a symbolic link", { symlink(folder + "/elsewhere", path) }),
      ("a folder", { mkdir(path, 0o700) }),
    ]
    if getuid() == 0 {
      // chmod 000 keeps nothing from root; a file of another user is what root may not trust.
      kinds.append(
        (
          "another user's file",
          {
            try Self.snapshot([Self.entry("music")]).write(
              toFile: path, atomically: false, encoding: .utf8)
            chown(path, 65534, 65534)
          }
        ))
    }
    for (kind, make) in kinds {
      try make()
      let (core, handler) = try await Self.core(path)
      #expect(await Self.names(core).isEmpty, "\(kind)")
      let aside = Self.aside(folder)
      #expect(aside != nil, "\(kind)")
      #expect(Self.errors(handler).first?.contains("moved aside") == true, "\(kind)")
      await core.shutdown()
      if let aside { try FileManager.default.removeItem(atPath: aside) }
      try? FileManager.default.removeItem(atPath: path)
      try? FileManager.default.removeItem(atPath: path + ".journal")
    }
  }

  @Test(
    "one entry with an unknown category drops that entry alone; the file as it was is kept aside")
  func badEntry_dropsThatEntryAlone() async throws {
    let folder = try TemporaryFolder.make()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/sessions.json"
    let text = Self.snapshot([
      Self.entry("music"), Self.entry("weird", "karaoke"), Self.entry("nav", "ambient"),
    ])
    try text.write(toFile: path, atomically: false, encoding: .utf8)
    let (core, handler) = try await Self.core(path)
    #expect(await Self.names(core) == ["music", "nav"])
    #expect(await core.status().sessions.map(\.configuration.category) == [.playback, .ambient])
    let aside = try #require(Self.aside(folder))
    #expect(try String(contentsOfFile: aside, encoding: .utf8) == text)
    #expect(
      Self.errors(handler).first?.hasPrefix(
        "state file: 1 session in '\(path)' could not be read and was left out: session 2: 'weird': \"category\" must be"
      ) == true)
    // The good ones are saved again at once.
    #expect(try SessionStore(path: path).load().map(\.name) == ["music", "nav"])
    await core.shutdown()
  }

  @Test(
    "names read back obey the protocol: a path, a reserved word, a name over 64 bytes and a repeated name are left out",
    arguments: ["../../etc", "call", String(repeating: "x", count: 65), "-rf"])
  func restoredNames_obeyTheProtocol(name: String) async throws {
    let folder = try TemporaryFolder.make()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/sessions.json"
    try Self.snapshot([Self.entry(name), Self.entry("music"), Self.entry("music", "ambient")])
      .write(toFile: path, atomically: false, encoding: .utf8)
    let (core, handler) = try await Self.core(path)
    #expect(await Self.names(core) == ["music"])
    #expect(await core.status().sessions.first?.configuration.category == .playback)
    let error = try #require(Self.errors(handler).first)
    #expect(error.contains("2 sessions in '\(path)' could not be read"))
    #expect(error.contains("session 3 ('music'): the name is listed twice"))
    // Every session the daemon has can be removed again.
    #expect(await Self.run(core, .input(.removeSession("music"))).error == nil)
    #expect(try SessionStore(path: path).load().isEmpty)
    await core.shutdown()
  }

  @Test(
    "a newer version's state file is left untouched and refused with what to do; changes say they are not saved"
  )
  func newerVersion_leftUntouched() async throws {
    let folder = try TemporaryFolder.make()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/sessions.json"
    let text = #"{"v":2,"sessions":[{"name":"music","shape":"new"}],"more":true}"# + "\n"
    try text.write(toFile: path, atomically: false, encoding: .utf8)
    let (core, handler) = try await Self.core(path)
    #expect(await Self.names(core).isEmpty)
    let expected = """
      '\(path)' was written by a newer version of sessionctl (state version 2; this one reads 1): \
      it is left as it is, and this daemon restores and saves no sessions. Run the newer \
      sessionctl daemon, or move the file away to start afresh with this one
      """
    #expect(Self.errors(handler) == ["state file: \(expected); starting with no sessions"])
    #expect(await core.status().stateFile?.problems == [expected])
    let reply = await Self.run(core, Self.set("music"))
    #expect(reply.error == nil)
    #expect(
      reply["notSaved"]
        == .string(
          "the change was made, but not saved in the state file (\(expected)); it will not survive a restart of the daemon"
        ))
    await core.shutdown()
    // Byte for byte, and nothing beside it.
    #expect(try String(contentsOfFile: path, encoding: .utf8) == text)
    #expect(Self.files(folder) == ["sessions.json"])
  }

  @Test(
    "daemons whose sockets share a folder keep their sessions apart (docs/protocol.md The socket)")
  func socketsSharingAFolder_keepTheirOwnState() async throws {
    #expect(
      WireProtocol.defaultStatePath(socketPath: "/run/a/daemon.sock") == "/run/a/sessions.json")
    #expect(
      WireProtocol.defaultStatePath(socketPath: "/run/a/pw.sock") == "/run/a/pw.sessions.json")
    #expect(WireProtocol.defaultStatePath(socketPath: "/run/a/sim") == "/run/a/sim.sessions.json")
    #expect(
      WireProtocol.defaultChangesPath(socketPath: "/run/a/pw.sock")
        == "/run/a/pw.other-streams.json")
    #expect(WireProtocol.defaultChangesPath(socketPath: "daemon.sock") == "./other-streams.json")
    let folder = try TemporaryFolder.make()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let sim = folder + "/sim.sock"
    let pw = folder + "/pw.sock"
    let first = try SessionctlProcess.startDaemon(socketPath: sim)
    #expect(
      try SessionctlProcess.run(["set", "playback", "--session", "simonly", "--socket", sim])
        .status == 0)
    first.terminate()
    first.waitUntilExit()
    let second = try SessionctlProcess.startDaemon(socketPath: pw)
    defer {
      second.terminate()
      second.waitUntilExit()
    }
    let status = try SessionctlProcess.run(["status", "--json", "--socket", pw])
    #expect(status.status == 0)
    #expect(!status.output.contains("simonly"))
    #expect(FileManager.default.fileExists(atPath: folder + "/pw.sessions.json"))
    #expect(try SessionStore(path: folder + "/sim.sessions.json").load().map(\.name) == ["simonly"])
  }

  @Test(
    "each change is in the journal before its reply; a torn last line is ignored, a bad line drops that line alone"
  )
  func journal_appendedBeforeTheReply() async throws {
    let folder = try TemporaryFolder.make()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/sessions.json"
    let (core, _) = try await Self.core(path)
    // Folded at start: an empty snapshot and a journal of its header only, 0600 both
    #expect(Self.files(folder) == ["sessions.json", "sessions.json.journal"])
    for file in ["sessions.json", "sessions.json.journal"] {
      var info = stat()
      stat(folder + "/" + file, &info)
      #expect(UInt32(info.st_mode) & 0o777 == 0o600, "\(file)")
    }
    _ = await Self.run(core, Self.set("music"))
    _ = await Self.run(core, Self.set("nav", .ambient))
    _ = await Self.run(core, Self.set("music", .soloAmbient))
    _ = await Self.run(core, .input(.removeSession("nav")))
    // Read as a new daemon would, while this one still runs (nothing waits to be written)
    let journal = try String(contentsOfFile: path + ".journal", encoding: .utf8)
    // The header, then the changes numbered from 1
    #expect(journal.split(separator: "\n").count == 5)
    #expect(journal.hasPrefix(#"{"v":1,"journal":"#))
    #expect(journal.hasSuffix(#"{"v":1,"n":4,"remove":"nav"}"# + "\n"))
    let saved = try SessionStore(path: path).load()
    #expect(saved.map(\.name) == ["music"])
    #expect(saved.first?.configuration.category == .soloAmbient)
    // The daemon is killed: no shutdown. A torn line (a write it died in) and a bad line follow.
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path + ".journal"))
    handle.seekToEndOfFile()
    handle.write(
      Data(
        (#"{"v":1,"set":{"name":"ghost","category":"opera","mode":"default","options":[]}}"# + "\n")
          .utf8))
    handle.write(Data((#"{"v":1,"set":"# + Self.entry("late") + "}\n").utf8))
    handle.write(Data(#"{"v":1,"remove":"mu"#.utf8))
    try handle.close()
    let (second, handler) = try await Self.core(path)
    #expect(await Self.names(second) == ["music", "late"])
    let errors = Self.errors(handler)
    #expect(errors.count == 1)
    #expect(
      errors.first?.hasPrefix(
        "state file: 1 change in '\(path).journal' could not be read and was left out: line 6: 'ghost': \"category\" must be"
      ) == true)
    // The journal as it was is kept aside; the snapshot has everything, the journal no change.
    let aside = try #require(Self.aside(folder, "sessions.json.journal"))
    #expect(try String(contentsOfFile: aside, encoding: .utf8).hasSuffix(#"{"v":1,"remove":"mu"#))
    let emptied = try String(contentsOfFile: path + ".journal", encoding: .utf8)
    #expect(emptied.hasPrefix(#"{"v":1,"journal":"#) && emptied.split(separator: "\n").count == 1)
    #expect(try String(contentsOfFile: path, encoding: .utf8).contains(#""name":"late""#))
    await second.shutdown()
  }

  @Test(
    "kill -9 right after a change: the next daemon has it (the journal is written before the reply)"
  )
  func killRightAfterAChange_nothingLost() throws {
    let folder = try TemporaryFolder.make()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let socket = folder + "/daemon.sock"
    for round in 0..<5 {
      let daemon = try SessionctlProcess.startDaemon(socketPath: socket)
      let run = try SessionctlProcess.run([
        "set", "playback", "--mode", "spokenAudio", "--session", "s\(round)", "--socket", socket,
      ])
      kill(daemon.processIdentifier, SIGKILL)
      daemon.waitUntilExit()
      #expect(run.status == 0, "\(run.error)")
    }
    let last = try SessionctlProcess.startDaemon(socketPath: socket)
    defer {
      last.terminate()
      last.waitUntilExit()
    }
    let status = try SessionctlProcess.run(["status", "--json", "--socket", socket])
    for round in 0..<5 {
      #expect(status.output.contains(#""s\#(round)":{"category":"playback","mode":"spokenAudio""#))
    }
  }

  @Test(
    "10,000 held sessions: restored in one batch, and status answers with all of them, past the slow-reader limit (docs/protocol.md The state file, Limits)"
  )
  func tenThousandSessions_restoreAndStatus() async throws {
    let folder = try TemporaryFolder.make()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let count = 10_000
    let state = folder + "/d/sessions.json"
    mkdir(folder + "/d", 0o700)
    try SessionStore(path: state).save(
      (0..<count).map {
        SessionStore.Entry(
          name: "held\($0)",
          configuration: $0 % 2 == 0
            ? .initial
            : SessionConfiguration(
              category: .ambient, mode: .default, options: [], policy: .default))
      })
    // (How fast is daemon-bench's figure, release build: the suite runs a debug build, in
    // parallel with every other test.)
    let daemon = try await DaemonHarness.start(folder: folder)
    defer { Task { await daemon.stop() } }
    // The library's request: a reply of megabytes, larger than the 4 MiB that may wait for a
    // client that stops reading (docs/protocol.md "Limits"), still arrives whole.
    let client = try DaemonConnection(socketPath: daemon.socketPath, requestTimeout: .seconds(60))
    let reply = try client.request(.command(.status))
    guard case .object(let status)? = reply["status"],
      case .object(let sessions)? = status["sessions"]
    else {
      Issue.record("no status: \(reply.error?.description ?? "")")
      return
    }
    #expect(sessions.members.count == count)
    #expect(reply.json.serialized.utf8.count > 4 << 20)
    // And sessionctl's.
    let run = try SessionctlProcess.run([
      "status", "--json", "--timeout", "120", "--socket", daemon.socketPath,
    ])
    #expect(run.status == 0, "\(run.error)")
    #expect(run.output.contains(#""held9999":{"category":"ambient""#))
    client.close()
  }

  @Test(
    "a change that cannot be saved (read-only folder, disk full) says so: a notSaved reply, an error on stderr and exit status 1; a later change saves everything"
  )
  func unsavedChange_saysSo() async throws {
    try #require(getuid() == 0, "mounting a small file system needs root")
    let folder = try TemporaryFolder.make()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let mount = folder + "/small"
    mkdir(mount, 0o700)
    let mounted = try SessionctlProcess.run(
      ["-t", "tmpfs", "-o", "size=16k,mode=0700", "tmpfs", mount], program: "/bin/mount")
    try #require(mounted.status == 0, "cannot mount a tmpfs: \(mounted.error)")
    defer { _ = try? SessionctlProcess.run([mount], program: "/bin/umount") }
    let socket = folder + "/daemon.sock"
    let state = mount + "/sessions.json"
    let launched = try SessionctlProcess.launch(["daemon", "--socket", socket, "--state", state])
    let daemon = launched.process
    defer {
      daemon.terminate()
      daemon.waitUntilExit()
    }
    for _ in 0..<500 where (try? RawSocketClient(path: socket)) == nil { usleep(20_000) }
    #expect(
      try SessionctlProcess.run(["set", "playback", "--session", "first", "--socket", socket])
        .status == 0)
    // The disk fills up.
    let filler = mount + "/filler"
    _ = try SessionctlProcess.run(
      ["if=/dev/zero", "of=\(filler)", "bs=1024", "count=64"], program: "/bin/dd")
    var run = SessionctlProcess.Run(status: 0, output: "", error: "")
    for number in 0..<200 {
      run = try SessionctlProcess.run([
        "set", "ambient", "--session", "session\(number)", "--socket", socket,
      ])
      if run.status != 0 { break }
    }
    #expect(run.status == 1)
    #expect(
      run.error.hasPrefix(
        "Error: the change was made, but not saved in the state file (cannot write '\(state).journal': No space left on device); it will not survive a restart of the daemon"
      ))
    let json = try SessionctlProcess.run([
      "prefer", "sampleRate", "48000", "--session", "more", "--socket", socket, "--json",
    ])
    #expect(json.status == 1)
    #expect(json.output.contains(#""notSaved":"the change was made, but not saved"#))
    let status = try SessionctlProcess.run(["status", "--socket", socket])
    #expect(status.output.contains("state file: the last change could not be saved (cannot write"))
    // Space again: the next change saves the whole state.
    try FileManager.default.removeItem(atPath: filler)
    #expect(
      try SessionctlProcess.run(["set", "playback", "--session", "last", "--socket", socket])
        .status == 0)
    let saved = try SessionStore(path: state).load().map(\.name)
    #expect(saved.contains("more"))
    #expect(saved.last == "last")
    #expect(
      !(try SessionctlProcess.run(["status", "--socket", socket]).output.contains("state file")))
  }

  @Test(
    "a read-only state folder: the daemon starts, says so, and every change is answered notSaved")
  func readOnlyFolder_changesAreNotSaved() async throws {
    try #require(getuid() == 0, "mounting a read-only file system needs root")
    let folder = try TemporaryFolder.make()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let mount = folder + "/ro"
    mkdir(mount, 0o700)
    let mounted = try SessionctlProcess.run(
      ["-t", "tmpfs", "-o", "size=16k,mode=0700,ro", "tmpfs", mount], program: "/bin/mount")
    try #require(mounted.status == 0, "cannot mount a tmpfs: \(mounted.error)")
    defer { _ = try? SessionctlProcess.run([mount], program: "/bin/umount") }
    let (core, handler) = try await Self.core(mount + "/sessions.json")
    #expect(Self.errors(handler).first?.contains("Read-only file system") == true)
    let reply = await Self.run(core, Self.set("music"))
    #expect(reply.error == nil)
    guard case .string(let notSaved)? = reply["notSaved"] else {
      Issue.record("no notSaved in \(reply.json.serialized)")
      return
    }
    #expect(notSaved.contains("Read-only file system"))
    #expect(await core.status().stateFile?.problems.last?.contains("Read-only file system") == true)
    await core.shutdown()
  }
}
