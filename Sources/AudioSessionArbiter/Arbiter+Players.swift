import AudioSession

/// Other programs' media players (docs/mpris.md): the arbiter learns them from the shell's
/// watcher of the session bus, decides with a ``PlayerArbiter`` which to pause and play as it
/// delivers the notifications of app and `run` sessions, and has the shell send the commands.
extension Arbiter {
  mutating func playersChanged(_ event: MediaPlayerEvent) {
    guard setup.watchesPlayers else { return }
    players.apply(event)
    switch event {
    case .snapshot: resumingLeft = resumingLeft.filter { players.players[$0]?.status == .paused }
    case .updated(let player): if player.status != .paused { resumingLeft.remove(player.bus) }
    case .removed(let bus), .commanded(let bus, _): resumingLeft.remove(bus)
    }
    if case .snapshot = event { playersKnown = true }
    if case .commanded(let bus, let command) = event {
      // The user's word on a player a previous daemon paused: not ours to play either.
      pendingResume = pendingResume.filter { $0.bus != bus }
      log(.info, "the user's \(command.method.lowercased()) of \(bus), seen on the bus")
    }
    keepPausedPlayers()
    resumeLeftPlayers()
    releaseBuffering()
    // An app is configured as a media player once its player is known (docs/apps.md Rules).
    let known = players.players.values
    let inputs = streams.setPlayers(
      processes: Set(known.compactMap(\.pid)),
      desktopEntries: Set(known.compactMap(\.desktopEntry)))
    if !inputs.isEmpty { applyStreamInputs(inputs) }
    if case .snapshot = event {
      // Found playing before the bus was read (a new daemon hears the server first): the
      // programs whose players all say they do not play stop, as on a pause the user pressed.
      for session in streams.appSessions.keys.sorted() where pausedByItsPlayers(session) {
        pausedByUser(session)
      }
    }
    // A player that starts playing makes its session's app the Now Playing app, as iOS makes the
    // app that last played with remote-command handlers: an MPRIS player is both (docs/mpris.md
    // "Now Playing").
    guard case .updated(let player) = event, let session = session(owning: player) else {
      return
    }
    guard player.status == .playing else {
      if players.pausedByUs[player.bus] == nil { pausedByUser(session) }
      return
    }
    playedAgain(session)
    makeNowPlaying(session, because: player)
  }

  /// A player the user paused or stopped while its program's streams play on (a browser keeps
  /// its stream uncorked, playing silence): its app stopped as surely as one that corks, so its
  /// session stops and deactivates with notifyOthersOnDeactivation, and the apps it interrupted
  /// resume (docs/arbiter.md "The user's word").
  mutating func pausedByUser(_ session: String) {
    guard streams.isPlaying(session), engine.isActive(session) == true else {
      return
    }
    log(
      .info, "\(session) stopped: its player was paused while its streams play on",
      ["session": "\(session)"])
    applyStreamInputs([
      .stopIO(session: session),
      .setActive(session: session, active: false, options: .notifyOthersOnDeactivation),
    ])
  }

  /// A player plays while its session is not active, its program's streams playing on (a
  /// browser keeps its stream uncorked while paused, so only its player tells): the user
  /// played it again, and its session starts again as a newly started app's would,
  /// interrupting the other media apps (docs/mpris.md "The user plays"). A call still refuses
  /// it, as on iOS.
  mutating func playedAgain(_ session: String) {
    guard streams.isPlaying(session), engine.isActive(session) == false else {
      return
    }
    log(
      .info, "\(session) plays again: its player plays while its streams never stopped",
      ["session": "\(session)"])
    applyStreamInputs([
      .setActive(session: session, active: true, options: []), .startIO(session: session),
    ])
  }

