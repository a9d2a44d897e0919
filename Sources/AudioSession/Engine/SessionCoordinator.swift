/// Owns the engine and a backend and runs commands one at a time: the shell around the pure
/// engine that performs the backend's I/O (docs/style.md §3.6).
public actor SessionCoordinator {
  private var engine: Engine
  private let backend: any AudioBackend

  /// Starts the backend with the given initial devices (preset names; nil: the catalog's default).
  public init(
    policy: Policy, backend: any AudioBackend, devices: [String]?
  ) async throws(SessionError) {
    let catalog = policy.table.devices
    let present = try await backend.start(
      catalog: catalog, initialDevices: devices ?? catalog.defaultDevices)
    self.engine = Engine(policy: policy, devices: present)
    self.backend = backend
  }

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

  /// Whether the engine records where its decisions come from (docs/contract.md "Seeing why"):
  /// then each result says why (``CommandResult/because``).
  public var explaining: Bool { engine.explaining }

  public func setExplaining(_ on: Bool) { engine.explaining = on }

  /// The reasons of an outcome's notifications and error, for a trigger, while explaining.
  public func because(
    _ outcome: EngineOutcome, trigger: String
  ) -> (notifications: [Because], error: Because?) {
    let profile = engine.policy.profile.name
    return (
      outcome.sources.map { Because(source: $0, profile: profile, trigger: trigger) },
      outcome.errorSource.map { Because(source: $0, profile: profile, trigger: trigger) }
    )
  }

  /// Runs one command to completion: creates the session on first mention (as `firstMention`
  /// says), performs it, applies the decisions to the backend, and returns the result with every
  /// notification it caused (and, while explaining, why: `trigger` names what triggered it,
  /// the command's step text by default).
  public func run(
    _ command: Command, firstMention: FirstMention = .creates, trigger: String? = nil
  ) async -> CommandResult {
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
      let inputs = try await inputs(for: command)
      if case .simulate = command { result.warnings += await backend.takeSimulationNotes() }
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
    if result.reply == nil {
      await backend.apply(result.notifications, status: statusToApply())
    } else if case .status(let status)? = result.reply {
      result.reply = .status(await backend.withRealHardware(status))
      result.server = await backend.serverStatus
    }
    if let name = command.session {
      result.session = engine.session(named: name)
      result.createdSession = beforeCreation != nil && result.session != nil
    }
    return result
  }

  /// Feeds an input that did not come from a command (a backend's own event).
  public func handle(_ input: EngineInput) async -> EngineOutcome {
    let outcome = engine.handle(input)
    await backend.apply(outcome.notifications, status: statusToApply())
    return outcome
  }

  /// The status ``AudioBackend/apply(_:status:)`` is handed: without the sessions for a backend
  /// that does not follow them.
  private func statusToApply() -> EngineStatus {
    backend.followsSessions ? engine.status() : engine.status(withSessions: false)
  }

  /// Handles several inputs in order, then lets the backend apply what they caused at once, with
  /// the status after the last (an app session's start is four inputs; its streams need one
  /// decision).
  public func handle(_ inputs: [EngineInput]) async -> [EngineOutcome] {
    var outcomes: [EngineOutcome] = []
    for input in inputs { outcomes.append(engine.handle(input)) }
    await backend.apply(outcomes.flatMap(\.notifications), status: statusToApply())
    return outcomes
  }

  /// Feeds the backend's own inputs (``AudioBackend/observedInputs``) to the engine as they
  /// arrive, handing each outcome to `deliver` once the backend has applied it; returns when the
  /// backend stops.
  public func followBackend(
    _ deliver: @Sendable (EngineInput, EngineOutcome) async -> Void
  ) async {
    for await input in backend.observedInputs {
      await deliver(input, await handle(input))
    }
  }

  /// The whole state, with the real hardware's values where the backend has them.
  public func status() async -> EngineStatus { await backend.withRealHardware(engine.status()) }

  /// One session's state as `session` reports it to its owner (with its available inputs and
  /// its input's data sources), with the real hardware's values; nil if there is no such
  /// session.
  public func sessionWithRealHardware(named name: String) async -> SessionStatus? {
    guard let session = engine.session(named: name) else { return nil }
    let status = engine.status()
    var single = status
    single.sessions = [session]
    return await backend.withRealHardware(single).sessions.first
  }

  /// Other programs' streams as the backend sees them (``AudioBackend/observedStreams``).
  public nonisolated var observedStreams: AsyncStream<ServerStreamEvent> {
    backend.observedStreams
  }

  /// Tells the backend which session each of other programs' streams belongs to.
  public func assign(_ assignment: StreamAssignment) async { await backend.assign(assignment) }

  /// The backend's media server, if it has one (``AudioBackend/serverStatus``).
  public func serverStatus() async -> MediaServerStatus? { await backend.serverStatus }

  /// One session's state, or nil if there is no such session.
  public func session(named name: String) -> SessionStatus? { engine.session(named: name) }

  /// The backend's name (`simulated`, `pulse`).
  public nonisolated var backendName: String { backend.name }

  public func shutdown() async { await backend.stop() }

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

  private func inputs(for command: Command) async throws(SessionError) -> [EngineInput] {
    switch command {
    case .input(let input): [input]
    case .status, .route, .devices: []
    case .simulate(let action): try await backend.perform(action)
    }
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
