/// Media players other programs publish on the session bus (MPRIS, docs/mpris.md), as the daemon
/// sees them: a muted player keeps running, so a player whose session the system interrupts or
/// pauses is also paused, and played again when its interruption ends with shouldResume, if we
/// paused it.

/// `org.mpris.MediaPlayer2.Player.PlaybackStatus`.
public enum PlaybackStatus: String, Sendable, Hashable, CaseIterable {
  case playing = "Playing"
  case paused = "Paused"
  case stopped = "Stopped"
}

/// One MPRIS player: its bus name, the process that owns the name, the desktop entry it
/// announces (a Flatpak app's id), and its playback status.
public struct MediaPlayer: Sendable, Hashable {
  /// The well-known name, `org.mpris.MediaPlayer2.<player>[.<instance>]`.
  public var bus: String
  /// The process owning the name, from the bus (`GetConnectionUnixProcessID`); nil if unknown.
  public var pid: Int32?
  /// `org.mpris.MediaPlayer2.DesktopEntry`, if it has one.
  public var desktopEntry: String?
  public var status: PlaybackStatus

  public init(bus: String, pid: Int32?, desktopEntry: String? = nil, status: PlaybackStatus) {
    self.bus = bus
    self.pid = pid
    self.desktopEntry = desktopEntry
    self.status = status
  }
}

/// What the watcher of the session bus reports.
public enum MediaPlayerEvent: Sendable, Hashable {
  /// Every player there is (on connecting to the bus; empty when the bus is gone).
  case snapshot([MediaPlayer])
  /// A player appeared or its status changed.
  case updated(MediaPlayer)
  /// A player's name went (the player quit).
  case removed(bus: String)
  /// Someone else than the daemon told a player to pause or play (the user, through
  /// `playerctl`, a desktop's media keys or applet): the user's word, which the player's status
  /// cannot carry when it does not change (a pause pressed on a player the daemon paused).
  case commanded(bus: String, PlayerAction.Command)
}

/// Why the daemon sent a player a command.
public enum PlayerCause: Sendable, Hashable {
  /// Its session was interrupted (`interruption began` by the cause).
  case interruption(by: Cause)
  /// Its session was paused by the system (headphones unplugged).
  case pause(reason: RouteChangeReason)
  /// Its session's interruption ended with shouldResume, and we had paused it.
  case interruptionEnded(by: Cause)

  /// The transcript's `cause` value.
  public var name: String {
    switch self {
    case .interruption: "interruption"
    case .pause: "pause"
    case .interruptionEnded: "interruptionEnded"
    }
  }
}

/// A command the daemon sent a player over MPRIS, as the player's session's event.
public struct PlayerAction: Sendable, Hashable {
  /// `Pause` or `Play` (`org.mpris.MediaPlayer2.Player`).
  public enum Command: String, Sendable, Hashable, CaseIterable {
    case pause, play

    /// The MPRIS method's name.
    public var method: String { self == .pause ? "Pause" : "Play" }
  }

  public var command: Command
  /// The player's bus name.
  public var player: String
  public var cause: PlayerCause

  public init(_ command: Command, player: String, cause: PlayerCause) {
    self.command = command
    self.player = player
    self.cause = cause
  }
}

/// The processes and app ids a session's streams come from, to find its players.
public struct PlayerOwner: Sendable, Hashable {
  /// The streams' processes and their ancestors: a player owned by any of them is the session's
  /// (a browser plays from a child of the process that owns its MPRIS name).
  public var processes: Set<Int32>
  /// Flatpak app ids (`pipewire.access.portal.app_id`): a sandboxed player's name belongs to
  /// the D-Bus proxy's process, so it is matched by its desktop entry instead.
  public var appIDs: Set<String>

  public init(processes: Set<Int32> = [], appIDs: Set<String> = []) {
    self.processes = processes
    self.appIDs = appIDs
  }

  /// Whether a player belongs to these processes or app ids.
  public func owns(_ player: MediaPlayer) -> Bool {
    if let pid = player.pid, processes.contains(pid) { return true }
    if let entry = player.desktopEntry, appIDs.contains(entry) { return true }
    return false
  }
}

/// Decides which players to pause and play (docs/mpris.md "What the daemon does"). Pure: fed the
/// players the bus reports and the notifications the engine posts, it returns the commands to
/// send, and remembers which players it paused.
///
/// - `interruption began` or `pause` for a session → `Pause` for each of its players that is
///   `Playing`; those are remembered as paused by us. A player paused or stopped by the user is
///   left alone.
/// - `interruption ended` with shouldResume → `Play` for each of its players that we paused and
///   that is still `Paused`. Without shouldResume, nothing, and they are forgotten.
/// - A player that plays or stops on its own (the user), or quits, is forgotten.
public struct PlayerArbiter: Sendable {
  public private(set) var players: [String: MediaPlayer] = [:]
  /// The players we paused (bus name → their session), until they play again.
  public private(set) var pausedByUs: [String: String] = [:]
  /// Why we paused each of them.
  public private(set) var pauseCauses: [String: PlayerCause] = [:]
  /// When we paused each of them, as a count of the pauses we sent: the latest is the one the
  /// last interruption took the focus from (docs/mpris.md "A daemon that stops").
  public private(set) var pauseOrder: [String: Int] = [:]
  /// The order the next pause gets.
  public private(set) var nextPauseOrder = 1

