import Foundation

/// Paths in the source checkout, and temporary files for the command line's tests
/// (`SessionctlPulseTests` adds in-process runs of `sessionctl scenario run`).
package enum CLIFixtures {
  package static let policies = Repository.policies
  package static let examples = Repository.root + "/examples"

  /// Writes `contents` to a new file in a fresh temporary directory and returns its path.
  package static func temporaryFile(_ contents: String, name: String = "scenario.yaml") throws
    -> String
  {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("sessionctl-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let file = directory.appendingPathComponent(name)
    try contents.write(to: file, atomically: true, encoding: .utf8)
    return file.path
  }
}
