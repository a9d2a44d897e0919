/// What `sessionctl port-ios` does to a Swift file written for iOS, as text: the one step that
/// makes code with `@objc` observers compile on Linux (docs/ios-compat.md "Selectors").
///
/// - `@objc` (with or without a name, `@objc(handle:)`), `@objcMembers` and the `dynamic`
///   modifier are deleted, with the blanks after them;
/// - `#selector(handle(_:))` becomes `Selector(Self.handle(_:))`, a selector that holds the
///   method (`self.handle` and a bare name are this type's, `Player.handle` is kept as written),
///   which `NotificationCenter.addObserver(_:selector:name:object:)` of `AVFAudio` calls;
/// - nothing else changes: string literals and comments are copied as they are, and a selector
///   of a property (`#selector(getter: …)`) is left, with a note, as there is no method to call.
enum IOSPort {
  /// The rewritten text and notes on what was left.
  struct Result: Equatable {
    var text: String
    var notes: [String]
    /// Whether anything changed.
    var changed: Bool
  }

  /// The declarations `dynamic` can modify: what may follow it when it is the modifier.
  static let declarationWords: Set<String> = [
    "var", "let", "func", "subscript", "init", "override", "public", "private", "internal",
    "fileprivate", "open", "final", "static", "class", "@",
  ]

  static func rewrite(_ source: String) -> Result {
    let text = Array(source.unicodeScalars)
    var output = String.UnicodeScalarView()
    var notes: [String] = []
    var index = 0

    func starts(_ word: String, at position: Int) -> Bool {
      let scalars = Array(word.unicodeScalars)
      guard position + scalars.count <= text.count else { return false }
      return Array(text[position..<position + scalars.count]) == scalars
    }
    func isIdentifier(_ scalar: Unicode.Scalar) -> Bool {
      scalar == "_" || scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
    }
    /// Whether a whole word starts at `position` (no identifier character on either side).
    func word(_ word: String, at position: Int) -> Bool {
      guard starts(word, at: position) else { return false }
      if position > 0, isIdentifier(text[position - 1]) { return false }
      let end = position + word.unicodeScalars.count
      return end >= text.count || !isIdentifier(text[end])
    }
    func skipBlanks(from position: Int) -> Int {
      var end = position
      while end < text.count, text[end] == " " || text[end] == "\t" || text[end] == "\n" {
        end += 1
      }
      return end
    }
    func copy(_ count: Int) {
      output.append(contentsOf: text[index..<min(index + count, text.count)])
      index = min(index + count, text.count)
    }

    while index < text.count {
      let scalar = text[index]
      // Comments, copied as they are.
      if starts("//", at: index) {
        var end = index
        while end < text.count, text[end] != "\n" { end += 1 }
        copy(end - index)
        continue
      }
      if starts("/*", at: index) {
        var depth = 0
        var end = index
        repeat {
          if starts("/*", at: end) {
            depth += 1
            end += 2
          } else if starts("*/", at: end) {
            depth -= 1
            end += 2
          } else {
            end += 1
          }
        } while depth > 0 && end < text.count
        copy(end - index)
        continue
      }
      // String literals (with raw `#` delimiters and multi-line quotes), copied as they are.
      if scalar == "\"" || (scalar == "#" && starts("#\"", at: index))
        || (scalar == "#" && starts("##", at: index))
      {
        var hashes = 0
        var start = index
        while start < text.count, text[start] == "#" {
          hashes += 1
          start += 1
        }
        if start < text.count, text[start] == "\"" {
          let multiline = starts("\"\"\"", at: start)
          let quote = multiline ? "\"\"\"" : "\""
          let closing = quote + String(repeating: "#", count: hashes)
          var end = start + quote.unicodeScalars.count
          while end < text.count, !starts(closing, at: end) {
            if hashes == 0, text[end] == "\\" { end += 1 }
            end += 1
          }
          copy(min(end + closing.unicodeScalars.count, text.count) - index)
          continue
        }
      }
      if scalar == "@", word("objcMembers", at: index + 1) {
        index = skipBlanks(from: index + 1 + "objcMembers".unicodeScalars.count)
        continue
      }
      if scalar == "@", word("objc", at: index + 1) {
        var end = index + 5
        if end < text.count, text[end] == "(" {
          while end < text.count, text[end] != ")" { end += 1 }
          end += 1
        }
        index = skipBlanks(from: end)
        continue
      }
      if scalar == "d", word("dynamic", at: index) {
        let next = skipBlanks(from: index + 7)
        if next > index + 7, next < text.count,
          declarationWords.contains(where: {
            word($0, at: next) || ($0 == "@" && text[next] == "@")
          })
        {
          index = next
          continue
        }
      }
      if scalar == "#", starts("#selector(", at: index) {
        var end = index + 10
        var depth = 1
        while end < text.count, depth > 0 {
          if text[end] == "(" { depth += 1 }
          if text[end] == ")" { depth -= 1 }
          end += 1
        }
        let inner = String(String.UnicodeScalarView(text[(index + 10)..<(end - 1)]))
        let trimmed = inner.trimmingBlanks
        if trimmed.hasPrefix("getter:") || trimmed.hasPrefix("setter:") {
          let line = text[..<index].filter { $0 == "\n" }.count + 1
          notes.append(
            "line \(line): left '#selector(\(trimmed))': a property's selector has no method "
              + "to call here")
          copy(end - index)
          continue
        }
        output.append(contentsOf: "Selector(\(methodReference(trimmed)))".unicodeScalars)
        index = end
        continue
      }
      copy(1)
    }
    let rewritten = String(output)
    return Result(text: rewritten, notes: notes, changed: rewritten != source)
  }

  /// `handle(_:)` → `Self.handle(_:)`; `self.handle` → `Self.handle`; `Player.handle(_:)` as is.
  static func methodReference(_ expression: String) -> String {
    if expression.hasPrefix("self.") { return "Self." + expression.dropFirst(5) }
    let head = expression.prefix { $0 != "(" }
    return head.contains(".") ? expression : "Self." + expression
  }
}

extension String {
  /// Without leading and trailing blanks (spaces, tabs, line breaks).
  fileprivate var trimmingBlanks: String {
    let blanks: Set<Character> = [" ", "\t", "\n", "\r"]
    let start = firstIndex { !blanks.contains($0) } ?? endIndex
    let end = lastIndex { !blanks.contains($0) }.map { index(after: $0) } ?? start
    return String(self[start..<max(start, end)])
  }
}
