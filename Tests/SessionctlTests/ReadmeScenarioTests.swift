import AudioSessionTestSupport
import Foundation
import Testing

/// The README's "What a scenario looks like" shows a real example and what the command really
/// prints: the file it names exists, the YAML shown is that file without its
/// comments, and the output shown is the command's output.
@Suite struct ReadmeScenarioTests {
  static let command = "$ .build/debug/sessionctl scenario run "

  /// The README's fenced blocks, each as its lines.
  static func blocks() throws -> [[String]] {
    let readme = try String(contentsOfFile: Repository.root + "/README.md", encoding: .utf8)
    var blocks: [[String]] = []
    var current: [String]?
    for line in readme.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
      if line.hasPrefix("```") {
        if let block = current {
          blocks.append(block)
          current = nil
        } else {
          current = []
        }
      } else {
        current?.append(line)
      }
    }
    return blocks
  }

  @Test(
    "the README's scenario example exists, and its YAML and output are the real ones (README.md)"
  )
  func readme_scenarioExample_matchesTheTool() throws {
    let blocks = try Self.blocks()
    guard let shown = blocks.first(where: { $0.first?.hasPrefix(Self.command) == true }) else {
      Issue.record("the README shows no 'scenario run' command")
      return
    }
    let file = String(shown[0].dropFirst(Self.command.count))
    let path = Repository.root + "/" + file
    #expect(FileManager.default.fileExists(atPath: path), "README names \(file)")
    // The YAML shown is the file without its comment lines.
    let yaml = try String(contentsOfFile: path, encoding: .utf8)
      .split(separator: "\n").map(String.init)
      .filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("#") }
    #expect(blocks.contains(yaml), "the README's YAML block is \(file) without its comments")
    // The output shown is what the command prints (it names the file as typed).
    let run = try SessionctlProcess.run(["scenario", "run", path])
    #expect(run.status == 0)
    let printed = run.output.replacingOccurrences(of: "(\(path))", with: "(\(file))")
      .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    #expect(Array(shown.dropFirst()) == Array(printed.dropLast()))
  }
}
