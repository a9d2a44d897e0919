import AudioSession
import AudioSessionFuzzTargets
import AudioSessionTestSupport
import Foundation
import Testing

/// The fuzzing targets' seeds and every input the fuzzer kept as a crash, fed to the very entry
/// point libFuzzer calls (docs/fuzzing.md "Regressions"): each reads without trapping, and what
/// it promises holds (a reply per request, JSON that reads back the same…).
@Suite struct FuzzRegressionTests {
  /// The files of `Fuzz/<folder>/<target>/`, sorted; none when there is no such folder.
  static func files(_ folder: String, _ target: FuzzTarget) -> [String] {
    let directory = Repository.root + "/Fuzz/\(folder)/\(target.rawValue)"
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    return names.sorted().map { directory + "/" + $0 }
  }

  @Test(
    "each target has seeds, and each seed runs through the fuzzing entry point (docs/fuzzing.md \"Targets\")",
    arguments: FuzzTarget.allCases)
  func seeds_eachTarget_runWithoutTrapping(target: FuzzTarget) async throws {
    let seeds = Self.files("corpus", target)
    #expect(!seeds.isEmpty, "Fuzz/corpus/\(target.rawValue) holds no seed")
    for file in seeds {
      await target.run(Array(try Data(contentsOf: URL(fileURLWithPath: file))))
    }
  }

  @Test(
    "every crash the fuzzer kept runs through its entry point without trapping (docs/fuzzing.md \"Regressions\")",
    arguments: FuzzTarget.allCases)
  func regressions_eachTarget_runWithoutTrapping(target: FuzzTarget) async throws {
    for file in Self.files("regressions", target) {
      await target.run(Array(try Data(contentsOf: URL(fileURLWithPath: file))))
    }
  }

  @Test("the seed folders are the targets, one each (docs/fuzzing.md \"Targets\")")
  func corpusFolders_matchTheTargets() throws {
    let folders = try FileManager.default.contentsOfDirectory(
      atPath: Repository.root + "/Fuzz/corpus")
    #expect(folders.sorted() == FuzzTarget.allCases.map(\.rawValue).sorted())
    let regressions =
      (try? FileManager.default.contentsOfDirectory(atPath: Repository.root + "/Fuzz/regressions"))
      ?? []
    let names = Set(FuzzTarget.allCases.map(\.rawValue))
    #expect(regressions.filter { !names.contains($0) && $0 != "README.md" }.isEmpty)
  }
}
