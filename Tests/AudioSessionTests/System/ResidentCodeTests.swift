import AudioSessionSystem
import Foundation
import Testing

// docs/modules.md "What sessionctl links": the daemon releases the code and read-only data
// start-up touched, and keeps the pages the dynamic loader relocated.
@Suite struct ResidentCodeTests {
  /// Resident KiB of this process's file mappings with the given permissions, and of those the
  /// KiB that are private copies (Anonymous in smaps), from /proc/self/smaps.
  func residentKiB(_ permissions: String) throws -> (resident: Int, privateCopies: Int) {
    var matching = false
    var total = (resident: 0, privateCopies: 0)
    for line in try #require(ProcFile.lines("/proc/self/smaps")) {
      let fields = line.split(separator: " ", omittingEmptySubsequences: true)
      if fields.count >= 5, fields[0].contains("-"), fields[1].count == 4 {
        // A mapping's header: start-end perms offset dev inode [path]
        matching = fields.count >= 6 && fields[1] == permissions && fields[5].hasPrefix("/")
      } else if matching, fields.first == "Rss:", let kib = Int(fields[1]) {
        total.resident += kib
      } else if matching, fields.first == "Anonymous:", let kib = Int(fields[1]) {
        total.privateCopies += kib
      }
    }
    return total
  }

  @Test(
    "trim releases resident code and read-only file pages, keeps relocated ones, and the process runs on (docs/modules.md What sessionctl links)"
  )
  func trim_releasesCodeAndReadOnlyFilePages() throws {
    let mappings = ResidentCode.fileMappings().filter { $0.permissions == "r-xp" }
    #expect(mappings.contains { $0.path.hasSuffix("AudioSessionPackageTests.xctest") })
    #expect(mappings.allSatisfy { $0.start < $0.end && $0.path.hasPrefix("/") })
    let codeBefore = try residentKiB("r-xp").resident
    let dataBefore = try residentKiB("r--p")
    let trimmed = ResidentCode.trim()
    let codeAfter = try residentKiB("r-xp").resident
    let dataAfter = try residentKiB("r--p")
    #expect(trimmed.executableMappings == mappings.count)
    #expect(
      codeAfter < codeBefore / 2, "resident code \(codeBefore) KiB before, \(codeAfter) KiB after")
    // Read-only data: the file's pages go, the private copies (relocated pages) stay, all of
    // them: this test binary is position-independent, so its read-only metadata was relocated.
    #expect(trimmed.readOnlyMappings > 0)
    #expect(dataBefore.privateCopies > 0)
    // (More, not fewer, if a test running beside this one loaded a library meanwhile.)
    #expect(dataAfter.privateCopies >= dataBefore.privateCopies)
    #expect(
      trimmed.privatePagesKept * (sysconf(Int32(_SC_PAGESIZE)) / 1024) >= dataBefore.privateCopies)
    #expect(
      dataAfter.resident - dataAfter.privateCopies
        < (dataBefore.resident - dataBefore.privateCopies) / 2,
      "read-only file pages \(dataBefore) KiB before, \(dataAfter) KiB after")
    // The process goes on running the code it released, with the metadata it relocated: a
    // generic type's metadata, a protocol conformance looked up at run time, a string.
    #expect("a b".split(separator: " ").count == 2)
    let values: [any CustomStringConvertible] = [1, "two", 3.5, [4: "four"]]
    #expect(values.map(\.description) == ["1", "two", "3.5", "[4: \"four\"]"])
  }
}
