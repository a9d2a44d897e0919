import AudioSessionSystem
import AudioSessionTestSupport
import Foundation
import Testing

/// `StandardStreams.writeFile`, which `scenario run --timeline` writes its SVG with
/// (docs/contract.md "Seeing why").
@Suite struct StandardStreamsFileTests {
  @Test(
    "a file is created, and an existing longer one is overwritten and cut to the new text, no tail left"
  )
  func overwriteLeavesNoTail() throws {
    let folder = try TemporaryFolder.make()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/out.svg"
    #expect(
      StandardStreams.writeFile(String(repeating: "long line\n", count: 100), atPath: path) == nil)
    #expect(StandardStreams.writeFile("short\n", atPath: path) == nil)
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "short\n")
  }

  @Test("a path in a folder that does not exist gives the system's reason")
  func missingFolder() {
    #expect(
      StandardStreams.writeFile("x", atPath: "/nonexistent-\(UUID().uuidString)/out.svg")
        == "No such file or directory")
  }
}
