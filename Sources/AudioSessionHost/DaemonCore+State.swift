// The sessions the daemon holds for the command line, and the state file that keeps them.

import AudioSessionCore
import Logging

extension DaemonCore {
  /// Recreates the saved sessions with their configuration (inactive, as after a restart of the
  /// media server); a session the policy no longer accepts keeps the initial configuration.
  func restore() async {
    guard let store else { return }
    let entries: [SessionStore.Entry]
    do {
      entries = try store.load()
    } catch {
      logger.error("\(error); starting with no sessions", metadata: ["path": "\(store.path)"])
      return
    }
    for entry in entries {
      if let error = await coordinator.handle(.createSession(entry.name)).error {
        logger.warning(
          "cannot restore session '\(entry.name)': \(error.message)",
          metadata: ["session": "\(entry.name)"])
        continue
      }
      if entry.configuration != .initial {
        _ = await applySaved(entry, failure: "keeps the initial configuration")
      }
      held.append(
        SessionStore.Entry(
          name: entry.name,
          configuration: await coordinator.session(named: entry.name)?.configuration ?? .initial))
    }
    if !entries.isEmpty {
      logger.notice(
        "restored \(held.count) session\(held.count == 1 ? "" : "s") from \(store.path)",
        metadata: ["path": "\(store.path)", "sessions": .array(held.map { .string($0.name) })])
    }
  }

  /// Updates the held sessions after a command: a session it created is the daemon's, a session
  /// it removed is forgotten (its owner's list too), and a changed configuration is saved.
  func recordHeld(after command: Command, existed: Bool) async {
    switch command {
    case .remove(let session):
      if let owner = owners.removeValue(forKey: session) {
        connections[owner]?.sessions.removeAll { $0 == session }
      }
      if let index = held.firstIndex(where: { $0.name == session }) {
        held.remove(at: index)
        save()
      }
    case .simulate(.serverRestart):
      // A reset puts every session back to the initial configuration; the saved configuration
      // is what `reconfigureHeld(after:)` applies again, so it is never overwritten here.
      return
    default:
      guard let session = command.session else { return }
      if !existed, owners[session] == nil, await exists(session) {
        held.append(SessionStore.Entry(name: session, configuration: .initial))
      }
      await recordHeld(session, force: !existed)
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
    for entry in held where entry.configuration != .initial {
      notifications += await applySaved(
        entry, failure: "keeps the initial configuration after the reset")
    }
    if !held.isEmpty {
      let sessions = "\(held.count) held session\(held.count == 1 ? "" : "s")"
      logger.notice(
        "configured \(sessions) again after the reset",
        metadata: ["sessions": .array(held.map { .string($0.name) })])
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

  /// Saves a held session's configuration if it changed (or `force`).
  func recordHeld(_ session: String, force: Bool = false) async {
    guard let index = held.firstIndex(where: { $0.name == session }) else { return }
    guard let now = await coordinator.session(named: session)?.configuration else { return }
    if force || now != held[index].configuration {
      held[index].configuration = now
      save()
    }
  }

  func save() {
    guard let store else { return }
    do {
      try store.save(held)
    } catch {
      logger.error(
        "\(error); the daemon's sessions will not survive a restart",
        metadata: ["path": "\(store.path)"])
    }
  }
}