  /// A new app or `run` session whose player already plays (the player told the bus before the
  /// stream reached the server) is the Now Playing app too.
  mutating func claimNowPlaying(forNew sessions: [String]) {
    for session in sessions {
      guard let owner = playerOwner(of: session),
        let player = players.players(of: owner).first(where: { $0.status == .playing })
      else { continue }
      makeNowPlaying(session, because: player)
    }
  }

  private mutating func makeNowPlaying(_ session: String, because player: MediaPlayer) {
    guard engine.isNowPlaying(session) == false else { return }
    let result = run(.input(.setNowPlaying(session: session, true)), withSession: false)
    if result.error == nil {
      log(
        .info, "\(session) is the Now Playing app: its player \(player.bus) plays",
        ["session": "\(session)"])
    }
    deliver(result.notifications)
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
    for pid in programs.processes { processes.formUnion(streams.lineage(of: pid)) }
    processes.subtract(streams.clientProcesses.keys)
    return PlayerOwner(processes: processes, appIDs: programs.appIDs)
  }

  /// The player commands a batch of notifications calls for; returned as the sessions'
  /// `player` events, each with the notification that caused it, to be delivered after the
  /// notifications that caused them.
  mutating func playerCommands(
    for notifications: [SessionNotification]
  ) -> [(SessionNotification, cause: SessionNotification)] {
    guard setup.watchesPlayers, !players.players.isEmpty else { return [] }
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
      for command in players.decide([notification], owners: owners) {
        commands.append((command, notification))
      }
    }
    for (command, _) in commands {
      guard case .player(let action) = command.event else { continue }
      emit(.player(action.command, bus: action.player))
      log(
        .info, "sent \(action.command.method) to \(action.player)",
        ["session": "\(command.session)", "cause": "\(action.cause.name)"])
    }
    return commands
  }

  /// Keeps the players we paused, and those a previous daemon left, in the journal beside the
  /// state file (docs/mpris.md "A daemon that stops").
  mutating func keepPausedPlayers() {
    guard let written = journalWritten else { return }
    var entries = pendingResume
    for bus in players.pausedByUs.keys {
      entries.insert(
        PausedPlayer(
          bus: bus, pid: players.players[bus]?.pid, order: players.pauseOrder[bus] ?? 0))
    }
    guard entries != written else { return }
    journalWritten = entries
    emit(.keepPausedPlayers(entries))
  }

  /// Plays again the players a previous daemon paused for an interruption, once the focus is
  /// free: no call goes on, no active session but the player's own is non-mixable, no other
  /// player plays, and no player sent `Play` here has yet said it plays. The one paused last
  /// goes first, as the interruption that paused it took the focus from it: the ones paused
  /// before it were paused for it, and wait until it stops (docs/mpris.md "A daemon that
  /// stops"). A player that went, was taken over by another process, or that the user played
  /// or stopped meanwhile is forgotten.
  mutating func resumeLeftPlayers() {
    guard setup.watchesPlayers, playersKnown, streamsKnown, !pendingResume.isEmpty else { return }
    let status = engine.status()
    let latestFirst = pendingResume.sorted {
      $0.order != $1.order ? $0.order > $1.order : $0.bus < $1.bus
    }
    for entry in latestFirst {
      guard let player = players.players[entry.bus], player.status == .paused,
        entry.pid == nil || player.pid == entry.pid
      else {
        pendingResume.remove(entry)
        continue
      }
      let own = session(owning: player)
      let blocked =
        status.callActive || !resumingLeft.isEmpty
        || players.players.values.contains { $0.bus != entry.bus && $0.status == .playing }
        || status.sessions.contains {
          $0.active && $0.name != own && !policy.isMixable($0.configuration)
        }
      guard !blocked else { continue }
      pendingResume.remove(entry)
      resumingLeft.insert(entry.bus)
      emit(.player(.play, bus: entry.bus))
      log(
        .info,
        "sent Play to \(entry.bus): a previous daemon paused it for an interruption that is over",
        ["session": "\(own ?? "none")"])
    }
    keepPausedPlayers()
  }
}
