/// Everything wrong with a `pulse.json`, one problem per key path (all are reported at once).
public struct PulsePortRulesError: Error, Sendable, Hashable, CustomStringConvertible {
  /// One problem: where it is and what to do about it.
  public struct Problem: Sendable, Hashable, CustomStringConvertible {
    /// `rules[3].when[0].portTypes[1]`; `$` for the document itself.
    public var keyPath: String
    public var message: String

    public init(keyPath: String, message: String) {
      self.keyPath = keyPath
      self.message = message
    }

    public var description: String { "\(keyPath): \(message)" }
  }

  /// The file the problems are in.
  public var file: String
  public var problems: [Problem]

  public init(file: String, problems: [Problem]) {
    self.file = file
    self.problems = problems
  }

  public var description: String {
    let count = problems.count == 1 ? "1 problem" : "\(problems.count) problems"
    return "\(file) has \(count):\n" + problems.map { "- \($0)" }.joined(separator: "\n")
  }
}
