public import AudioSession
import AudioSessionMPRISPlayer
import AudioSessionSystem
import CSDBus
public import Logging
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// The MPRIS media players on the session bus (docs/mpris.md): found with `ListNames` and
/// `NameOwnerChanged` on `org.mpris.MediaPlayer2.*`, their owners' processes from the bus
/// (`GetConnectionUnixProcessID`), their `PlaybackStatus` followed through `PropertiesChanged`;
/// and `Pause`/`Play` sent to them.
///
/// Nothing happens before ``start()``. One thread owns the connection (sd-bus is not thread-safe): it waits on the connection and
/// on a pipe that ``send(_:to:)`` and ``stop()`` write to. Without a session bus it does
/// nothing, and says so once; a bus that goes is looked for again (50 ms, doubling up to 2 s),
/// and its players are reported gone meanwhile.
public final class MPRISPlayers: MediaPlayerControl, @unchecked Sendable {
  public let events: AsyncStream<MediaPlayerEvent>
  private let continuation: AsyncStream<MediaPlayerEvent>.Continuation
  /// The bus address, `unix:path=…`; nil: no session bus.
  public let address: String?
  private let logger: Logger

  /// Shared with other threads.
  private struct Shared {
    var commands: [(PlayerAction.Command, String)] = []
    var stopping = false
    var started = false
  }
  private let shared = Mutex(Shared())
  private let wakePipe = WakePipe()

  // The bus thread's own.
  private var connection: DBusConnection?
  /// A second connection, a monitor of the calls to players' `Play`, `Pause`, `PlayPause` and
  /// `Stop`: the user's commands (playerctl, a desktop's media keys), told apart from ours by
  /// their sender. Nil where the bus refuses monitors: the user's commands are then seen only
  /// as the status they change (docs/mpris.md "The user's word").
  private var monitor: DBusConnection?
  private var players: [String: MediaPlayer] = [:]
  /// Each player's unique connection name (`PropertiesChanged` comes from it).
  private var uniqueNames: [String: String] = [:]
  /// Names to look up once the messages at hand are processed.
  private var pendingNames: Set<String> = []
  /// Players that answered a command of ours: their `PlaybackStatus` is read again, so that the
  /// daemon's view follows the player's own even when the player reports no change (a Pause
  /// and the user's Play in quick succession may reach the bus as no change at all).
  /// Read half a second after the reply (microseconds of `CLOCK_MONOTONIC`): some players answer
  /// before they have paused (WirePlumber's mpris-pause waits for the same reason).
  private var recheckNames: [String: UInt64] = [:]
  static let recheckDelay: UInt64 = 500_000

  static let prefix = "org.mpris.MediaPlayer2."
  static let objectPath = "/org/mpris/MediaPlayer2"
  static let playerInterface = "org.mpris.MediaPlayer2.Player"
  /// How long a player may take to answer a question (its status, its desktop entry).
  static let callTimeout: Duration = .seconds(1)

  /// The session bus of an environment: `DBUS_SESSION_BUS_ADDRESS`, else the socket
  /// `$XDG_RUNTIME_DIR/bus` if there is one (as sd-bus and libdbus look for it); nil if neither.
  public static func sessionBusAddress(environment: [String: String]) -> String? {
    mprisSessionBusAddress(environment: environment)
  }

  /// Watches the bus at `address` (nil: there is none) once ``start()`` is called.
  public init(address: String?, logger: Logger) {
    (events, continuation) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
    self.address = address
    self.logger = logger
  }

  /// Starts the bus thread; without a bus, logs once that players are not paused.
  public func start() {
    let first = shared.withLock { shared in
      defer { shared.started = true }
      return !shared.started && !shared.stopping
    }
    guard first else { return }
    guard let address else {
      logger.info(
        """
        no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is unset and there is no \
        $XDG_RUNTIME_DIR/bus): media players are muted, not paused (docs/mpris.md)
        """)
      continuation.finish()
      return
    }
    SystemThread.detach(name: "audiosession-mpris") { [self] in run(address: address) }
  }

