// PLACEHOLDER API (being written in main by the lead; do not edit in worktrees).
/// Owns the engine and a backend; runs commands one at a time.
public actor SessionCoordinator {
  /// Starts the backend with the given initial devices (preset names; nil: the catalog's default).
  public init(policy: Policy, backend: any AudioBackend, devices: [String]?) async throws(SessionError) {
    fatalError("coordinator not yet merged")
  }
  /// Runs one command to completion: creates the session on first mention, performs it, applies
  /// the decisions to the backend, and returns the result with every notification it caused.
  public func run(_ command: Command) async -> CommandResult { fatalError() }
  public func status() -> EngineStatus { fatalError() }
  public func shutdown() async { fatalError() }
}
