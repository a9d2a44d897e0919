import AudioSession
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

  func playersChanged(_ event: MediaPlayerEvent) async {
    arbiter.apply(event)
    if case .snapshot = event { playersKnown = true }
    keepPausedPlayers()
    await resumeLeftPlayers()
    // An app is configured as a media player once its player is known (docs/apps.md Rules).
    let players = arbiter.players.values
    let inputs = streams.setPlayers(
      processes: Set(players.compactMap(\.pid)),
      desktopEntries: Set(players.compactMap(\.desktopEntry)))
    if !inputs.isEmpty { await applyStreamInputs(inputs) }
    // A player that starts playing makes its session's app the Now Playing app, as iOS makes the
    // app that last played with remote-command handlers: an MPRIS player is both (docs/mpris.md
    // "Now Playing").
    guard case .updated(let player) = event, player.status == .playing,
      let session = session(owning: player)
    else { return }
    await makeNowPlaying(session, because: player)
  }

  /// A new app or `run` session whose player already plays (the player told the bus before the
  /// stream reached the server) is the Now Playing app too.
  func claimNowPlaying(forNew sessions: [String]) async {
    for session in sessions {
      guard let owner = playerOwner(of: session),
        let player = arbiter.players(of: owner).first(where: { $0.status == .playing })
      else { continue }
      await makeNowPlaying(session, because: player)
    }
  }

  private func makeNowPlaying(_ session: String, because player: MediaPlayer) async {
    await onEngine {
      guard await coordinator.session(named: session)?.nowPlaying == false else { return }
      let result = await coordinator.run(.input(.setNowPlaying(session: session, true)))
      if result.error == nil {
        logger.info(
          "\(session) is the Now Playing app: its player \(player.bus) plays",
          metadata: ["session": "\(session)"])
      }
      deliver(result.notifications)
    }
  }

  /// The app or `run` session whose program owns a player, if any.
  func session(owning player: MediaPlayer) -> String? {
    let sessions = Array(streams.appSessions.keys) + Array(streams.followedSessions)
    return sessions.sorted().first { playerOwner(of: $0)?.owns(player) == true }
  }

  /// Where a session's players are looked for: the processes of its streams and their
  /// ancestors, and their Flatpak app ids; nil for sessions whose players the daemon leaves
  /// alone (a library client's app is told, and pauses itself).
  ///
  /// A library client's process is never among them, even as the parent of a program that
  /// plays for it: the player it owns is its app's own (`import MediaPlayer` serves one,
  /// docs/ios-compat.md "MediaPlayer over MPRIS"), and that app is told of the interruption and
  /// pauses itself; a `Pause` from the daemon too would be a second one (docs/mpris.md "What the
  /// daemon does").
  func playerOwner(of session: String) -> PlayerOwner? {
    guard streams.appSessions[session] != nil || streams.followedSessions.contains(session)
    else { return nil }
    let programs = streams.programs(of: session)
    var processes: Set<Int32> = []
    for pid in programs.processes { processes.formUnion(ProcessAncestry.lineage(of: pid)) }
    processes.subtract(streams.clientProcesses.keys)
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

  /// Keeps the players we paused, and those a previous daemon left, in the journal beside the
  /// state file (docs/mpris.md "A daemon that stops").
  func keepPausedPlayers() {
    guard var journal = pausedPlayers else { return }
    var entries = pendingResume
    for bus in arbiter.pausedByUs.keys {
      entries.insert(.init(bus: bus, pid: arbiter.players[bus]?.pid))
    }
    do throws(SafeFile.Failure) {
      try journal.store(entries)
    } catch {
      logger.warning("cannot keep the players we paused for the next daemon: \(error)")
    }
    pausedPlayers = journal
  }

  /// Plays again the players a previous daemon paused for an interruption, once the focus is
  /// free: no call goes on and no active session but the player's own is non-mixable. A player
  /// that went, was taken over by another process, or that the user played or stopped meanwhile
  /// is forgotten.
  func resumeLeftPlayers() async {
    guard let players, playersKnown, !pendingResume.isEmpty else { return }
    let status = await onEngine { await coordinator.status() }
    for entry in pendingResume.sorted() {
      guard let player = arbiter.players[entry.bus], player.status == .paused,
        entry.pid == nil || player.pid == entry.pid
      else {
        pendingResume.remove(entry)
        continue
      }
      let own = session(owning: player)
      let blocked =
        status.callActive
        || status.sessions.contains {
          $0.active && $0.name != own && !policy.isMixable($0.configuration)
        }
      guard !blocked else { continue }
      pendingResume.remove(entry)
      players.send(.play, to: entry.bus)
      logger.info(
        "sent Play to \(entry.bus): a previous daemon paused it for an interruption that is over",
        metadata: ["session": "\(own ?? "none")"])
    }
    keepPausedPlayers()
  }
}
