package import AudioSession
import AudioSessionSystem
import AudioSessionWire
import Foundation
package import Testing

/// A writable copy of the repository's `policies/` in a fresh temporary directory, removed when
/// the fixture goes away.
package final class PolicyFixture {
  package let directory: String

  package init() throws {
    directory = NSTemporaryDirectory() + "policy-fixture-" + UUID().uuidString
    try FileManager.default.copyItem(atPath: Repository.policies, toPath: directory)
  }

  deinit {
    try? FileManager.default.removeItem(atPath: directory)
  }

  package func path(_ file: String) -> String { directory + "/" + file }

  package func read(_ file: String) throws -> String {
    try String(contentsOfFile: path(file), encoding: .utf8)
  }

  package func write(_ file: String, _ text: String) throws {
    try text.write(toFile: path(file), atomically: true, encoding: .utf8)
  }

  package func remove(_ file: String) throws {
    try FileManager.default.removeItem(atPath: path(file))
  }

  /// Replaces the one occurrence of `text` in `file`; records an issue if it is not there exactly
  /// once, so an edit can never silently miss.
  package func edit(
    _ file: String, replacing text: String, with replacement: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let contents = try read(file)
    let count = contents.components(separatedBy: text).count - 1
    try #require(
      count == 1, "'\(text)' occurs \(count) times in \(file)", sourceLocation: sourceLocation)
    try write(file, contents.replacingOccurrences(of: text, with: replacement))
  }

  /// The problems loading the copy reports (records an issue if it loads).
  package func problems(sourceLocation: SourceLocation = #_sourceLocation) -> [PolicyProblem] {
    do {
      _ = try PolicyLoader.load(directory: directory)
      Issue.record(
        "the edited policy directory loaded without problems", sourceLocation: sourceLocation)
      return []
    } catch {
      return error.problems
    }
  }
}
