// The sessions the daemon holds for the command line, and the state file that keeps them.

import AudioSession
import Logging

extension DaemonCore {
  /// Recreates the saved sessions with their configuration (inactive, as after a restart of the
  /// media server); a session the policy no longer accepts keeps the initial configuration (and
  /// its saved one stays in the file). What could not be read is logged as an error, and shown
  /// in `status` (``stateFileStatus()``).
  ///
  /// The sessions are made in one batch, so that the backend applies the outcome once: the
  /// restore takes time in proportion to the sessions (issue 25 item 3: 10,000 in under 0.5 s).
  func restore() async {
    guard let store else { return }
    let opened = store.open()
    for problem in opened.problems {
      logger.error(
        "state file: \(problem)\(opened.entries.isEmpty ? "; starting with no sessions" : "")",
        metadata: ["path": "\(store.path)"])
    }
    let entries = opened.entries
    var inputs: [EngineInput] = []
    inputs.reserveCapacity(entries.count * 2)
    for entry in entries {
      inputs.append(.createSession(entry.name))
      if entry.configuration != .initial {
        let configuration = entry.configuration
        inputs.append(
          .setCategory(
            session: entry.name, category: configuration.category, mode: configuration.mode,
            options: configuration.options, policy: configuration.policy))
      }
    }
    let outcomes = inputs.isEmpty ? [] : await coordinator.handle(inputs)
    var index = 0
    for entry in entries {
      let created = outcomes[index]
      index += 1
      var configured: EngineOutcome?
      if entry.configuration != .initial {
        configured = outcomes[index]
        index += 1
      }
      if let error = created.error {
        logger.warning(
          "cannot restore session '\(entry.name)': \(error.message)",
          metadata: ["session": "\(entry.name)"])
        continue
      }
      if let error = configured?.error {
        logger.warning(
          "session '\(entry.name)' keeps the initial configuration: \(error.message)",
          metadata: ["session": "\(entry.name)"])
      }
      held[entry.name] = entry.configuration
    }
    if !entries.isEmpty {
      logger.notice(
        "restored \(held.count) session\(held.count == 1 ? "" : "s") from \(store.path)",
        metadata: ["path": "\(store.path)", "sessions": Self.listed(held.names)])
    }
    if store.needsFold, let failure = store.fold(held.entries) {
      logger.error(
        "state file: \(failure); the daemon's sessions will not survive a restart until a change is saved",
        metadata: ["path": "\(store.path)"])
    }
  }

  /// Updates the held sessions after a command: a session it created is the daemon's, a session
  /// it removed is forgotten (its owner's list too), and a changed configuration is saved.
  /// Returns why the change could not be saved, if it could not (the reply says so).
  func recordHeld(after command: Command, _ result: CommandResult) -> String? {
    switch command {
    case .input(.removeSession(let session)):
      if let owner = owners.removeValue(forKey: session) {
        connections[owner]?.sessions.removeAll { $0 == session }
      }
      if held.remove(session) { return save(.remove(session)) }
      return nil
    case .simulate(.serverRestart):
      // A reset puts every session back to the initial configuration; the saved configuration
      // is what `reconfigureHeld(after:)` applies again, so it is never overwritten here.
      return nil
    default:
      guard let session = result.session else { return nil }
      if result.createdSession, owners[session.name] == nil {
        held[session.name] = .initial
      }
      return recordHeld(session, force: result.createdSession)
    }
  }

  /// When `notifications` tell of a reset of the media services, configures the held sessions
  /// again, as their app would (issue 8: the daemon is the app of the sessions it holds for the
  /// command line): each gets its saved configuration back, inactive, and the state file is
  /// left as it is. Returns the notifications that caused, which the caller delivers.
  func reconfigureHeld(after notifications: [SessionNotification]) async
    -> [SessionNotification]
  {
    guard notifications.contains(where: { $0.event == .mediaServicesWereReset }) else {
      return []
    }
    var notifications: [SessionNotification] = []
    for entry in held.entries where entry.configuration != .initial {
      notifications += await applySaved(
        entry, failure: "keeps the initial configuration after the reset")
    }
    if !held.isEmpty {
      let sessions = "\(held.count) held session\(held.count == 1 ? "" : "s")"
      logger.notice(
        "configured \(sessions) again after the reset",
        metadata: ["sessions": Self.listed(held.names)])
    }
    return notifications
  }

  /// Sets a saved configuration on its session; a configuration the policy no longer accepts
  /// is logged (`session '…' <failure>: why`) and leaves the session as it is. Returns the
  /// notifications it caused.
  private func applySaved(
    _ entry: SessionStore.Entry, failure: String
  ) async -> [SessionNotification] {
    let configuration = entry.configuration
    let outcome = await coordinator.handle(
      .setCategory(
        session: entry.name, category: configuration.category, mode: configuration.mode,
        options: configuration.options, policy: configuration.policy))
    if let error = outcome.error {
      logger.warning(
        "session '\(entry.name)' \(failure): \(error.message)",
        metadata: ["session": "\(entry.name)"])
    }
    return outcome.notifications
  }

  /// Saves a held session's configuration if it changed (or `force`); returns why it could not
  /// be saved, if it could not.
  func recordHeld(_ session: SessionStatus, force: Bool = false) -> String? {
    guard let saved = held[session.name] else { return nil }
    let now = session.configuration
    guard force || now != saved else { return nil }
    held[session.name] = now
    return save(.set(SessionStore.Entry(name: session.name, configuration: now)))
  }

  /// Saves one change to the state file; nil, or why it could not be saved (logged as an error
  /// too).
  func save(_ change: SessionStore.Change) -> String? {
    guard let store else { return nil }
    let held = self.held
    guard let failure = store.record(change, all: { held.entries }) else { return nil }
    // Logged once, at start-up.
    if store.isFrozen { return failure }
    logger.error(
      "state file: \(failure); the daemon's sessions will not survive a restart until a change is saved",
      metadata: ["path": "\(store.path)"])
    return failure
  }

  /// Session names as log metadata: the first 100 (a daemon may hold 10,000).
  static func listed(_ names: [String]) -> Logger.MetadataValue {
    .array(names.prefix(100).map { .string($0) } + (names.count > 100 ? ["…"] : []))
  }

  /// What `status` says about the state file (nil when the daemon keeps none).
  func stateFileStatus() -> StateFileStatus? {
    guard let store else { return nil }
    return StateFileStatus(path: store.path, problems: store.problems)
  }

  /// The sentence a reply carries (`notSaved`) for a change that could not be saved.
  static func notSavedText(_ failure: String) -> String {
    "the change was made, but not saved in the state file (\(failure)); it will not survive a "
      + "restart of the daemon"
  }
}
