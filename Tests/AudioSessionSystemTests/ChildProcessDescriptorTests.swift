import AudioSessionSystem
import AudioSessionTestSupport
import Foundation
import Testing

/// A child started by `ChildProcess` gets its standard streams and nothing else of this
/// process's descriptors (docs/style.md §3.4 C interop; the "Text file busy" race of a copied
/// program, and a daemon's sockets, leaking into its private servers).
@Suite struct ChildProcessDescriptorTests {
  @Test("a descriptor this process opened without close-on-exec is closed in the child")
  func nothingLeaks() throws {
    let leaky = open("/dev/null", O_RDONLY)  // no O_CLOEXEC
    try #require(leaky > 2)
    defer { close(leaky) }
    let folder = try TemporaryFolder.make()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let child = try ChildProcess.spawn(
      "/bin/sh",
      arguments: ["-c", "if [ -e /proc/$$/fd/\(leaky) ]; then echo open; else echo closed; fi"],
      output: .appending(folder + "/out"))
    #expect(child.waitForExit(seconds: 10))
    let text = try String(contentsOfFile: folder + "/out", encoding: .utf8)
    #expect(text == "closed\n")
    // Its standard streams are still the ones asked for.
    let echo = try ChildProcess.spawn(
      "/bin/sh", arguments: ["-c", "echo out; echo err >&2"], output: .appending(folder + "/both"))
    #expect(echo.waitForExit(seconds: 10))
    #expect(try String(contentsOfFile: folder + "/both", encoding: .utf8) == "out\nerr\n")
  }
}
