// PLACEHOLDER API (being written in main by the lead; do not edit in worktrees).
/// The arbitration engine: pure state, no I/O.
public struct Engine: Sendable {
  public let policy: Policy
  public init(policy: Policy, devices: [Device]) { self.policy = policy; fatalError("engine not yet merged") }
  /// Handles one input and returns the result and the notifications posted, in order.
  public mutating func handle(_ input: EngineInput) -> EngineOutcome { fatalError() }
  public func status() -> EngineStatus { fatalError() }
  public func session(named name: String) -> SessionStatus? { fatalError() }
  public var sessionNames: [String] { fatalError() }
}
