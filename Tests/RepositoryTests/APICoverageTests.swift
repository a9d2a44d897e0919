import AudioSessionTestSupport
import Foundation
import Testing

/// docs/api-coverage.md stays true to itself: its totals are the sums of its tables, every
/// group has as many symbols as Apple's list has (288 in all), and every row's state is one of
/// the page's states.
@Suite struct APICoverageTests {
  static let groupSizes = [40, 8, 12, 77, 39, 16, 15, 81]
  static let states = ["engine", "process", "fixed", "declared", "missing"]

  @Test("docs/api-coverage.md: totals are the tables' sums, 288 symbols in Apple's groups")
  func coverage_totals_matchTables() throws {
    let text = try String(
      contentsOfFile: Repository.root + "/docs/api-coverage.md", encoding: .utf8)
    var group = 0
    var counted = Array(repeating: [String: Int](), count: 9)
    var totals: [Int: [Int]] = [:]
    for line in text.split(separator: "\n").map(String.init) {
      if line.hasPrefix("## "), let number = Int(line.dropFirst(3).prefix(1)) {
        group = number
        continue
      }
      guard line.hasPrefix("|"), !line.hasPrefix("|---") else { continue }
      let cells = line.split(separator: "|", omittingEmptySubsequences: false)
        .map { $0.trimmingCharacters(in: .whitespaces) }.dropFirst().dropLast()
      let row = Array(cells)
      if group == 0, let first = row.first, let number = Int(first.prefix(1)),
        first.dropFirst(1).hasPrefix(" ")
      {
        totals[number] = row.dropFirst(2).compactMap { Int($0) }
      } else if group > 0, row.count >= 4, let count = Int(row[2]) {
        #expect(Self.states.contains(row[3]), "unknown state '\(row[3])' in: \(line)")
        counted[group][row[3], default: 0] += count
      }
    }
    for (index, size) in Self.groupSizes.enumerated() {
      let number = index + 1
      #expect(counted[number].values.reduce(0, +) == size, "group \(number)")
      #expect(totals[number] == Self.states.map { counted[number][$0] ?? 0 }, "group \(number)")
    }
  }
}
