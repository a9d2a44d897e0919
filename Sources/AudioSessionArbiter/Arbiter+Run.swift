// One command, run to completion on the engine, its backend's part left to the shell.
public import AudioSession

extension Arbiter {
  /// How a command treats a session it names that does not exist yet.
  public enum FirstMention: Sendable, Hashable {
    /// Creates it, whatever the command's outcome: a scenario's sessions exist from the step
    /// that first names them (docs/contract.md "Scenario files").
    case creates
    /// Creates it only for a command that changes it and succeeds; a query about it fails with
    /// `expiredSession`, and a failed command leaves no session behind (docs/contract.md "Bad
    /// input": a failed command changes nothing; reading creates nothing). The daemon's way.
    case createsOnSuccess
  }

  /// The reasons of an outcome's notifications and error, for a trigger.
  func because(
    _ outcome: EngineOutcome, trigger: String
  ) -> (notifications: [Because], error: Because?) {
    let profile = engine.policy.profile.name
    return (
      outcome.sources.map { Because(source: $0, profile: profile, trigger: trigger) },
      outcome.errorSource.map { Because(source: $0, profile: profile, trigger: trigger) }
    )
  }

  /// Runs one command to completion: creates the session on first mention (as `firstMention`
  /// says), performs it (a simulation with what the backend did, `performed`), has the backend
  /// apply the decisions, and returns the result with every notification it caused and why
  /// (`trigger` names what triggered it, the command's step text by default). A `status`
  /// reply has the engine's values; the shell adds the real hardware's.
  ///
  /// For a shell that has no clients (a scenario's run): the effects are the backend's only.
  public mutating func run(
    _ command: Command, firstMention: FirstMention = .creates, trigger: String? = nil,
    performed: Result<SimulationOutcome, SessionError>? = nil,
    effects: inout [ArbiterEffect]
  ) -> CommandResult {
    self.effects = []
    let result = run(command, firstMention: firstMention, trigger: trigger, performed: performed)
    effects = self.effects
    self.effects = []
    return result
  }

  /// Runs a command as the public ``run(_:firstMention:trigger:performed:effects:)`` does, its
  /// effects kept in `effects`. `withSession`: whether the result carries the session's status (a reply does; the
  /// arbiter's own commands, such as naming the Now Playing app, do not need it built).
  mutating func run(
    _ command: Command, firstMention: FirstMention = .creates, trigger: String? = nil,
    performed: Result<SimulationOutcome, SessionError>? = nil, withSession: Bool = true
  ) -> CommandResult {
    var result = CommandResult()
    // A failed engine call changes nothing (docs/engine.md), so undoing the creation is restoring
    // the engine as it was before it.
    var beforeCreation: Engine?
    if let name = command.session, engine.session(named: name) == nil, command.createsSession {
      if firstMention == .createsOnSuccess, command.isQuery {
        result.error = Self.noSession(name, among: engine.sessionNames)
        return result
      }
      beforeCreation = engine
      let created = engine.handle(.createSession(name))
      if let error = created.error {
        result.error = error
        if engine.explaining {
          result.errorBecause = because(created, trigger: trigger ?? command.stepText).error
        }
        return result
      }
    }
    do throws(SessionError) {
      let inputs: [EngineInput]
      switch command {
      case .input(let input): inputs = [input]
      case .status, .route, .devices: inputs = []
      case .simulate:
        guard let performed else {
          throw SessionError(.badParam, "the backend did not perform the simulation")
        }
        let outcome = try performed.get()
        result.warnings += outcome.notes
        inputs = outcome.inputs
      }
      for input in inputs {
        let outcome = engine.handle(input)
        result.warnings += outcome.warnings
        result.notifications += outcome.notifications
        if let error = outcome.error, result.error == nil { result.error = error }
        if engine.explaining {
          let reasons = because(outcome, trigger: trigger ?? command.stepText)
          result.because += reasons.notifications
          if result.errorBecause == nil { result.errorBecause = reasons.error }
        }
      }
    } catch {
      result.error = error
      if engine.explaining {
        // The backend refused the action (an unknown device…): no table decided it.
        result.errorBecause = Because(
          source: .fixed("§1.4"), profile: engine.policy.profile.name,
          trigger: trigger ?? command.stepText)
      }
    }
    if firstMention == .createsOnSuccess, result.error != nil, let restored = beforeCreation {
      engine = restored
      beforeCreation = nil
    }
    result.reply = reply(for: command)
    // Queries change nothing; anything else may (`play` posts no notification but starts I/O).
    if result.reply == nil { emit(.apply(result.notifications, statusToApply())) }
    if withSession, let name = command.session {
      result.session = engine.session(named: name)
      result.createdSession = beforeCreation != nil && result.session != nil
    }
    return result
  }

  /// The error for a query about a session that does not exist: which sessions do, and how to
  /// make this one.
  static func noSession(_ name: String, among names: [String]) -> SessionError {
    let existing =
      names.isEmpty
      ? "there are no sessions yet"
      : "the sessions are \(names.map { "'\($0)'" }.joined(separator: ", "))"
    return SessionError(
      .expiredSession,
      "no session named '\(name)' (\(existing)); name one with --session NAME, or create "
        + "'\(name)' by configuring it (sessionctl set CATEGORY --session \(name))")
  }

  private func reply(for command: Command) -> CommandReply? {
    switch command {
    case .status: .status(engine.status())
    case .route(let session):
      engine.session(named: session).map { .route(session: session, $0.route) }
    case .devices: .devices(engine.connectedDevices)
    default: nil
    }
  }
}