  public func send(_ command: PlayerAction.Command, to player: String) {
    shared.withLock { $0.commands.append((command, player)) }
    wake()
  }

  public func stop() {
    let running = shared.withLock { shared in
      shared.stopping = true
      return shared.started
    }
    if running { wake() } else { continuation.finish() }
  }

  private func wake() { wakePipe.wake() }

  private var isStopping: Bool { shared.withLock { $0.stopping } }

  // MARK: The bus thread

  private func run(address: String) {
    var backoff = ReconnectBackoff(first: .milliseconds(50), longest: .seconds(2))
    var failures = 0
    while !isStopping {
      do throws(DBusError) {
        try connect(address)
        logger.info("watching media players on the session bus \(address) (docs/mpris.md)")
        backoff = ReconnectBackoff(first: .milliseconds(50), longest: .seconds(2))
        failures = 0
        try serve()
      } catch {
        if connection != nil {
          logger.warning(
            "lost the session bus (\(error)); media players are muted, not paused, until it is back"
          )
          continuation.yield(.snapshot([]))
        } else if failures == 0 {
          logger.warning(
            """
            cannot reach the session bus \(address) (\(error)); media players are muted, not \
            paused, until it answers; trying again
            """)
        }
        failures += 1
        forget()
        waitForWake(timeout: backoff.nextDelay())
      }
    }
    forget()
    continuation.finish()
  }

  private func forget() {
    connection = nil
    monitor = nil
    players = [:]
    uniqueNames = [:]
    pendingNames = []
    recheckNames = [:]
    // Commands for players on a bus that went are dropped.
    shared.withLock { $0.commands = [] }
  }

  private func connect(_ address: String) throws(DBusError) {
    let bus = try DBusConnection(address: address)
    let userdata = Unmanaged.passUnretained(self).toOpaque()
    try bus.addMatch(
      "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',"
        + "member='NameOwnerChanged',arg0namespace='org.mpris.MediaPlayer2'",
      handler: mprisHandler, userdata: userdata)
    try bus.addMatch(
      "type='signal',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged',"
        + "path='\(Self.objectPath)',arg0='\(Self.playerInterface)'",
      handler: mprisHandler, userdata: userdata)
    connection = bus
    watchCommands(address)
    let names = try bus.call(
      try Self.busDaemonCall(bus, "ListNames"), timeout: Self.callTimeout
    ).readStrings()
    for name in names.sorted() where name.hasPrefix(Self.prefix) {
      if let player = lookUp(name, on: bus) { players[name] = player }
    }
    continuation.yield(.snapshot(players.values.sorted { $0.bus < $1.bus }))
  }

  /// Opens the monitor of the players' commands; a bus that refuses it is logged once.
  private func watchCommands(_ address: String) {
    let rules = ["Play", "Pause", "PlayPause", "Stop"].map {
      "type='method_call',interface='\(Self.playerInterface)',member='\($0)'"
    }
    do throws(DBusError) {
      let watcher = try DBusConnection(address: address, monitor: true)
      try watcher.becomeMonitor(
        rules, timeout: Self.callTimeout, handler: mprisCommandHandler,
        userdata: Unmanaged.passUnretained(self).toOpaque())
      monitor = watcher
    } catch {
      logger.info(
        """
        cannot monitor the players' commands on the session bus (\(error)): the user's pause \
        of a paused player is not seen (docs/mpris.md)
        """)
    }
  }

  /// A command to a player that the monitor saw: the user's, unless it is one of ours.
  fileprivate func commandSeen(_ message: DBusMessage) {
    guard message.isMethodCall, message.interface == Self.playerInterface,
      let target = message.destination, let member = message.member,
      message.sender != connection?.uniqueName
    else { return }
    let name =
      players[target] != nil ? target : uniqueNames.first { $0.value == target }?.key
    guard let name, let player = players[name] else { return }
    let command: PlayerAction.Command
    switch member {
    case "Play": command = .play
    case "Pause", "Stop": command = .pause
    case "PlayPause": command = player.status == .playing ? .pause : .play
    default: return
    }
    continuation.yield(.commanded(bus: name, command))
  }

