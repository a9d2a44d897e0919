/// The type YAML 1.1 gives an untagged plain scalar (https://yaml.org/type/: null, bool, int,
/// float, timestamp), so that `name: 42` is reported as an integer, not read as a string.
enum YAMLPlainScalar {
  static func kind(of text: String) -> YAMLScalarKind {
    if nulls.contains(text) { return .null }
    if booleans.contains(text) { return .boolean }
    let scalars = Array(text.unicodeScalars)
    if isInteger(scalars) { return .integer }
    if isFloat(scalars) { return .float }
    if isTimestamp(scalars) { return .timestamp }
    return .string
  }

  static let nulls: Set<String> = ["", "~", "null", "Null", "NULL"]
  static let booleans: Set<String> = [
    "yes", "Yes", "YES", "no", "No", "NO", "true", "True", "TRUE", "false", "False", "FALSE",
    "on", "On", "ON", "off", "Off", "OFF",
  ]

  typealias Scalars = ArraySlice<Unicode.Scalar>

  static func all(_ scalars: Scalars, in set: String) -> Bool {
    !scalars.isEmpty && scalars.allSatisfy { set.unicodeScalars.contains($0) }
  }

  static let digits = "0123456789"

  /// Drops one leading sign.
  static func unsigned(_ scalars: Scalars) -> Scalars {
    if let first = scalars.first, first == "-" || first == "+" { return scalars.dropFirst() }
    return scalars
  }

  /// Base 60 (`1:30`): digits and underscores, then `:` groups of one or two digits 0–59.
  static func isSexagesimal(_ scalars: Scalars, leading: String) -> Bool {
    let groups = scalars.split(separator: ":", omittingEmptySubsequences: false)
    guard groups.count > 1, let head = groups.first, let first = head.first,
      leading.unicodeScalars.contains(first), all(head, in: digits + "_")
    else { return false }
    return groups.dropFirst().allSatisfy { group in
      guard (1...2).contains(group.count), all(group, in: digits), let first = group.first
      else { return false }
      return group.count == 1 || "012345".unicodeScalars.contains(first)
    }
  }

  static func isInteger(_ whole: [Unicode.Scalar]) -> Bool {
    let scalars = unsigned(whole[...])
    guard let first = scalars.first else { return false }
    if scalars.starts(with: "0b".unicodeScalars) {
      return all(scalars.dropFirst(2), in: "01_")
    }
    if scalars.starts(with: "0x".unicodeScalars) {
      return all(scalars.dropFirst(2), in: digits + "abcdefABCDEF_")
    }
    if first == "0" {
      return scalars.count == 1 || all(scalars.dropFirst(), in: "01234567_")
    }
    if all(scalars, in: digits + "_") { return first != "_" }
    return isSexagesimal(scalars, leading: "123456789")
  }

  static func isFloat(_ input: [Unicode.Scalar]) -> Bool {
    let text = String(String.UnicodeScalarView(input))
    if [".nan", ".NaN", ".NAN"].contains(text) { return true }
    let scalars = unsigned(input[...])
    let rest = String(String.UnicodeScalarView(scalars))
    if [".inf", ".Inf", ".INF"].contains(rest) { return true }
    // [0-9][0-9_]*(\.[0-9_]*)?([eE][-+][0-9]+)?  or  \.[0-9_]+([eE][-+][0-9]+)? (unsigned only)
    var mantissa = scalars
    var exponent: Scalars? = nil
    if let e = scalars.firstIndex(where: { $0 == "e" || $0 == "E" }) {
      mantissa = scalars[..<e]
      exponent = scalars[scalars.index(after: e)...]
    }
    if let exponent {
      guard let sign = exponent.first, sign == "-" || sign == "+",
        all(exponent.dropFirst(), in: digits)
      else { return false }
    }
    let parts = mantissa.split(separator: ".", omittingEmptySubsequences: false)
    switch parts.count {
    case 1:
      // Digits alone are an integer; with an exponent they are a float.
      guard exponent != nil, let first = parts[0].first, digits.unicodeScalars.contains(first)
      else { break }
      return all(parts[0], in: digits + "_")
    case 2:
      let (integral, fraction) = (parts[0], parts[1])
      if integral.isEmpty {
        // `.5`: no sign allowed before the point.
        return scalars.count == input.count && !fraction.isEmpty && all(fraction, in: digits + "_")
      }
      guard let first = integral.first, digits.unicodeScalars.contains(first),
        all(integral, in: digits + "_"), fraction.isEmpty || all(fraction, in: digits + "_")
      else { break }
      return true
    default:
      break
    }
    // Base 60 with a fraction: [0-9][0-9_]*(:[0-5]?[0-9])+\.[0-9_]*
    if exponent == nil, parts.count == 2, parts[1].isEmpty || all(parts[1], in: digits + "_") {
      return isSexagesimal(parts[0], leading: digits)
    }
    return false
  }

  /// `2002-12-14`, or a date and time (`2001-12-14t21:59:43.10-05:00`, `2001-12-14 21:59:43.10`).
  static func isTimestamp(_ whole: [Unicode.Scalar]) -> Bool {
    func number(_ part: Substring, counts: ClosedRange<Int>) -> Bool {
      counts.contains(part.count)
        && part.unicodeScalars.allSatisfy { digits.unicodeScalars.contains($0) }
    }
    let text = String(String.UnicodeScalarView(whole))
    let date = text.prefix { $0 != "T" && $0 != "t" && $0 != " " && $0 != "\t" }
    let fields = date.split(separator: "-", omittingEmptySubsequences: false)
    guard fields.count == 3, number(fields[0], counts: 4...4) else { return false }
    if date.count == text.count {
      return number(fields[1], counts: 2...2) && number(fields[2], counts: 2...2)
    }
    guard number(fields[1], counts: 1...2), number(fields[2], counts: 1...2) else { return false }
    var time = text.dropFirst(date.count)
    if time.first == "T" || time.first == "t" {
      time = time.dropFirst()
    } else {
      time = time.drop { $0 == " " || $0 == "\t" }
    }
    // hh:mm:ss(.fraction)?, then an optional zone: spaces, then Z or ±h(h)(:mm)
    let clock = time.prefix { $0.isNumber || $0 == ":" || $0 == "." }
    let parts = clock.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count == 3, number(parts[0], counts: 1...2), number(parts[1], counts: 2...2)
    else { return false }
    let seconds = parts[2].split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
    guard number(seconds[0], counts: 2...2),
      seconds.count == 1 || seconds[1].allSatisfy({ $0.isNumber })
    else { return false }
    let zone = time.dropFirst(clock.count).drop { $0 == " " || $0 == "\t" }
    if zone.isEmpty || zone == "Z" { return zone.isEmpty ? time.count == clock.count : true }
    guard let sign = zone.first, sign == "+" || sign == "-" else { return false }
    let offset = zone.dropFirst().split(separator: ":", omittingEmptySubsequences: false)
    return number(offset[0], counts: 1...2)
      && (offset.count == 1 || (offset.count == 2 && number(offset[1], counts: 2...2)))
  }
}
