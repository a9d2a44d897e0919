/// A scenario whose every step has been parsed into a command: nothing left that can be
/// malformed, ready to run.
public import AudioSession
import AudioSessionArbiter

public struct ScenarioPlan: Sendable, Hashable {
  /// The scenario as read from its file.
  public var scenario: Scenario
  /// One per step, in step order.
  public var commands: [Command]

  /// - Precondition: one command per step.
  public init(scenario: Scenario, commands: [Command]) {
    precondition(scenario.steps.count == commands.count, "a plan needs one command per step")
    self.scenario = scenario
    self.commands = commands
  }

  /// Runs every step, in order, on a new arbiter (docs/arbiter.md), with `backend` carrying out its decisions, and returns the transcript.
  ///
  /// Each step runs to completion, with every notification it caused, before the next one
  /// (docs/contract.md "Scenario files"). A step's error is part of its entry and does not stop the
  /// scenario.
  ///
  /// - Parameters:
  ///   - policy: The policy with the profile to apply.
  ///   - backend: A backend that has not been started.
  ///   - recordStates: Whether each entry gets the state after its step (``TranscriptEntry/after``,
  ///     for a timeline); without it nothing more is recorded.
  ///   - explain: Whether each notification and error says why (``CommandResult/because``,
  ///     triggered by the step as written).
  ///   - onEntry: Called with each entry as soon as its step has run.
  /// - Throws: The backend's error if it cannot start with the scenario's devices.
  public func run(
    policy: Policy, backend: any AudioBackend, recordStates: Bool = false, explain: Bool = false,
    onEntry: (TranscriptEntry) -> Void = { _ in }
  ) async throws(SessionError) -> [TranscriptEntry] {
    let driver = try await ArbiterDriver(
      policy: policy, backend: backend, devices: scenario.devices?.map(\.value),
      explaining: explain)
    var entries: [TranscriptEntry] = []
    for (index, step) in scenario.steps.enumerated() {
      let result = await driver.run(commands[index], trigger: step.text)
      let after = recordStates ? await driver.status() : nil
      let entry = TranscriptEntry(
        step: index + 1, command: step.text, result: result, after: after)
      onEntry(entry)
      entries.append(entry)
    }
    await driver.shutdown()
    return entries
  }
}