  private func serve() throws(DBusError) {
    guard let bus = connection else { return }
    while !isStopping {
      sendCommands(on: bus)
      while try bus.process() {}
      if let monitor {
        do throws(DBusError) {
          while try monitor.process() {}
        } catch {
          logger.info("stopped monitoring the players' commands: \(error)")
          self.monitor = nil
        }
      }
      if !pendingNames.isEmpty {
        let names = pendingNames.sorted()
        pendingNames = []
        for name in names {
          if let player = lookUp(name, on: bus) {
            players[name] = player
            continuation.yield(.updated(player))
          }
        }
        continue
      }
      let now = Self.monotonicMicroseconds()
      let due = recheckNames.filter { $0.value <= now }.keys.sorted()
      if !due.isEmpty {
        for name in due {
          recheckNames[name] = nil
          recheck(name, on: bus)
        }
        continue
      }
      let state = try bus.pollState()
      var fds = [
        pollfd(fd: state.fd, events: state.events, revents: 0),
        pollfd(fd: wakePipe.readEnd, events: Int16(POLLIN), revents: 0),
      ]
      if let watching = try? monitor?.pollState() {
        fds.append(pollfd(fd: watching.fd, events: watching.events, revents: 0))
      }
      var timeout: Int32 = -1
      if let deadline = [state.deadline, recheckNames.values.min()].compactMap({ $0 }).min() {
        let nowMicros = Self.monotonicMicroseconds()
        timeout =
          deadline <= nowMicros ? 0 : Int32(min((deadline - nowMicros + 999) / 1000, 60_000))
      }
      _ = poll(&fds, nfds_t(fds.count), timeout)
      if fds[1].revents != 0 { drainWake() }
    }
  }

  private func sendCommands(on bus: DBusConnection) {
    let due = shared.withLock { shared in
      let due = shared.commands
      shared.commands = []
      return due
    }
    for (command, player) in due {
      do throws(DBusError) {
        let message = try bus.message(
          destination: player, path: Self.objectPath, interface: Self.playerInterface,
          member: command.method)
        try bus.callAsync(
          message, timeout: Self.callTimeout, handler: mprisHandler,
          userdata: Unmanaged.passUnretained(self).toOpaque())
      } catch {
        logger.warning("could not send \(command.method) to \(player): \(error)")
      }
    }
  }

  /// A player as the bus and the player itself describe it; nil if it went or does not answer.
  private func lookUp(_ name: String, on bus: DBusConnection) -> MediaPlayer? {
    do throws(DBusError) {
      let unique = try bus.call(
        try Self.busDaemonCall(bus, "GetNameOwner", name), timeout: Self.callTimeout
      ).readString()
      let pid = try? bus.call(
        try Self.busDaemonCall(bus, "GetConnectionUnixProcessID", name),
        timeout: Self.callTimeout
      ).readUInt32()
      let status = try property(Self.playerInterface, "PlaybackStatus", of: name, on: bus)
      let desktopEntry = try? property(
        "org.mpris.MediaPlayer2", "DesktopEntry", of: name, on: bus)
      uniqueNames[name] = unique
      return MediaPlayer(
        bus: name, pid: pid.flatMap { Int32(exactly: $0) }, desktopEntry: desktopEntry,
        status: status.flatMap(PlaybackStatus.init(rawValue:)) ?? .stopped)
    } catch {
      logger.debug("media player \(name) left out: \(error)")
      return nil
    }
  }

  /// Reads a player's `PlaybackStatus` again and reports it, changed or not: the daemon may
  /// have assumed a status the player never took (docs/mpris.md "The player's own state").
  private func recheck(_ name: String, on bus: DBusConnection) {
    guard var player = players[name] else { return }
    do throws(DBusError) {
      guard
        let text = try property(Self.playerInterface, "PlaybackStatus", of: name, on: bus),
        let status = PlaybackStatus(rawValue: text)
      else { return }
      player.status = status
      players[name] = player
      continuation.yield(.updated(player))
    } catch {
      logger.debug("media player \(name) did not say its status: \(error)")
    }
  }

