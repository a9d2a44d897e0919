/// A scenario whose every step has been parsed into a command or an act on its desktop: nothing
/// left that can be malformed, ready to run.
public import AudioSession
import AudioSessionArbiter

public struct ScenarioPlan: Sendable, Hashable {
  /// The scenario as read from its file.
  public var scenario: Scenario
  /// One per step, in step order.
  public var actions: [ScenarioAction]

  /// - Precondition: one action per step.
  public init(scenario: Scenario, actions: [ScenarioAction]) {
    precondition(scenario.steps.count == actions.count, "a plan needs one action per step")
    self.scenario = scenario
    self.actions = actions
  }

  /// A plan whose every step is a command.
  public init(scenario: Scenario, commands: [Command]) {
    self.init(scenario: scenario, actions: commands.map(ScenarioAction.command))
  }

  /// The commands among the steps, in step order.
  public var commands: [Command] { actions.compactMap(\.command) }

  /// Whether a step acts out another program, the user or the daemon (docs/contract.md
  /// "Desktop steps"): the run is then the daemon's on a desktop.
  public var actsOnDesktop: Bool {
    actions.contains { if case .desktop = $0 { true } else { false } }
  }

  /// Runs every step, in order, on a new arbiter (docs/arbiter.md), with `backend` carrying out its decisions, and returns the transcript.
  ///
  /// Each step runs to completion, with every notification it caused, before the next one
  /// (docs/contract.md "Scenario files"). A step's error is part of its entry and does not stop the
  /// scenario. A plan that acts on its desktop runs as the daemon does, with the other programs
  /// and the user acted out (docs/contract.md "Desktop steps"), on the simulated backend only.
  ///
  /// - Parameters:
  ///   - policy: The policy with the profile to apply.
  ///   - backend: A backend that has not been started.
  ///   - recordStates: Whether each entry gets the state after its step (``TranscriptEntry/after``,
  ///     for a timeline); without it nothing more is recorded.
  ///   - explain: Whether each notification and error says why (``CommandResult/because``,
  ///     triggered by the step as written).
  ///   - duckLevel: What `heard` gives a ducked program (an amplitude, 0…1).
  ///   - onEntry: Called with each entry as soon as its step has run.
  /// - Throws: The backend's error if it cannot start with the scenario's devices, or if the
  ///   plan acts on its desktop on a backend other than the simulated one.
  public func run(
    policy: Policy, backend: any AudioBackend, recordStates: Bool = false, explain: Bool = false,
    duckLevel: Double = 0.1, onEntry: (TranscriptEntry) -> Void = { _ in }
  ) async throws(SessionError) -> [TranscriptEntry] {
    let desktop = actsOnDesktop
    if desktop, backend.name != "simulated" {
      throw SessionError(
        .badParam,
        "this scenario acts out other programs (simulate program, user, daemon restart, heard), "
          + "which only the simulated backend can: run it without --backend \(backend.name)")
    }
    let driver = try await ArbiterDriver(
      policy: policy, backend: backend, devices: scenario.devices?.map(\.value),
      explaining: explain, desktop: desktop)
    var stage =
      desktop ? await DesktopStage(driver: driver, explain: explain, duckLevel: duckLevel) : nil
    var entries: [TranscriptEntry] = []
    for (index, step) in scenario.steps.enumerated() {
      var entry: TranscriptEntry
      if var current = stage {
        entry = await current.run(actions[index], step: index + 1, text: step.text)
        stage = current
      } else if case .command(let command) = actions[index] {
        let result = await driver.run(command, trigger: step.text)
        entry = TranscriptEntry(step: index + 1, command: step.text, result: result)
      } else {
        preconditionFailure("a desktop act in a plan that acts on no desktop")
      }
      if recordStates { entry.after = await driver.status() }
      onEntry(entry)
      entries.append(entry)
    }
    await driver.shutdown()
    return entries
  }
}
