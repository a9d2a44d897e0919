import AudioSessionCore
import AudioSessionSystem
import Logging

/// Other programs' media players (docs/mpris.md): the daemon learns them from its
/// ``MediaPlayerControl``, decides with a ``PlayerArbiter`` which to pause and play as it
/// delivers the notifications of app and `run` sessions, and sends the commands.
extension DaemonCore {
  /// Starts watching the media players (the daemon does it once it listens, so that a daemon
  /// that cannot start says nothing about them).
  public nonisolated func startPlayers() {
    players?.start()
  }

  /// Learns the media players on the session bus as they come, change and go.
  nonisolated func followPlayers() {
    guard let players else { return }
    let core = self
    Task(executorPreference: executor) {
      for await event in players.events {
        await core.playersChanged(event)
      }
    }
  }

  func playersChanged(_ event: MediaPlayerEvent) {
    arbiter.apply(event)
  }

  /// Where a session's players are looked for: the processes of its streams and their
  /// ancestors, and their Flatpak app ids; nil for sessions whose players the daemon leaves
  /// alone (a library client's app is told, and pauses itself).
  func playerOwner(of session: String) -> PlayerOwner? {
    guard streams.appSessions[session] != nil || streams.followedSessions.contains(session)
    else { return nil }
    let programs = streams.programs(of: session)
    var processes: Set<Int32> = []
    for pid in programs.processes { processes.formUnion(ProcessAncestry.lineage(of: pid)) }
    return PlayerOwner(processes: processes, appIDs: programs.appIDs)
  }

  /// The player commands a batch of notifications calls for, sent at once; returned as the
  /// sessions' `player` events, each with the notification that caused it, to be delivered
  /// after the notifications that caused them.
  func playerCommands(
    for notifications: [SessionNotification]
  ) -> [(SessionNotification, cause: SessionNotification)] {
    guard let players, !arbiter.players.isEmpty else { return [] }
    var owners: [String: PlayerOwner] = [:]
    for notification in notifications where owners[notification.session] == nil {
      switch notification.event {
      case .interruptionBegan, .interruptionEnded, .pause:
        owners[notification.session] = playerOwner(of: notification.session)
      default: continue
      }
    }
    guard !owners.isEmpty else { return [] }
    var commands: [(SessionNotification, cause: SessionNotification)] = []
    for notification in notifications where owners[notification.session] != nil {
      for command in arbiter.decide([notification], owners: owners) {
        commands.append((command, notification))
      }
    }
    for (command, _) in commands {
      guard case .player(let action) = command.event else { continue }
      players.send(action.command, to: action.player)
      logger.info(
        "sent \(action.command.method) to \(action.player)",
        metadata: ["session": "\(command.session)", "cause": "\(action.cause.name)"])
    }
    return commands
  }
}
