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
    /// The app the streams it matches belong to, whichever process opens them: one app session
    /// of this name (as a Flatpak app id names one), for a service whose processes are one app
    /// to the user (speech-dispatcher and its output modules). Nil: the program within its
    /// process group, as for any other stream.
    public var app: String?
    /// Milliseconds of silence after which a playing stream the rule matches counts as paused
    /// (its app session deactivates, notifying others), until it is heard again: for a program
    /// that keeps its stream open and running between sounds (speech-dispatcher between
    /// utterances). Nil: a stream plays while it is not corked.
    public var inactiveAfterSilence: Int?
    /// Milliseconds an app session the rule makes outlives its last stream: a stream of the
    /// same app that comes meanwhile joins it, as if none had gone, so a program that closes a
    /// stream and opens the next one (espeak-ng, three streams an utterance) is one activation,
    /// one duck (docs/apps.md "Speech"). Nil: the session goes with its last stream.
    public var heldAfterLastStream: Int?

    public init(
      name: String = "", match: [String: String?], outcome: Outcome, app: String? = nil,
      inactiveAfterSilence: Int? = nil, heldAfterLastStream: Int? = nil
    ) {
      self.name = name
      self.match = match
      self.outcome = outcome
      self.app = app
      self.inactiveAfterSilence = inactiveAfterSilence
      self.heldAfterLastStream = heldAfterLastStream
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

  /// Whether `earlier` matches every stream `later` matches, so that `later`, after it, can
  /// never apply: each of `earlier`'s keys is one `later` asks for too, with the same glob, a
  /// glob of `*` alone for a present property, or a glob that matches `later`'s literal value.
  /// (A sufficient test: it finds a catch-all first, and a repeated or wider rule first.)
  public static func shadows(_ earlier: Rule, _ later: Rule) -> Bool {
    earlier.match.allSatisfy { key, glob in
      guard let wanted = later.match[key] else { return false }
      switch (glob, wanted) {
      case (nil, nil): return true
      case (nil, _?), (_?, nil): return false
      case (let glob?, let value?):
        if glob == value || glob.unicodeScalars.allSatisfy({ $0 == "*" }) { return true }
        return Glob.isLiteral(value) && Glob.matches(glob, value)
      }
    }
  }

  /// The outcome of the first rule that matches; nil when none does.
  public func outcome(for properties: [String: String]) -> Outcome? {
    rule(for: properties)?.outcome
  }

  /// The first rule that matches; nil when none does.
  public func rule(for properties: [String: String]) -> Rule? {
    rules.first { $0.matches(properties) }
  }
}

/// Shell-style globs over Unicode scalars: `*` any run, `?` one scalar, `[…]` a set (`!` or `^`
/// first negates, `a-z` a range); anything else matches itself, and `\` escapes.
public enum Glob {
  /// What is wrong with a pattern, as a sentence, or nil: a set left open (`[gam`), which would
  /// only match a literal `[`, or an escape with nothing after it. `apps.json`'s loader reports
  /// it (docs/apps.md "Rules").
  public static func problem(_ pattern: String) -> String? {
    let scalars = Array(pattern.unicodeScalars)
    var index = 0
    while index < scalars.count {
      switch scalars[index] {
      case "\\":
        guard index + 1 < scalars.count else {
          return "the glob '\(pattern)' ends with '\\', which escapes nothing; remove it"
        }
        index += 2
      case "[":
        var end = index + 1
        if end < scalars.count, scalars[end] == "!" || scalars[end] == "^" { end += 1 }
        // A `]` right after the opening is a member, not the end.
        if end < scalars.count, scalars[end] == "]" { end += 1 }
        while end < scalars.count, scalars[end] != "]" { end += 1 }
        guard end < scalars.count else {
          return """
            the glob '\(pattern)' opens a set with '[' that is never closed; close it with ']', \
            or write '\\[' for a literal bracket
            """
        }
        index = end + 1
      default:
        index += 1
      }
    }
    return nil
  }

  /// Whether a pattern has no special characters: it matches only itself.
  public static func isLiteral(_ pattern: String) -> Bool {
    !pattern.unicodeScalars.contains { "*?[\\".unicodeScalars.contains($0) }
  }

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
