/// One thing wrong in a policy directory: where it is and what to do about it.
public struct PolicyProblem: Sendable, Hashable, CustomStringConvertible {
  /// The file the problem is in (`categories.json`), or the directory itself when the problem
  /// is about the directory.
  public var file: String
  /// Where in the file, as dotted keys and `[index]` subscripts
  /// (`categories.ambient.options.duckOthers`, `rules[2].incoming`); empty for the whole file.
  public var keyPath: String
  /// A sentence that says what is wrong and, where there is a closed set, what is valid.
  public var message: String

  public init(file: String, keyPath: String, message: String) {
    self.file = file
    self.keyPath = keyPath
    self.message = message
  }

  /// `categories.json: categories.ambient.options.duckOthers: unknown cell 'maybe'; valid: …`.
  public var description: String {
    keyPath.isEmpty ? "\(file): \(message)" : "\(file): \(keyPath): \(message)"
  }
}

/// Everything ``PolicyLoader`` found wrong in a policy directory; it never stops at the first
/// problem.
public struct PolicyValidationError: Error, Sendable, Hashable, CustomStringConvertible {
  /// In file order (categories, modes, options, interactions, routes, devices, profiles), then in
  /// the order they were found.
  public var problems: [PolicyProblem]

  public init(problems: [PolicyProblem]) {
    self.problems = problems
  }

  /// One bullet per problem: `- file: key.path: message`.
  public var description: String {
    problems.map { "- \($0)" }.joined(separator: "\n")
  }
}
