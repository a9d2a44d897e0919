// Other programs' streams and what the backend sees on its own.
public import AudioSession

extension Arbiter {
  /// Whether each decision records why (`explain`, docs/contract.md "Seeing why"): the daemon's
  /// always do; a scenario's only when asked.
  public var explaining: Bool {
    get { engine.explaining }
    set { engine.explaining = newValue }
  }

  /// Feeds one change of other programs' streams: the backend learns the new assignment, then
  /// the engine gets what the change means for app sessions, and everyone is told.
  mutating func streamsChanged(_ event: ServerStreamEvent, processes: [Int32: ProcessFacts]) {
    streams.reservedNames = Set(owners.keys).union(held.names)
    streams.learn(processes, replacing: { if case .snapshot = event { true } else { false } }())
    applyStreamInputs(streams.apply(event))
  }

  mutating func applyStreamInputs(_ inputs: [EngineInput]) {
    emit(.assign(streams.assignment))
    let outcomes = handleInputs(inputs)
    let because = because(outcomes, inputs: inputs)
    var removed: [String] = []
    for case .removeSession(let name) in inputs {
      players.forget(session: name)
      removed.append(name)
    }
    for (input, outcome) in zip(inputs, outcomes) {
      if let error = outcome.error {
        // An app cannot be told: the operator is (an activation refused, a busy deactivation),
        // in the contract's words: `set mpv.42 ambient, mode default, …`.
        log(.warning, "an app session's input failed: \(error.message)", ["input": "\(input)"])
      }
    }
    deliver(outcomes.flatMap(\.notifications), because: because)
    forgetHistory(of: removed)
    var created: [String] = []
    for case .createSession(let name) in inputs { created.append(name) }
    if setup.watchesPlayers, !created.isEmpty { claimNowPlaying(forNew: created) }
    resumeLeftPlayers()
  }

  /// Delivers what an input of the backend caused; after a reset of the media server, also
  /// configures the held sessions again and makes the app sessions of programs that play on
  /// again.
  mutating func followed(_ input: EngineInput) {
    let outcome = handleInputs([input])[0]
    deliver(outcome.notifications, because: because([outcome], inputs: [input]))
    deliver(reconfigureHeld(after: outcome.notifications))
    if outcome.notifications.contains(where: { $0.event == .mediaServicesWereReset }) {
      applyStreamInputs(streams.mediaServicesWereReset())
    }
    resumeLeftPlayers()
  }

  /// The reasons of engine outcomes, each triggered by its input (a program's stream, the
  /// server's own event).
  func because(_ outcomes: [EngineOutcome], inputs: [EngineInput]) -> [Because] {
    guard engine.explaining else { return [] }
    var reasons: [Because] = []
    for (input, outcome) in zip(inputs, outcomes) {
      reasons += because(outcome, trigger: input.triggerText).notifications
    }
    return reasons
  }
}
