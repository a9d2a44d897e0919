import Foundation
import Testing

// docs/modules.md "What sessionctl links": sessionctl maps none of libpulse's libraries and runs
// sessionctl-pulse, installed beside it, for the commands that need the backend.
@Suite struct PulseLinkTests {
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

  @Test(
    "sessionctl does not link libpulse; sessionctl-pulse does (docs/modules.md What sessionctl links)"
  )
  func linkage() throws {
    let thin = SessionctlProcess.executable
    let full = (thin as NSString).deletingLastPathComponent + "/sessionctl-pulse"
    #expect(!(try Self.linkedLibraries(thin)).contains("libpulse"))
    #expect(try Self.linkedLibraries(full).contains("libpulse.so"))
  }

  @Test(
    "without sessionctl-pulse beside it, a command that needs the backend says what is missing (docs/install.md)"
  )
  func missingFullBinary() throws {
    let folder = NSTemporaryDirectory() + "pulselink-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let lonely = folder + "/sessionctl"
    try Self.copyExecutable(SessionctlProcess.executable, to: lonely)
    let check = try SessionctlProcess.run(
      ["policy", "check", "--policies", Repository.policies], program: lonely)
    #expect(check.status != 0)
    #expect(
      check.error.contains(
        "needs the PulseAudio backend, which sessionctl runs from sessionctl-pulse, but it is not installed; looked for \(folder)/sessionctl-pulse"
      ), "\(check.error)")
    // Commands that do not need the backend work alone.
    let show = try SessionctlProcess.run(
      ["policy", "show", "--policies", Repository.policies], program: lonely)
    #expect(show.status == 0, "\(show.error)")
  }

  @Test(
    "policy check, which reads pulse.json, works through sessionctl-pulse (docs/modules.md What sessionctl links)"
  )
  func execKeepsProcess() throws {
    let check = try SessionctlProcess.run(["policy", "check", "--policies", Repository.policies])
    #expect(check.status == 0, "\(check.error)")
    #expect(check.lines.first?.contains("pulse.json:") == true, "\(check.lines)")
  }
}
