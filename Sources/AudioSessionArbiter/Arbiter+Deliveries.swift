// What a shell with no clients learns of the daemon's decisions: every notification delivered.
public import AudioSession

/// One notification the arbiter delivered (to an app session, a held session, a client's), and
/// why, when it explains.
public struct Delivery: Sendable, Hashable {
  public var notification: SessionNotification
  public var because: Because?

  public init(notification: SessionNotification, because: Because?) {
    self.notification = notification
    self.because = because
  }
}

extension Arbiter {
  /// From now on, keeps every notification delivered, in order, with the `player` events it
  /// caused (``takeDeliveries()``): a scenario's run shows what the daemon decided for other
  /// programs as a transcript (docs/contract.md "Desktop steps").
  public mutating func recordDeliveries() {
    if deliveries == nil { deliveries = [] }
  }

  /// The notifications delivered since the last call, in order.
  public mutating func takeDeliveries() -> [Delivery] {
    guard let taken = deliveries else { return [] }
    deliveries = []
    return taken
  }

  /// Runs one command as the daemon runs a request's (``runDelivering(_:firstMention:trigger:performed:)``):
  /// delivered, with the player commands its notifications call for, the held sessions
  /// recorded and, after a reset, configured again, and every decision that follows from it
  /// made. For a shell with no clients that acts out the daemon (a scenario's desktop).
  public mutating func runAsDaemon(
    _ command: Command, trigger: String? = nil,
    performed: Result<SimulationOutcome, SessionError>? = nil,
    effects: inout [ArbiterEffect]
  ) -> CommandResult {
    self.effects = []
    let result = runDelivering(
      command, firstMention: .creates, trigger: trigger, performed: performed)
    handleFollowUps()
    effects = self.effects
    self.effects = []
    return result
  }
}