  public init() {}

  /// Feeds what the bus reported.
  public mutating func apply(_ event: MediaPlayerEvent) {
    switch event {
    case .snapshot(let all):
      players = Dictionary(all.map { ($0.bus, $0) }, uniquingKeysWith: { _, last in last })
      pausedByUs = pausedByUs.filter { players[$0.key]?.status == .paused }
    case .updated(let player):
      players[player.bus] = player
      if player.status != .paused { pausedByUs[player.bus] = nil }
    case .removed(let bus):
      players[bus] = nil
      pausedByUs[bus] = nil
    case .commanded(let bus, _):
      // The user's: nothing we paused is ours to play any more.
      pausedByUs[bus] = nil
    }
    pauseCauses = pauseCauses.filter { pausedByUs[$0.key] != nil }
    pauseOrder = pauseOrder.filter { pausedByUs[$0.key] != nil }
  }

  /// Pauses from now on are ordered after `order` (that of a player a previous daemon paused).
  public mutating func orderPauses(after order: Int) {
    if order >= nextPauseOrder { nextPauseOrder = order == .max ? order : order + 1 }
  }

  /// The players we paused for an interruption (of `session`, or of any), forgotten here: the
  /// sessions they were paused for are gone (the server restarted, or the program closed its
  /// stream while paused), so no interruption will end for them; the host plays them again once
  /// nothing interrupts them, as it does those a previous daemon left paused (docs/mpris.md "A
  /// daemon that stops").
  public mutating func takeInterrupted(of session: String? = nil) -> [(
    player: MediaPlayer, order: Int
  )] {
    let buses = pausedByUs.keys.filter { bus in
      guard session == nil || pausedByUs[bus] == session else { return false }
      if case .interruption? = pauseCauses[bus] { return true }
      return false
    }
    let orders = buses.map { pauseOrder[$0] ?? 0 }
    for bus in buses {
      pausedByUs[bus] = nil
      pauseCauses[bus] = nil
      pauseOrder[bus] = nil
    }
    return zip(buses, orders).sorted { $0.0 < $1.0 }.compactMap { bus, order in
      players[bus].map { ($0, order) }
    }
  }

  /// The players of a session, by bus name.
  public func players(of owner: PlayerOwner) -> [MediaPlayer] {
    players.values.filter(owner.owns).sorted { $0.bus < $1.bus }
  }

  /// The commands the notifications call for, in order, each with its session. `owners` gives
  /// the processes of the sessions whose players the daemon controls (app and `run` sessions);
  /// other sessions' notifications are ignored.
  public mutating func decide(
    _ notifications: [SessionNotification], owners: [String: PlayerOwner]
  ) -> [SessionNotification] {
    var commands: [SessionNotification] = []
    for notification in notifications {
      let session = notification.session
      guard let owner = owners[session] else { continue }
      switch notification.event {
      case .interruptionBegan(_, let cause):
        commands += pause(session, owner, cause: .interruption(by: cause))
      case .pause(let reason):
        commands += pause(session, owner, cause: .pause(reason: reason))
      case .interruptionEnded(let options, let cause):
        let ours = players(of: owner).filter { pausedByUs[$0.bus] == session }
        for player in ours {
          pausedByUs[player.bus] = nil
          pauseCauses[player.bus] = nil
          pauseOrder[player.bus] = nil
          guard options.contains(.shouldResume), player.status == .paused else { continue }
          let action = PlayerAction(.play, player: player.bus, cause: .interruptionEnded(by: cause))
          commands.append(SessionNotification(session: session, event: .player(action)))
        }
      default:
        continue
      }
    }
    return commands
  }

  /// Forgets what we paused for a session that is gone.
  public mutating func forget(session: String) {
    pausedByUs = pausedByUs.filter { $0.value != session }
    pauseCauses = pauseCauses.filter { pausedByUs[$0.key] != nil }
  }

  private mutating func pause(
    _ session: String, _ owner: PlayerOwner, cause: PlayerCause
  ) -> [SessionNotification] {
    players(of: owner).filter { $0.status == .playing }.map { player in
      pausedByUs[player.bus] = session
      pauseCauses[player.bus] = cause
      pauseOrder[player.bus] = nextPauseOrder
      if nextPauseOrder < .max { nextPauseOrder += 1 }
      // Seen as paused from now on, so that a second interruption before the player's own
      // report sends nothing more.
      players[player.bus]?.status = .paused
      return SessionNotification(
        session: session, event: .player(PlayerAction(.pause, player: player.bus, cause: cause)))
    }
  }
}
