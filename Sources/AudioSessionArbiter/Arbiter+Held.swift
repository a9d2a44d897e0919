// The sessions the daemon holds for the command line, and what it found on disk at start.
import AudioSession

extension Arbiter {
  /// The start: recreates the saved sessions with their configuration (inactive, as after a
  /// restart of the media server); a session the policy no longer accepts keeps the initial
  /// configuration (and its saved one stays in the file). Learns the players a previous daemon
  /// left paused.
  ///
  /// The sessions are made in one batch, so that the backend applies the outcome once: the
  /// restore takes time in proportion to the sessions (10,000 in under 0.5 s, docs/protocol.md
  /// "The state file").
  mutating func started(_ start: ArbiterStart) {
    let path = start.statePath ?? ""
    for problem in start.stateProblems {
      log(
        .error,
        "state file: \(problem)\(start.saved.isEmpty ? "; starting with no sessions" : "")",
        ["path": "\(path)"])
    }
    var inputs: [EngineInput] = []
    inputs.reserveCapacity(start.saved.count * 2)
    for entry in start.saved {
      inputs.append(.createSession(entry.name))
      if entry.configuration != .initial {
        let configuration = entry.configuration
        inputs.append(
          .setCategory(
            session: entry.name, category: configuration.category, mode: configuration.mode,
            options: configuration.options, policy: configuration.policy))
      }
    }
    let outcomes = handleInputs(inputs)
    var index = 0
    for entry in start.saved {
      let created = outcomes[index]
      index += 1
      var configured: EngineOutcome?
      if entry.configuration != .initial {
        configured = outcomes[index]
        index += 1
      }
      if let error = created.error {
        log(
          .warning, "cannot restore session '\(entry.name)': \(error.message)",
          ["session": "\(entry.name)"])
        continue
      }
      if let error = configured?.error {
        log(
          .warning, "session '\(entry.name)' keeps the initial configuration: \(error.message)",
          ["session": "\(entry.name)"])
      }
      held[entry.name] = entry.configuration
    }
    if !start.saved.isEmpty {
      log(
        .notice, "restored \(held.count) session\(held.count == 1 ? "" : "s") from \(path)",
        ["path": "\(path)", "sessions": Self.listed(held.names)])
    }
    if start.stateNeedsFold { emit(.foldState(held)) }
    guard setup.watchesPlayers, setup.keepsState else { return }
    switch start.pausedPlayers {
    case .success(let entries):
      pendingResume = entries
      journalWritten = entries
      players.orderPauses(after: entries.map(\.order).max() ?? 0)
    case .failure(let problem):
      log(.warning, "cannot read the players a previous daemon paused: \(problem.description)")
    }
    if !pendingResume.isEmpty {
      log(
        .info,
        "a previous daemon left \(pendingResume.count) player(s) paused for an interruption; each plays again once nothing interrupts it",
        ["players": .list(pendingResume.map(\.bus).sorted())])
    }
  }

  /// Updates the held sessions after a command: a session it created is the daemon's, a session
  /// it removed is forgotten (its owner's list too), and a changed configuration is saved.
  mutating func recordHeld(after command: Command, _ result: CommandResult) {
    switch command {
    case .input(.removeSession(let session)):
      if let owner = owners.removeValue(forKey: session) {
        connections[owner]?.sessions.removeAll { $0 == session }
      }
      if held.remove(session) { save(.remove(session)) }
    case .simulate(.serverRestart):
      // A reset puts every session back to the initial configuration; the saved configuration
      // is what `reconfigureHeld(after:)` applies again, so it is never overwritten here.
      return
    default:
      guard let session = result.session else { return }
      if result.createdSession, owners[session.name] == nil {
        held[session.name] = .initial
      }
      recordHeld(session, force: result.createdSession)
    }
  }

  /// When `notifications` tell of a reset of the media services, configures the held sessions
  /// again, as their app would (the daemon is the app of the sessions it holds for the command
  /// line): each gets its saved configuration back, inactive, and the state file is left as it
  /// is. Returns the notifications that caused, which the caller delivers.
  mutating func reconfigureHeld(after notifications: [SessionNotification])
    -> [SessionNotification]
  {
    guard notifications.contains(where: { $0.event == .mediaServicesWereReset }) else {
      return []
    }
    var notifications: [SessionNotification] = []
    for entry in held.entries where entry.configuration != .initial {
      let configuration = entry.configuration
      let outcome = handleInputs([
        .setCategory(
          session: entry.name, category: configuration.category, mode: configuration.mode,
          options: configuration.options, policy: configuration.policy)
      ])[0]
      if let error = outcome.error {
        log(
          .warning,
          "session '\(entry.name)' keeps the initial configuration after the reset: \(error.message)",
          ["session": "\(entry.name)"])
      }
      notifications += outcome.notifications
    }
    if !held.isEmpty {
      let sessions = "\(held.count) held session\(held.count == 1 ? "" : "s")"
      log(
        .notice, "configured \(sessions) again after the reset",
        ["sessions": Self.listed(held.names)])
    }
    return notifications
  }

  /// Saves a held session's configuration if it changed (or `force`).
  mutating func recordHeld(_ session: SessionStatus, force: Bool = false) {
    guard let saved = held[session.name] else { return }
    let now = session.configuration
    guard force || now != saved else { return }
    held[session.name] = now
    save(.set(SavedSession(name: session.name, configuration: now)))
  }

  /// Saves one change to the state file, if the daemon keeps one.
  mutating func save(_ change: SavedChange) {
    guard setup.keepsState else { return }
    emit(.save(change, all: held))
  }

  /// Session names as log metadata: the first 100 (a daemon may hold 10,000).
  static func listed(_ names: [String]) -> LogLine.Value {
    .list(Array(names.prefix(100)) + (names.count > 100 ? ["…"] : []))
  }
}