  private func property(
    _ interface: String, _ name: String, of player: String, on bus: DBusConnection
  ) throws(DBusError) -> String? {
    let call = try bus.message(
      destination: player, path: Self.objectPath, interface: "org.freedesktop.DBus.Properties",
      member: "Get", strings: [interface, name])
    return try bus.call(call, timeout: Self.callTimeout).readStringVariant()
  }

  private static func busDaemonCall(
    _ bus: DBusConnection, _ member: String, _ strings: String...
  ) throws(DBusError) -> DBusMessage {
    try bus.message(
      destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
      interface: "org.freedesktop.DBus", member: member, strings: strings)
  }

  /// A signal the matches let through, or the reply to a command (on the bus thread, inside
  /// `process`): a command's error is logged; a reply without one needs nothing.
  fileprivate func received(_ message: DBusMessage) {
    if let error = message.error {
      logger.warning(
        "a media player (\(message.sender ?? "unknown")) refused a command: \(error)")
      return
    }
    do throws(DBusError) {
      switch message.member {
      case nil:
        // The reply to a command of ours: what the player now says is read again.
        let due = Self.monotonicMicroseconds() + Self.recheckDelay
        for (name, unique) in uniqueNames where unique == message.sender {
          recheckNames[name] = due
        }
      case "NameOwnerChanged":
        let name = try message.readString()
        _ = try message.readString()
        let newOwner = try message.readString()
        guard name.hasPrefix(Self.prefix) else { return }
        if newOwner.isEmpty {
          pendingNames.remove(name)
          uniqueNames[name] = nil
          if players.removeValue(forKey: name) != nil {
            continuation.yield(.removed(bus: name))
          }
        } else {
          pendingNames.insert(name)
        }
      case "PropertiesChanged":
        guard try message.readString() == Self.playerInterface,
          let text = try message.readStringProperties(["PlaybackStatus"])["PlaybackStatus"],
          let status = PlaybackStatus(rawValue: text), let sender = message.sender
        else { return }
        // Reported even when this view had the same status: the daemon's may differ (it takes a
        // player it paused as paused at once).
        for (name, unique) in uniqueNames.sorted(by: { $0.key < $1.key }) where unique == sender {
          guard var player = players[name] else { continue }
          player.status = status
          players[name] = player
          continuation.yield(.updated(player))
        }
      default:
        return
      }
    } catch {
      logger.debug("a malformed signal from the bus was ignored: \(error)")
    }
  }

  private static func monotonicMicroseconds() -> UInt64 {
    MonotonicInstant.now().nanoseconds / 1000
  }

  private func drainWake() { wakePipe.drain() }

  private func waitForWake(timeout: Duration) {
    var fds = [pollfd(fd: wakePipe.readEnd, events: Int16(POLLIN), revents: 0)]
    let milliseconds = Int32(DBusConnection.microseconds(timeout) / 1000)
    if poll(&fds, 1, milliseconds) > 0 { drainWake() }
  }
}

private func mprisHandler(
  _ message: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?,
  _ error: UnsafeMutablePointer<sd_bus_error>?
) -> Int32 {
  guard let message, let userdata else { return 0 }
  Unmanaged<MPRISPlayers>.fromOpaque(userdata).takeUnretainedValue()
    .received(DBusMessage(borrowing: message))
  return 0
}

private func mprisCommandHandler(
  _ message: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?,
  _ error: UnsafeMutablePointer<sd_bus_error>?
) -> Int32 {
  guard let message, let userdata else { return 0 }
  Unmanaged<MPRISPlayers>.fromOpaque(userdata).takeUnretainedValue()
    .commandSeen(DBusMessage(borrowing: message))
  // Handled, whatever it was: sd-bus goes no further with it (it would answer a call it sees
  // with an error, and a monitor that sends anything is disconnected).
  return 1
}
