// Other programs' media players, as steps: the user's commands, the players' own word, and
// the daemon's commands they obey (docs/contract.md "Recording what the daemon saw").
import AudioSession

extension DesktopRecorder {
  mutating func players(_ event: MediaPlayerEvent) {
    switch event {
    case .snapshot(let all):
      let before = livePlayers
      livePlayers = Dictionary(all.map { ($0.bus, $0) }, uniquingKeysWith: { _, last in last })
      if !seenPlayersSnapshot {
        seenPlayersSnapshot = true
        if starting, !seenStreamsSnapshot { baseline.busFirst = true }
      }
      for bus in Set(before.keys).union(livePlayers.keys).sorted() {
        playerChanged(bus, from: before[bus])
      }
    case .updated(let player):
      let before = livePlayers[player.bus]
      livePlayers[player.bus] = player
      playerChanged(player.bus, from: before)
    case .removed(let bus):
      let before = livePlayers.removeValue(forKey: bus)
      playerChanged(bus, from: before)
    case .commanded(let bus, let command):
      // The user's word, which the replay acts out whole: the command, then the player's
      // status, then its streams as it plays or pauses.
      leftPaused.remove(bus)
      guard let key = program(withPlayer: bus), let program = programs[key] else { return }
      emit(
        .command(session: nil, words: ["simulate", "user", name(of: program), command.rawValue]))
      obey(command, bus: bus)
    }
  }

  /// A player the daemon commanded obeys in the replay as it does here (the scenario's players
  /// do what real ones do): what it then says, and what its streams do, is no step.
  mutating func obey(_ command: PlayerAction.Command, bus: String) {
    guard let key = program(withPlayer: bus), var program = programs[key],
      let status = program.status
    else { return }
    if command == .pause, status != .playing { return }
    if command == .play { inferNeverCorks(&program) }
    program.status = command == .play ? .playing : .paused
    program.playing = command == .play
    program.obeying = true
    programs[key] = program
    change(.program(incarnation: program.incarnation, state(of: program)))
  }

  /// A player came, changed or went.
  mutating func playerChanged(_ bus: String, from before: MediaPlayer?) {
    guard let player = livePlayers[bus] else {
      guard let key = program(withPlayer: bus) else { return }
      // Gone with its streams closed: the program quit.
      if programs[key]?.closed == true { stop(key) } else { programs[key]?.playerGone = true }
      return
    }
    if let key = program(withPlayer: bus), programs[key]?.playerGone == true {
      programs[key]?.playerGone = false
    }
    if program(withPlayer: bus) == nil, !attach(player) { return }
    guard let key = program(withPlayer: bus), let program = programs[key],
      let status = program.status
    else { return }
    let live: PlaybackStatus = player.status == .playing ? .playing : .paused
    if program.obeying {
      if live == status { programs[key]?.obeying = false }
      return
    }
    let previous = before.map { $0.status == .playing ? PlaybackStatus.playing : .paused }
    // Only a change of what the player says is news: the replay's player already obeyed the
    // daemon, and says what this one says once it has.
    guard previous != live || before == nil, live != status else { return }
    act(key, live == .playing ? .play : .pause)
  }

  /// Gives a running program without a player the player its processes own; false when none
  /// runs.
  mutating func attach(_ player: MediaPlayer) -> Bool {
    for key in programs.keys.sorted() {
      guard var program = programs[key], program.status == nil,
        var incarnation = incarnations[program.incarnation]
      else { continue }
      let lineage = processFacts[incarnation.pid]?.lineage ?? [incarnation.pid]
      let appID = incarnation.properties["pipewire.access.portal.app_id"]
      guard
        player.pid.map(lineage.contains) == true
          || (appID != nil && player.desktopEntry == appID)
      else { continue }
      incarnation.player = player.bus
      incarnations[program.incarnation] = incarnation
      // Its start now gives it the player, as it was then: playing unless it was paused.
      program.status = program.playing ? .playing : .paused
      programs[key] = program
      return true
    }
    return false
  }

  func attachablePlayer(for pid: Int32, appID: String?) -> String? {
    let lineage = processFacts[pid]?.lineage ?? [pid]
    let taken = Set(programs.values.compactMap { incarnations[$0.incarnation]?.player })
    return livePlayers.values.sorted { $0.bus < $1.bus }.first { player in
      !taken.contains(player.bus)
        && (player.pid.map(lineage.contains) == true
          || (appID != nil && player.desktopEntry == appID))
    }?.bus
  }

  func program(withPlayer bus: String) -> ProgramKey? {
    programs.keys.sorted().first { key in
      programs[key].flatMap { incarnations[$0.incarnation]?.player } == bus
    }
  }
}
