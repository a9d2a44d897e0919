import AudioSessionTestSupport
import Foundation
import Testing

// docs/modules.md "What sessionctl links": one program per role. sessionctl maps
// none of libpulse's libraries and has none of the daemon's code; it runs the daemon program,
// audiosessiond, installed beside it, for `daemon` and for the commands that need the backend.
@Suite struct DaemonProgramTests {
  static func linkedLibraries(_ program: String) throws -> String {
    let ldd = Process()
    ldd.executableURL = URL(fileURLWithPath: "/usr/bin/ldd")
    ldd.arguments = [program]
    let pipe = Pipe()
    ldd.standardOutput = pipe
    try ldd.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    ldd.waitUntilExit()
    return String(decoding: output, as: UTF8.self)
  }

  /// Copies a program through a descriptor opened with O_CLOEXEC. (Foundation's copyItem writes
  /// through one without it: a child that another test spawns meanwhile inherits it, and the
  /// copy cannot be run while that child lives, "Text file busy".)
  static func copyExecutable(_ source: String, to destination: String) throws {
    let data = try Data(contentsOf: URL(fileURLWithPath: source))
    let fd = open(destination, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
    try #require(fd >= 0, "cannot create \(destination)")
    defer { close(fd) }
    let written = data.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    try #require(written == data.count, "cannot write \(destination)")
  }

  /// The symbols of a program, from `nm`.
  static func symbols(_ program: String) throws -> String {
    let nm = Process()
    nm.executableURL = URL(fileURLWithPath: "/usr/bin/nm")
    nm.arguments = [program]
    let pipe = Pipe()
    nm.standardOutput = pipe
    try nm.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    nm.waitUntilExit()
    return String(decoding: output, as: UTF8.self)
  }

  @Test(
    "sessionctl links neither libpulse, libsystemd nor the daemon's server (NIO); audiosessiond links them (docs/modules.md What sessionctl links)"
  )
  func linkage() throws {
    let sessionctl = SessionctlProcess.executable
    let daemon = (sessionctl as NSString).deletingLastPathComponent + "/audiosessiond"
    let libraries = try Self.linkedLibraries(sessionctl)
    #expect(!libraries.contains("libpulse") && !libraries.contains("libsystemd"))
    let symbols = try Self.symbols(sessionctl)
    #expect(!symbols.contains("NIOPosix") && !symbols.contains("DaemonServer"))
    let daemonLibraries = try Self.linkedLibraries(daemon)
    #expect(daemonLibraries.contains("libpulse.so") && daemonLibraries.contains("libsystemd.so"))
    #expect(try Self.symbols(daemon).contains("NIOPosix"))
  }

  @Test(
    "without audiosessiond beside it or on PATH, a command that needs it says what is missing (docs/install.md)"
  )
  func missingDaemonProgram() throws {
    let folder = NSTemporaryDirectory() + "daemonprogram-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let lonely = folder + "/sessionctl"
    try Self.copyExecutable(SessionctlProcess.executable, to: lonely)
    let check = try SessionctlProcess.run(
      ["policy", "check", "--policies", Repository.policies], environment: ["PATH": "/nonexistent"],
      program: lonely)
    #expect(check.status != 0)
    #expect(
      check.error.contains(
        "this command needs the daemon program, audiosessiond, which has the backends, but it is not installed; looked for \(folder)/audiosessiond, /nonexistent/audiosessiond"
      ), "\(check.error)")
    let daemon = try SessionctlProcess.run(
      ["daemon", "--socket", folder + "/d.sock"], environment: ["PATH": "/nonexistent"],
      program: lonely)
    #expect(daemon.status != 0)
    #expect(daemon.error.contains("needs the daemon program, audiosessiond"), "\(daemon.error)")
    // Commands that do not need it work alone.
    let show = try SessionctlProcess.run(
      ["policy", "show", "--policies", Repository.policies], program: lonely)
    #expect(show.status == 0, "\(show.error)")
  }

  @Test(
    "sessionctl finds audiosessiond on PATH when it is not beside it"
  )
  func daemonProgramOnPath() throws {
    let folder = NSTemporaryDirectory() + "daemonprogram-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let lonely = folder + "/sessionctl"
    try Self.copyExecutable(SessionctlProcess.executable, to: lonely)
    let built = (SessionctlProcess.executable as NSString).deletingLastPathComponent
    let check = try SessionctlProcess.run(
      ["policy", "check", "--policies", Repository.policies],
      environment: ["PATH": "/nonexistent:\(built)"], program: lonely)
    #expect(check.status == 0, "\(check.error)")
    #expect(check.lines.first?.contains("pulse.json:") == true, "\(check.lines)")
  }

  @Test(
    "policy check, which reads pulse.json, works through audiosessiond, with sessionctl's output (docs/modules.md What sessionctl links)"
  )
  func handOverKeepsOutput() throws {
    let check = try SessionctlProcess.run(["policy", "check", "--policies", Repository.policies])
    #expect(check.status == 0, "\(check.error)")
    #expect(check.lines.first?.contains("pulse.json:") == true, "\(check.lines)")
  }

  @Test("sessionctl daemon runs audiosessiond in its place: the same process, the daemon's name")
  func daemonCommand_runsDaemonProgram() throws {
    let folder = try TemporaryFolder.make()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let socket = folder + "/daemon.sock"
    let daemon = try SessionctlProcess.launch(["daemon", "--socket", socket])
    defer {
      daemon.process.terminate()
      daemon.process.waitUntilExit()
    }
    let line = SessionctlProcess.readLine(daemon.error)
    #expect(
      line?.hasPrefix(
        "audiosessiond: listening on \(socket) (pid \(daemon.process.processIdentifier),") == true,
      "\(line ?? "nothing")")
    let command = try String(
      contentsOfFile: "/proc/\(daemon.process.processIdentifier)/cmdline", encoding: .utf8)
    #expect(command.split(separator: "\0").first?.hasSuffix("/audiosessiond") == true)
  }

  @Test("a mistake in sessionctl daemon's options is said by sessionctl, before any daemon runs")
  func daemonCommand_badOption_saidBySessionctl() throws {
    let run = try SessionctlProcess.run(["daemon", "--spawn-server"])
    #expect(run.status == 64)
    #expect(
      run.error.hasPrefix(
        "Error: --spawn-server starts a server for the PulseAudio backend; add --backend pulse"),
      "\(run.error)")
    #expect(run.error.contains("Usage: sessionctl daemon"), "\(run.error)")
  }
}
