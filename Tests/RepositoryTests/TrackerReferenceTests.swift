import AudioSessionTestSupport
import Foundation
import Testing

/// Code, tests and docs give the reason, or cite the document that does (docs/style.md §3.9): a
/// tracker's number ("issue" and a number, an "item" of one, a "stop") opens nothing for a user or
/// a newcomer reading the checkout, so those numbers stay in commit messages.
@Suite struct TrackerReferenceTests {
  /// The words that number a tracker's entries. An item right after a section of a document
  /// (`docs/avaudiosession.md §9 item 3`, one of that section's numbered points) is the
  /// document's, not a tracker's.
  static let patterns = [
    #"\b[Ii]ssues? \d"#, #"\b[Ii]ssue-\d"#, #"(?<!§[\d.]{1,8},? )\b[Ii]tems? \d"#,
    #"\b[Ss]tops? \d"#, #"\b(?:seen|deliver) \d"#,
  ]

  /// This file, which spells out tracker numbers on purpose.
  static let thisFile = "Tests/RepositoryTests/TrackerReferenceTests.swift"

  @Test(
    "no tracker number in code, tests, docs, policies, the Makefile or scripts (docs/style.md §3.9)"
  )
  func repository_hasNoTrackerNumbers() throws {
    let files = try DocReferenceChecker(root: Repository.root)
    var found: [String] = []
    for path in DocReferenceTests.scanned {
      for file in try files.files(under: path) where file != Self.thisFile {
        let text = try String(contentsOfFile: Repository.root + "/" + file, encoding: .utf8)
        found += try Self.trackerNumbers(in: text, file: file)
      }
    }
    let list = found.joined(separator: "\n")
    #expect(found.isEmpty, "\(found.count) tracker numbers; say the reason or cite docs/:\n\(list)")
  }

  @Test("the check finds issue, item and stop numbers, and leaves a document's own points alone")
  func check_trackerWords_areFound() throws {
    let text = """
      // Bad: (issue 4 item 5), Issue 28, issues 3 and 4, issue-25, item 7, stop 35, seen 3,
      // deliver 8.
      // Fine: docs/avaudiosession.md §9 item 3, §9, item 3, §13.5 item 4, docs/pulseaudio.md §4
      // row 3, stops at once, an issue of the server, 4 items.
      """
    let found = try Self.trackerNumbers(in: text, file: "Example.swift")
    #expect(found.count == 9, "\(found)")
    #expect(
      found.allSatisfy { $0.hasPrefix("Example.swift:1:") || $0.hasPrefix("Example.swift:2:") })
  }

  /// Each tracker number in `text`, as `file:line: words`.
  static func trackerNumbers(in text: String, file: String) throws -> [String] {
    let source = text as NSString
    let all = NSRange(location: 0, length: source.length)
    var found: [(location: Int, text: String)] = []
    for pattern in patterns {
      let expression = try NSRegularExpression(pattern: pattern)
      for match in expression.matches(in: text, range: all) {
        let end = min(match.range.location + match.range.length + 12, source.length)
        let words = source.substring(
          with: NSRange(location: match.range.location, length: end - match.range.location))
        found.append((match.range.location, words.prefix { $0 != "\n" }.description))
      }
    }
    return found.sorted { $0.location < $1.location }.map { hit in
      let line = source.substring(to: hit.location).filter { $0 == "\n" }.count + 1
      return "\(file):\(line): \(hit.text)"
    }
  }
}
