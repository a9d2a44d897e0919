extension Command {
  /// Names a session may not have: the transcript's `by` uses them for causes that are not
  /// sessions (docs/contract.md "transcript").
  public static let reservedSessionNames = ["alarm", "call", "siri", "system"]

  /// The longest session name, in bytes (docs/contract.md "Commands": a `status` table stays
  /// readable, and a name saved in the state file stays small).
  public static let maxSessionNameBytes = 64

  /// Why `name` cannot name a session, as a sentence fragment, or nil when it can.
  ///
  /// A session name is one to 64 of `A-Z a-z 0-9 _ . -`, does not start with `-` (it would read
  /// as an option) and is not a reserved name. Command names are checked by the command line.
  public static func sessionNameProblem(_ name: String) -> String? {
    if name.isEmpty { return "a session name cannot be empty" }
    let length = name.utf8.count
    if length > maxSessionNameBytes {
      let start = String(decoding: name.utf8.prefix(24), as: UTF8.self)
      return "session name '\(start)…' is \(length) bytes long; session names are at most "
        + "\(maxSessionNameBytes) bytes"
    }
    let allowed = name.unicodeScalars.allSatisfy {
      ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
        || $0 == "_" || $0 == "." || $0 == "-"
    }
    if !allowed {
      return "session name '\(name)' may only contain letters, digits, '_', '.' and '-'"
    }
    if name.hasPrefix("-") { return "session name '\(name)' cannot start with '-'" }
    if reservedSessionNames.contains(name) {
      return "'\(name)' cannot name a session: transcripts use it for interruptions by "
        + (name == "call"
          ? "a phone call"
          : name == "siri" ? "Siri" : name == "alarm" ? "a system alarm" : "the system")
    }
    return nil
  }
}
