import AudioSessionTestSupport
import Foundation
import Testing

/// Every document the code, tests and docs cite is in the repository (a reader can open every
/// reference in code, tests and docs without leaving the checkout).
///
/// A reference is a `NAME.md` path, found relative to the repository root or to the citing file,
/// optionally followed by sections (`docs/avaudiosession.md §7.3–§7.7`, `docs/pulseaudio.md §4 row
/// 3`): each section must be a heading of that document (`## 12.` or `### 7.6`). A reference to
/// `docs/contract.md` followed by a capitalised phrase (`docs/contract.md Bad input`) must name one
/// of its headings. Nothing may point outside the repository at the shared specification, and no
/// section may be cited by the bare name of the shared house style (`STYLE §3.5`): the house style
/// is docs/style.md, and its sections are checked like any other document's.
@Suite struct DocReferenceTests {
  /// What is scanned: every folder and file with text a reader may follow, the Makefile and
  /// scripts included.
  static let scanned = [
    "Sources", "Tests", "Benchmarks", "Fuzz", "docs", "policies", "examples", "contrib", "scripts",
    "README.md", "Makefile",
  ]

  @Test(
    "every *.md reference in the repository names a document and § headings it has"
  )
  func repository_references_resolveInsideIt() throws {
    let problems = try DocReferenceChecker(root: Repository.root).check(paths: Self.scanned)
    let list = problems.joined(separator: "\n")
    #expect(problems.isEmpty, "\(problems.count) references do not resolve:\n\(list)")
  }

  @Test(
    "the checker reports broken references, shared paths and bare STYLE sections"
  )
  func checker_brokenReferences_areReported() throws {
    let checker = try DocReferenceChecker(root: Repository.root)
    // The outside path is assembled, so that this file does not itself cite it.
    let outside = DocReferenceChecker.shared + "/spec/product.md"
    let text = """
      /// Fine: docs/avaudiosession.md §7.3–§7.7, docs/pulseaudio.md §4 row 3, docs/contract.md
      /// Bad input, `docs/contract.md` "Device presets", policies/README.md, docs/style.md §3.5,
      /// docs/style.md §3.3.1.
      /// Broken: docs/avaudiosession.md §7.99, docs/nowhere.md §1, docs/contract.md Nonsense
      /// heading, a split one docs/pulseaudio.md
      /// §42, and the shared spec at \(outside).
      // STYLE §3.6 (the shared guide by name), docs/style.md §3.42 (no such section).
      """
    let problems = checker.check(text: text, file: "Tests/Example.swift")
    #expect(problems.count == 8, "\(problems)")
    #expect(problems.contains { $0.contains("docs/avaudiosession.md §7.99") })
    #expect(problems.contains { $0.contains("docs/nowhere.md") })
    #expect(problems.contains { $0.contains("docs/contract.md Nonsense") })
    #expect(problems.contains { $0.contains("docs/pulseaudio.md §42") })
    #expect(problems.contains { $0.contains("outside the repository") })
    #expect(
      problems.contains { $0.contains(outside.dropFirst(3) + " is not in the repository") })
    #expect(problems.contains { $0.contains(":7: STYLE §3.6 names the shared house style") })
    #expect(problems.contains { $0.contains("docs/style.md §3.42 is not a heading") })
  }
}

/// Finds `*.md` references in text and checks them against the files of a checkout.
struct DocReferenceChecker {
  let root: String
  /// A document path: not part of a longer path or a URL (no `/`, `.`, `-` or word before it).
  let reference: NSRegularExpression
  /// Sections right after a reference, through a closing quote and a comment line break:
  /// `§7.3`, `§7.3–§7.7`, `§1.2, §4`.
  let sections: NSRegularExpression
  /// A heading named after a reference to the contract: `docs/contract.md Bad input`.
  let phrase: NSRegularExpression
  let number: NSRegularExpression
  /// A section of the shared house style cited by its bare name (`STYLE §3.5`), not by the
  /// repository's docs/style.md.
  let bareStyle: NSRegularExpression

  static let shared = ["..", "/shared"].joined()
  static let sharedAbsolute = ["/work", "/shared"].joined()
  static let textExtensions: Set<String> = [
    "swift", "md", "json", "jsonl", "yaml", "yml", "sh", "service", "h", "c", "modulemap", "txt",
  ]
  /// This file, which spells out broken references on purpose.
  static let thisFile = "Tests/RepositoryTests/DocReferenceTests.swift"

