import AudioSessionSystem
import AudioSessionTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Whole files read to their end, /proc's included, without Foundation's reader, which leaks its
/// buffer for a file that reports no size and is empty (docs/fuzzing.md "Sanitizers").
@Suite struct ProcFileTests {
  @Test(
    "a /proc file, which reports no size, is read whole: this process's command line, NUL after each argument (docs/fuzzing.md Sanitizers)"
  )
  func procCmdline_readsWhole() throws {
    let bytes = try #require(ProcFile.bytes("/proc/self/cmdline"))
    let expected: [UInt8] = CommandLine.arguments.flatMap { Array($0.utf8) + [UInt8(0)] }
    #expect(bytes == expected)
  }

  @Test(
    "an empty file reads as no bytes, a file larger than one read whole, a missing one as nil (docs/fuzzing.md Sanitizers)"
  )
  func files_emptyLargeMissing() throws {
    let folder = try TemporaryFolder.make()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let empty = folder + "/empty"
    #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
    #expect(ProcFile.bytes(empty) == [])
    let large = folder + "/large"
    let content = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
    #expect(FileManager.default.createFile(atPath: large, contents: Data(content)))
    #expect(ProcFile.bytes(large) == content)
    #expect(ProcFile.bytes(folder + "/missing") == nil)
  }
}
