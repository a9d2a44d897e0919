import AudioSessionSystem
import Foundation
import Testing

// docs/modules.md "What sessionctl links": the daemon releases the code start-up ran.
@Suite struct ResidentCodeTests {
  /// Resident KiB of this process's executable mappings, from /proc/self/smaps.
  func executableResidentKiB() throws -> Int {
    let smaps = try String(contentsOfFile: "/proc/self/smaps", encoding: .utf8)
    var executable = false
    var total = 0
    for line in smaps.split(separator: "\n") {
      let fields = line.split(separator: " ", omittingEmptySubsequences: true)
      if fields.count >= 5, fields[0].contains("-"), fields[1].count == 4 {
        executable = fields[1] == "r-xp"
      } else if executable, fields.first == "Rss:", let kib = Int(fields[1]) {
        total += kib
      }
    }
    return total
  }

  @Test(
    "trim releases resident code, which comes back as it runs (docs/modules.md What sessionctl links)"
  )
  func trim_releasesExecutablePages() throws {
    let mappings = ResidentCode.executableMappings()
    #expect(mappings.contains { $0.path.hasSuffix("AudioSessionPackageTests.xctest") })
    #expect(mappings.allSatisfy { $0.start < $0.end && $0.path.hasPrefix("/") })
    let before = try executableResidentKiB()
    let trimmed = ResidentCode.trim()
    let after = try executableResidentKiB()
    #expect(trimmed == mappings.count)
    #expect(after < before / 2, "resident code \(before) KiB before, \(after) KiB after")
    // The process goes on running the code it released.
    #expect("a b".split(separator: " ").count == 2)
  }
}
