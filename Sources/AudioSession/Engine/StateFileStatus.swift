/// How the daemon's state file stands, as `status` shows it (`system.stateFile`): where it is and
/// what went wrong with it, if anything (docs/protocol.md "The state file").
public struct StateFileStatus: Sendable, Hashable {
  /// The state file's path.
  public var path: String
  /// What went wrong, one sentence each: a file that could not be read and was moved aside (and
  /// where to), entries dropped, a newer version's file left alone, the last change that could not
  /// be saved. Empty when all is well.
  public var problems: [String]

  public init(path: String, problems: [String] = []) {
    self.path = path
    self.problems = problems
  }
}
