// Other programs' streams and what the backend sees on its own.
import AudioSession

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
    let snapshot = { if case .snapshot = event { true } else { false } }()
    streams.learn(processes, replacing: snapshot)
    if snapshot { streamsKnown = true }
    applyStreamInputs(streams.apply(event))
  }

  mutating func applyStreamInputs(_ inputs: [EngineInput]) {
    emit(.assign(streams.assignment))
    for hold in streams.takeHolds() { emit(.timeHold(hold)) }
    let inputs = withCall(withoutPausedPlayers(withoutBufferingStops(inputs)))
    let outcomes = handleInputs(inputs)
    let because = because(outcomes, inputs: inputs)
    var removed: [String] = []
    for case .removeSession(let name) in inputs {
      // A player paused for an interruption whose program closed its stream meanwhile (or lost
      // it with the server) is still owed its Play once nothing interrupts it.
      for (player, order) in players.takeInterrupted(of: name) {
        pendingResume.insert(PausedPlayer(bus: player.bus, pid: player.pid, order: order))
      }
      players.forget(session: name)
      buffering.remove(name)
      removed.append(name)
    }
    if !removed.isEmpty { keepPausedPlayers() }
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

  /// The inputs without the stops of app sessions whose streams corked while a player of their
  /// program says `Playing`, not paused by us: mpv corks its stream as it starts and, on a
  /// busy machine, for longer than the backend holds such a cork; taken as a pause, it played
  /// the media app it had interrupted again, which interrupted it in turn, and the two paused
  /// and played each other for as long as both ran (docs/mpris.md "A cork while the player
  /// plays"). The session stays active until its player stops playing
  /// (``releaseBuffering()``), and its streams' next start is no new activation.
  mutating func withoutBufferingStops(_ inputs: [EngineInput]) -> [EngineInput] {
    guard setup.watchesPlayers, !players.players.isEmpty || !buffering.isEmpty else {
      return inputs
    }
    var removed: Set<String> = []
    for case .removeSession(let name) in inputs { removed.insert(name) }
    var kept: [EngineInput] = []
    for input in inputs {
      switch input {
      case .stopIO(let session)
      where !removed.contains(session) && engine.isActive(session) == true
        && playsByItsPlayers(session):
        if buffering.insert(session).inserted {
          log(
            .info,
            "\(session) is buffering: its streams corked while its player plays",
            ["session": "\(session)"])
        }
      case .setActive(let session, false, _)
      where buffering.contains(session) && !removed.contains(session):
        continue
      case .setActive(let session, true, _) where buffering.contains(session),
        .startIO(let session) where buffering.contains(session):
        // Playing again: still active, so nothing to start.
        if case .startIO = input { buffering.remove(session) }
        if engine.isActive(session) != true { kept.append(input) }
      default:
        kept.append(input)
      }
    }
    return kept
  }

  /// Whether a player of an app session's program says `Playing`, and none of them was paused
  /// by us (its stream's cork may be the answer to our Pause).
  func playsByItsPlayers(_ session: String) -> Bool {
    guard streams.appSessions[session] != nil, let owner = playerOwner(of: session) else {
      return false
    }
    let own = players.players(of: owner)
    return own.contains { $0.status == .playing }
      && !own.contains { players.pausedByUs[$0.bus] != nil }
  }

  /// The buffering sessions whose players no longer play (paused, stopped or gone, or paused
  /// by us) stop as the cork said: deactivated with notifyOthersOnDeactivation, as any app
  /// session whose streams stop.
  mutating func releaseBuffering() {
    for session in buffering.sorted() where !playsByItsPlayers(session) {
      buffering.remove(session)
      guard engine.isActive(session) == true, !streams.isPlaying(session) else { continue }
      log(
        .info, "\(session) stopped: its player no longer plays, its streams corked",
        ["session": "\(session)"])
      applyStreamInputs([
        .stopIO(session: session),
        .setActive(session: session, active: false, options: .notifyOthersOnDeactivation),
      ])
    }
  }

  /// The inputs without the activations (and their starts of I/O) of app sessions whose
  /// program has players and none of them plays: a stream uncorked while its player is paused
  /// plays silence (a browser's, opened again after a server restart or found by a new daemon),
  /// and the user's pause is kept, as when it came (docs/arbiter.md "The user's word"). The
  /// session starts when a player of its program plays (``playedAgain(_:)``).
  func withoutPausedPlayers(_ inputs: [EngineInput]) -> [EngineInput] {
    guard setup.watchesPlayers, !players.players.isEmpty else { return inputs }
    var kept: [EngineInput] = []
    var held: Set<String> = []
    for input in inputs {
      switch input {
      case .setActive(let session, true, _) where pausedByItsPlayers(session):
        held.insert(session)
      case .startIO(let session) where held.contains(session):
        continue
      default:
        kept.append(input)
      }
    }
    return kept
  }

  /// Whether an app session's program has players and none of them plays.
  func pausedByItsPlayers(_ session: String) -> Bool {
    guard streams.appSessions[session] != nil, let owner = playerOwner(of: session) else {
      return false
    }
    let own = players.players(of: owner)
    return !own.isEmpty && !own.contains { $0.status == .playing }
  }

  /// One call, one fact (docs/arbiter.md "Calls"): a call goes on while the server's call
  /// signal says so, a simulated one goes on, or an app that makes a call plays (a phone-role stream is both; a browser's
  /// call page only the second). The engine is told when that changes: a call that begins
  /// before the inputs that start it, right after the call's own session is marked as the
  /// call's (so that the sessions it interrupts are interrupted by the call, and the call's own
  /// session is not), and one that ends after those that end it.
  mutating func withCall(_ inputs: [EngineInput]) -> [EngineInput] {
    let wanted = serverCall || simulatedCall || streams.callPlaying
    let current = engine.isCallActive
    guard wanted != current else { return inputs }
    guard wanted else { return inputs + [.call(active: false)] }
    var inputs = inputs
    let position = inputs.lastIndex { if case .ownCall = $0 { true } else { false } }
    inputs.insert(.call(active: true), at: position.map { $0 + 1 } ?? 0)
    return inputs
  }

  /// Delivers what an input of the backend caused; after a reset of the media server, also
  /// configures the held sessions again and makes the app sessions of programs that play on
  /// again. The server's call signal is one of a call's two facts (``withCall(_:)``).
  mutating func followed(_ input: EngineInput) {
    if case .call(let active) = input {
      serverCall = active
      applyStreamInputs([])
      resumeLeftPlayers()
      return
    }
    let outcome = handleInputs([input])[0]
    deliver(outcome.notifications, because: because([outcome], inputs: [input]))
    deliver(reconfigureHeld(after: outcome.notifications))
    if outcome.notifications.contains(where: { $0.event == .mediaServicesWereReset }) {
      mediaServicesWereReset()
    }
    resumeLeftPlayers()
  }

  /// After a reset of the media services every session is new: the app sessions of programs
  /// that play on are made again from their streams, the server's call is over, and the players
  /// we paused for an interruption wait, as those a previous daemon left, for nothing to
  /// interrupt them (no interruption will end for them: the sessions went with the server).
  mutating func mediaServicesWereReset() {
    serverCall = false
    simulatedCall = false
    for (player, order) in players.takeInterrupted() {
      pendingResume.insert(PausedPlayer(bus: player.bus, pid: player.pid, order: order))
    }
    keepPausedPlayers()
    applyStreamInputs(streams.mediaServicesWereReset())
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
