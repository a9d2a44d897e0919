import AudioSession
import AudioSessionArbiter
import AudioSessionTestSupport

/// A desktop acted out on the arbiter alone (docs/arbiter.md): other programs' streams, their
/// MPRIS players, the server's own events, a daemon's start with its journal, each a fact; what
/// the arbiter decides is kept (the commands sent to players, the notifications).
struct Desktop {
  var arbiter: Arbiter
  /// The commands sent to players, in order.
  var sent: [(command: PlayerAction.Command, bus: String)] = []
  /// Every notification the engine posted, in order.
  var notifications: [SessionNotification] = []
  /// The journal of paused players as last written.
  var journal: Set<PausedPlayer> = []
  /// The holds the arbiter asked to time, in order (``passTime()`` ends them).
  var holds: [AppHold] = []

  /// A daemon that watches players and keeps a state file, on a backend that reports streams;
  /// `paused`: the players a previous daemon left paused.
  static func start(paused: Set<PausedPlayer> = []) async throws -> Desktop {
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
    // The journal on disk is what it was until the arbiter writes it again.
    desktop.journal = paused
    desktop.feed(.started(ArbiterStart(pausedPlayers: .success(paused))))
    return desktop
  }

  @discardableResult
  mutating func feed(_ event: ArbiterEvent) -> [ArbiterEffect] {
    let effects = arbiter.handle(event)
    for effect in effects {
      switch effect {
      case .player(let command, let bus): sent.append((command, bus))
      case .apply(let posted, _): notifications += posted
      case .keepPausedPlayers(let entries): journal = entries
      case .timeHold(let hold): holds.append(hold)
      default: continue
      }
    }
    return effects
  }

  /// Time passes, longer than any hold: each ends, shortest first (those of one length in the
  /// order they began), as the daemon's timers would.
  mutating func passTime() {
    while !holds.isEmpty {
      let next = holds.indices.min { holds[$0].milliseconds < holds[$1].milliseconds }!
      feed(.holdEnded(holds.remove(at: next)))
    }
  }

  /// A program's stream: its index, process and group, binary, name and role.
  static func stream(
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
  mutating func play(_ stream: ServerStream, group: Int32? = nil) {
    let pid = Int32(stream.properties["application.process.id"] ?? "") ?? 0
    feed(.streams(.updated(stream), processes: [pid: ProcessFacts(group: group, lineage: [pid])]))
  }

  mutating func remove(_ stream: ServerStream) { feed(.streams(.removed(stream.key))) }

  /// A player's status, as the bus reports it.
  mutating func player(_ bus: String, pid: Int32, _ status: PlaybackStatus) {
    feed(.players(.updated(MediaPlayer(bus: bus, pid: pid, status: status))))
  }

  func session(_ name: String) -> SessionStatus? { arbiter.engine.session(named: name) }

  var callActive: Bool { arbiter.engine.status(withSessions: false).callActive }

  /// The names of the app sessions.
  var appSessions: Set<String> { Set(arbiter.streams.appSessions.keys) }

  /// The interruptions a session was told of, by cause.
  func interruptions(of session: String) -> [Cause] {
    notifications.compactMap {
      guard $0.session == session, case .interruptionBegan(_, let cause) = $0.event else {
        return nil
      }
      return cause
    }
  }
}
