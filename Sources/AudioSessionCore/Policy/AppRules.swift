/// How other programs' streams become sessions (docs/apps.md "Rules"): an ordered list of rules,
/// each matching stream properties by glob and giving a configuration, or `ignore`. The first
/// rule that matches wins; a stream no rule matches is not arbitrated.
public struct AppRules: Sendable, Hashable {
  public struct Rule: Sendable, Hashable {
    /// The rule's name in `apps.json`, for listings.
    public var name: String
    /// Property key → glob (`*`, `?`, `[abc]`, `[a-z]`, `[!a]`); a nil glob matches only a
    /// stream without that property.
    public var match: [String: String?]
    public var outcome: Outcome

    public init(name: String = "", match: [String: String?], outcome: Outcome) {
      self.name = name
      self.match = match
      self.outcome = outcome
    }

    public func matches(_ properties: [String: String]) -> Bool {
      match.allSatisfy { key, glob in
        guard let glob else { return properties[key] == nil }
        guard let value = properties[key] else { return false }
        return Glob.matches(glob, value)
      }
    }
  }

  public enum Outcome: Sendable, Hashable {
    /// A session with this configuration; `call`: the stream is a call the program makes, and
    /// its session is the call's own (``EngineInput/ownCall(session:)``).
    case session(
      category: Category, mode: Mode, options: CategoryOptions,
      policy: RouteSharingPolicy = .default, call: Bool = false)
    /// The stream is left alone: never muted, ducked or moved, and no session.
    case ignore
  }

  public var rules: [Rule]

  public init(_ rules: [Rule]) {
    self.rules = rules
  }

  /// The outcome of the first rule that matches; nil when none does.
  public func outcome(for properties: [String: String]) -> Outcome? {
    rules.first { $0.matches(properties) }?.outcome
  }
}

/// Shell-style globs over Unicode scalars: `*` any run, `?` one scalar, `[…]` a set (`!` or `^`
/// first negates, `a-z` a range); anything else matches itself, and `\` escapes.
public enum Glob {
  public static func matches(_ pattern: String, _ text: String) -> Bool {
    match(Array(pattern.unicodeScalars)[...], Array(text.unicodeScalars)[...])
  }

  private static func match(
    _ pattern: ArraySlice<Unicode.Scalar>, _ text: ArraySlice<Unicode.Scalar>
  ) -> Bool {
    var p = pattern.startIndex
    var t = text.startIndex
    // The last `*` seen and where the text stood: on a mismatch, the star takes one more scalar.
    var star: (pattern: Int, text: Int)? = nil
    while t < text.endIndex {
      if p < pattern.endIndex {
        let scalar = pattern[p]
        if scalar == "*" {
          star = (p, t)
          p += 1
          continue
        }
        if let (matched, next) = single(pattern, at: p, text[t]), matched {
          p = next
          t += 1
          continue
        }
      }
      guard let last = star else { return false }
      p = last.pattern + 1
      t = last.text + 1
      star = (last.pattern, last.text + 1)
    }
    while p < pattern.endIndex, pattern[p] == "*" { p += 1 }
    return p == pattern.endIndex
  }

  /// Whether the pattern element at `index` (a literal, `?`, an escape or a set) matches
  /// `scalar`, and the index after the element; nil at a `*`.
  private static func single(
    _ pattern: ArraySlice<Unicode.Scalar>, at index: Int, _ scalar: Unicode.Scalar
  ) -> (Bool, Int)? {
    switch pattern[index] {
    case "*": return nil
    case "?": return (true, index + 1)
    case "\\" where index + 1 < pattern.endIndex:
      return (pattern[index + 1] == scalar, index + 2)
    case "[":
      var i = index + 1
      var negated = false
      if i < pattern.endIndex, pattern[i] == "!" || pattern[i] == "^" {
        negated = true
        i += 1
      }
      var found = false
      var first = true
      while i < pattern.endIndex, pattern[i] != "]" || first {
        first = false
        let low = pattern[i]
        if i + 2 < pattern.endIndex, pattern[i + 1] == "-", pattern[i + 2] != "]" {
          if low.value <= scalar.value, scalar.value <= pattern[i + 2].value { found = true }
          i += 3
        } else {
          if low == scalar { found = true }
          i += 1
        }
      }
      // No closing bracket: the `[` is a literal.
      guard i < pattern.endIndex else { return (scalar == "[", index + 1) }
      return (found != negated, i + 1)
    default:
      return (pattern[index] == scalar, index + 1)
    }
  }
}
