// Desktop histories through the arbiter (docs/arbiter.md): other programs' streams starting
// and pausing and their players' status, as the daemon's loop feeds them, against the path
// that fed them before the arbiter (the app-stream tracker, the engine and the player arbiter
// driven one by one, as the daemon's core did).
import AudioSession
import AudioSessionArbiter

struct DesktopRow {
  var path: String
  var events: Int
  var seconds: Double
  var eventsPerSecond: Double { Double(events) / seconds }
}

enum DesktopBench {
  static let programs = 10

  static func stream(_ i: Int, corked: Bool) -> ServerStream {
    ServerStream(
      key: .init(.playback, UInt32(i + 1)),
      properties: [
        "application.process.id": "\(1000 + i)", "application.process.binary": "player\(i)",
        "media.role": i % 3 == 0 ? "music" : "event",
      ], clientIndex: UInt32(i + 1), isCorked: corked)
  }

  static func player(_ i: Int, _ status: PlaybackStatus) -> MediaPlayer {
    MediaPlayer(bus: "org.mpris.MediaPlayer2.player\(i)", pid: Int32(1000 + i), status: status)
  }

  /// One round: each program pauses (its player first, then its stream corks) and plays again.
  static func round(_ r: Int) -> [(ServerStreamEvent?, MediaPlayerEvent?)] {
    let i = r % programs
    return [
      (nil, .updated(player(i, .paused))), (.updated(stream(i, corked: true)), nil),
      (nil, .updated(player(i, .playing))), (.updated(stream(i, corked: false)), nil),
    ]
  }

  static func viaArbiter(policy: Policy, devices: [Device], budget: Int) -> DesktopRow {
    var arbiter = Arbiter(
      policy: policy, devices: devices,
      setup: .init(
        identity: .init(pid: 1, profile: policy.profile.name), backendName: "pulse",
        watchesPlayers: true))
    _ = arbiter.handle(.started(ArbiterStart()))
    _ = arbiter.handle(.players(.snapshot((0..<programs).map { player($0, .playing) })))
    for i in 0..<programs {
      _ = arbiter.handle(
        .streams(
          .updated(stream(i, corked: false)),
          processes: [Int32(1000 + i): ProcessFacts(lineage: [Int32(1000 + i)])]))
    }
    return measure("arbiter", budget) { r in
      var count = 0
      for (streamEvent, playerEvent) in round(r) {
        if let streamEvent { count += arbiter.handle(.streams(streamEvent)).count }
        if let playerEvent { count += arbiter.handle(.players(playerEvent)).count }
      }
      return count
    }
  }

  /// What the daemon's core did per event before the arbiter, without its actors: the tracker,
  /// the engine (explaining, as the daemon's does), each decision's reason, the status handed to
  /// the backend, the player arbiter.
  static func viaParts(policy: Policy, devices: [Device], budget: Int) -> DesktopRow {
    var engine = Engine(policy: policy, devices: devices)
    engine.explaining = true
    let profile = policy.profile.name
    var tracker = AppStreamTracker(rules: policy.table.apps)
    var players = PlayerArbiter()
    players.apply(.snapshot((0..<programs).map { player($0, .playing) }))
    func feed(_ inputs: [EngineInput]) -> Int {
      var notifications: [SessionNotification] = []
      var reasons: [Because] = []
      for input in inputs {
        let outcome = engine.handle(input)
        notifications += outcome.notifications
        reasons += outcome.sources.map {
          Because(source: $0, profile: profile, trigger: input.triggerText)
        }
      }
      let status = engine.status()
      var owners: [String: PlayerOwner] = [:]
      for notification in notifications {
        let programs = tracker.programs(of: notification.session)
        owners[notification.session] = PlayerOwner(processes: programs.processes)
      }
      return players.decide(notifications, owners: owners).count + status.sessions.count
        + reasons.count
    }
    for i in 0..<programs { _ = feed(tracker.apply(.updated(stream(i, corked: false)))) }
    return measure("tracker+engine", budget) { r in
      var count = 0
      for (streamEvent, playerEvent) in round(r) {
        if let streamEvent { count += feed(tracker.apply(streamEvent)) }
        if let playerEvent {
          players.apply(playerEvent)
          count += feed(
            tracker.setPlayers(
              processes: Set(players.players.values.compactMap(\.pid)), desktopEntries: []))
        }
      }
      return count
    }
  }

  static func measure(_ path: String, _ budget: Int, _ body: (Int) -> Int) -> DesktopRow {
    var events = 0
    var round = 0
    var sink = 0
    let clock = ContinuousClock()
    let elapsed = clock.measure {
      while events < budget {
        sink &+= body(round)
        events += 4
        round += 1
      }
    }
    if sink == -1 { print(sink) }
    let seconds =
      Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    return DesktopRow(path: path, events: events, seconds: seconds)
  }
}