  init(root: String) throws {
    self.root = root
    let after = #"^[`"”]?,?[ \t]*(?:\n[ \t]*(?://+|#)?[ \t]*)?"#
    reference = try NSRegularExpression(
      pattern: #"(?<![\w/.\-])((?:[\w.\-]+/)*[\w\-]+(?:\.[\w\-]+)*\.md)\b"#)
    sections = try NSRegularExpression(
      pattern: after + #"(§\d+(?:\.\d+)*(?:(?:–|-|, | and )§\d+(?:\.\d+)*)*)"#)
    phrase = try NSRegularExpression(pattern: after + #"["“]?([A-Z][a-z]+(?: [a-z]+)?)"#)
    number = try NSRegularExpression(pattern: #"\d+(?:\.\d+)*"#)
    bareStyle = try NSRegularExpression(pattern: #"(?<![\w/.\-])STYLE §(\d+(?:\.\d+)*)"#)
  }

  /// Problems in every text file under `paths` (relative to the root), hidden folders skipped.
  func check(paths: [String]) throws -> [String] {
    var problems: [String] = []
    for path in paths {
      for file in try files(under: path) where file != Self.thisFile {
        let text = try String(contentsOfFile: root + "/" + file, encoding: .utf8)
        problems += check(text: text, file: file)
      }
    }
    return problems
  }

  /// Problems in one file's text; `file` is its path relative to the root.
  func check(text: String, file: String) -> [String] {
    var problems: [String] = []
    if text.contains(Self.shared) || text.contains(Self.sharedAbsolute) {
      problems.append("\(file): names the shared specification outside the repository")
    }
    let source = text as NSString
    let directory = (file as NSString).deletingLastPathComponent
    let all = NSRange(location: 0, length: source.length)
    for match in bareStyle.matches(in: text, range: all) {
      let section = source.substring(with: match.range(at: 1))
      let line = source.substring(to: match.range.location).filter { $0 == "\n" }.count + 1
      problems.append(
        "\(file):\(line): STYLE §\(section) names the shared house style; cite docs/style.md "
          + "§\(section), the repository's copy")
    }
    for match in reference.matches(in: text, range: all) {
      let name = source.substring(with: match.range(at: 1))
      let line = source.substring(to: match.range.location).filter { $0 == "\n" }.count + 1
      guard let document = resolve(name, from: directory) else {
        problems.append("\(file):\(line): \(name) is not in the repository")
        continue
      }
      let end = match.range.location + match.range.length
      let rest = NSRange(location: end, length: source.length - end)
      let headings = self.headings(of: document)
      if let found = sections.firstMatch(in: text, options: .anchored, range: rest) {
        let list = source.substring(with: found.range(at: 1))
        let range = NSRange(location: 0, length: (list as NSString).length)
        for item in number.matches(in: list, range: range) {
          let section = (list as NSString).substring(with: item.range)
          let isHeading = headings.contains {
            $0.hasPrefix(section + ". ") || $0.hasPrefix(section + " ")
          }
          if !isHeading {
            problems.append("\(file):\(line): \(name) §\(section) is not a heading of \(document)")
          }
        }
      } else if name.hasSuffix("contract.md"),
        let found = phrase.firstMatch(in: text, options: .anchored, range: rest)
      {
        let words = source.substring(with: found.range(at: 1))
        if !headings.contains(where: { $0.hasPrefix(words) }) {
          problems.append("\(file):\(line): \(name) \(words) is not a heading of \(document)")
        }
      }
    }
    return problems
  }

  /// The document's path relative to the root: from the root, else from the citing file's
  /// folder; never a path that leaves the repository.
  func resolve(_ name: String, from directory: String) -> String? {
    guard !name.split(separator: "/").contains("..") else { return nil }
    let candidates = [name, directory.isEmpty ? name : directory + "/" + name]
    return candidates.first { FileManager.default.fileExists(atPath: root + "/" + $0) }
  }

  /// The text of each heading of a markdown document, without its `#` marks.
  func headings(of document: String) -> [String] {
    guard let text = try? String(contentsOfFile: root + "/" + document, encoding: .utf8) else {
      return []
    }
    return text.split(separator: "\n").compactMap { line in
      guard line.hasPrefix("#") else { return nil }
      return String(line.drop(while: { $0 == "#" }).drop(while: { $0 == " " }))
    }
  }

  /// Text files under a folder (or the file itself), relative to the root.
  func files(under path: String) throws -> [String] {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isDirectory)
    else { return [] }
    guard isDirectory.boolValue else { return [path] }
    guard let enumerator = FileManager.default.enumerator(atPath: root + "/" + path) else {
      return []
    }
    var files: [String] = []
    while let entry = enumerator.nextObject() as? String {
      if entry.split(separator: "/").contains(where: { $0.hasPrefix(".") }) { continue }
      let name = (entry as NSString).lastPathComponent
      guard Self.textExtensions.contains((entry as NSString).pathExtension) || name == "Makefile"
      else { continue }
      files.append(path + "/" + entry)
    }
    return files.sorted()
  }
}
