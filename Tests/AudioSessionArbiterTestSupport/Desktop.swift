package import AudioSession
package import AudioSessionArbiter
import AudioSessionTestSupport

/// A desktop acted out on the arbiter alone (docs/arbiter.md): other programs' streams, their
/// MPRIS players, the server's own events, a daemon's start with its journal, each a fact; what
/// the arbiter decides is kept (the commands sent to players, the notifications).
package struct Desktop {
  package var arbiter: Arbiter
  /// The commands sent to players, in order.
  package var sent: [(command: PlayerAction.Command, bus: String)] = []
  /// Every notification the engine posted, in order.
  package var notifications: [SessionNotification] = []
  /// The journal of paused players as last written.
  package var journal: Set<PausedPlayer> = []
  /// The holds the arbiter asked to time, in order (``passTime()`` ends them).
  package var holds: [AppHold] = []
  /// Every command sent to a player, in order (``sent`` is emptied as the players obey).
  package var allSent: [(command: PlayerAction.Command, bus: String)] = []
  /// What the daemon saw, as a scenario's steps (docs/contract.md "Recording what the daemon
  /// saw"), when the desktop records; fed every fact at ``clock``.
  package var recorder: DesktopRecorder?
  /// The time, in milliseconds: only ``passTime()`` moves it, to the end of each hold.
  package var clock = 0

  /// A daemon that watches players and keeps a state file, on a backend that reports streams;
  /// `paused`: the players a previous daemon left paused; `recording`: with a recorder beside
  /// its arbiter, as the daemon's shell keeps one.
  package static func start(
    paused: Set<PausedPlayer> = [], recording: Bool = false,
    limit: Int = DesktopRecorder.defaultLimit
  ) async throws -> Desktop {
    let policy = try TestPolicies.policy()
    let catalog = policy.table.devices
    let devices = try await InMemoryAudioBackend().start(
      catalog: catalog, initialDevices: catalog.defaultDevices)
    var desktop = Desktop(
      arbiter: Arbiter(
        policy: policy, devices: devices,
        setup: .init(
          identity: .init(pid: 1, profile: policy.profile.name), backendName: "pulse",
          backendReportsStreams: true, keepsState: true, watchesPlayers: true)))
    if recording {
      desktop.recorder = DesktopRecorder(
        policy: policy, devices: devices, setup: desktop.arbiter.setup, limit: limit)
    }
    // The journal on disk is what it was until the arbiter writes it again.
    desktop.journal = paused
    desktop.feed(.started(ArbiterStart(pausedPlayers: .success(paused))))
    return desktop
  }

  @discardableResult
  package mutating func feed(_ event: ArbiterEvent) -> [ArbiterEffect] {
    let effects = arbiter.handle(event)
    recorder?.record(event, effects: effects, at: clock)
    for effect in effects {
      switch effect {
      case .player(let command, let bus):
        sent.append((command, bus))
        allSent.append((command, bus))
      case .apply(let posted, _): notifications += posted
      case .keepPausedPlayers(let entries): journal = entries
      case .timeHold(let hold): holds.append(hold)
      default: continue
      }
    }
    return effects
  }

  /// Time passes, longer than any hold: each ends, shortest first (those of one length in the
  /// order they began), as the daemon's timers would; the clock moves to each end. (Every hold
  /// waiting began at the same time: the clock moves nowhere else.)
  package mutating func passTime() {
    let start = clock
    while !holds.isEmpty {
      let next = holds.indices.min { holds[$0].milliseconds < holds[$1].milliseconds }!
      let hold = holds.remove(at: next)
      clock = max(clock, start + hold.milliseconds)
      feed(.holdEnded(hold))
    }
  }

  /// A program's stream: its index, process and group, binary, name and role.
  package static func stream(
    _ index: UInt32, pid: Int32, binary: String, name: String? = nil, role: String? = nil,
    record: Bool = false, corked: Bool = false
  ) -> ServerStream {
    var properties = [
      "application.process.id": "\(pid)", "application.process.binary": binary,
    ]
    properties["application.name"] = name
    properties["media.role"] = role
    return ServerStream(
      key: .init(record ? .record : .playback, index), properties: properties,
      clientIndex: UInt32(pid), isCorked: corked)
  }

  /// A stream appears or changes, from a process of `group` (its own when nil).
  package mutating func play(_ stream: ServerStream, group: Int32? = nil) {
    let pid = Int32(stream.properties["application.process.id"] ?? "") ?? 0
    feed(.streams(.updated(stream), processes: [pid: ProcessFacts(group: group, lineage: [pid])]))
  }

  package mutating func remove(_ stream: ServerStream) { feed(.streams(.removed(stream.key))) }

  /// A player's status, as the bus reports it.
  package mutating func player(_ bus: String, pid: Int32, _ status: PlaybackStatus) {
    feed(.players(.updated(MediaPlayer(bus: bus, pid: pid, status: status))))
  }

  package func session(_ name: String) -> SessionStatus? { arbiter.engine.session(named: name) }

  package var callActive: Bool { arbiter.engine.status(withSessions: false).callActive }

  /// The names of the app sessions.
  package var appSessions: Set<String> { Set(arbiter.streams.appSessions.keys) }

  /// The interruptions a session was told of, by cause.
  package func interruptions(of session: String) -> [Cause] {
    notifications.compactMap {
      guard $0.session == session, case .interruptionBegan(_, let cause) = $0.event else {
        return nil
      }
      return cause
    }
  }
}
