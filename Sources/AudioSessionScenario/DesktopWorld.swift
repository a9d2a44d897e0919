/// The other programs of a scenario's desktop, as a value (docs/contract.md "Desktop steps"):
/// which run, what each plays, what its player says; each act turned into the facts the daemon
/// would see (``ArbiterEvent``: streams, players), and the players obeying the commands the
/// daemon sends them, as real ones do (`Tests/AudioSessionTests/Arbiter/Desktop.swift` is the
/// same cast in Swift).
import AudioSession
import AudioSessionArbiter

struct DesktopWorld: Sendable {
  /// One program that runs.
  struct Running: Sendable {
    var program: DesktopAct.Program
    var pid: Int32
    /// The server's index of its streams (a playback one, and a record one if it records).
    var index: UInt32
    /// Whether it plays (its own state: a paused program plays nothing, corked or not).
    var playing = true
    /// Its player's status, if it has a player.
    var status: PlaybackStatus?
    /// Whether its streams are open (`simulate program NAME close` closes them, its player
    /// staying).
    var open = true

    var playbackKey: ServerStream.Key { .init(.playback, index) }

    /// Its streams as the server shows them: corked while paused, unless it never corks.
    var streams: [ServerStream] {
      var properties = program.properties
      properties["application.process.id"] = "\(pid)"
      properties["application.process.binary"] = program.binary
      properties["application.name"] = program.appName
      properties["media.role"] = program.role
      let corked = !playing && !program.neverCorks
      let directions: [ServerStream.Direction] =
        program.records ? [.playback, .record] : [.playback]
      return directions.map {
        ServerStream(
          key: .init($0, index), properties: properties, clientIndex: UInt32(bitPattern: pid),
          isCorked: corked)
      }
    }

    var processes: [Int32: ProcessFacts] {
      [pid: ProcessFacts(group: program.group, lineage: [pid])]
    }

    var player: MediaPlayer? {
      guard let bus = program.player else { return nil }
      return MediaPlayer(bus: bus, pid: pid, status: status ?? .paused)
    }
  }

  /// Every program the scenario started, in the order first started: `heard` lists them all.
  private(set) var order: [String] = []
  /// The pid each program was given when first started (kept when it starts again).
  private var pids: [String: Int32] = [:]
  private(set) var running: [String: Running] = [:]
  private var nextIndex: UInt32 = 1
  /// Whether the audio server is dead (between `media-services lost` and `reset`): no program
  /// has a stream on it, whatever its player does meanwhile.
  private(set) var serverDown = false

  /// The running programs, in the order first started.
  var runningPrograms: [Running] { order.compactMap { running[$0] } }

  /// Why an act cannot be done now, or nil.
  func problem(_ act: DesktopAct) -> String? {
    switch act {
    case .start(let program) where running[program.name] != nil:
      return "the program '\(program.name)' already runs; stop it first"
    case .program(let name, _) where running[name] == nil,
      .user(let name, _) where running[name] == nil:
      return "the program '\(name)' does not run (\(runningList)); start it with "
        + "'simulate program \(name) start --binary BINARY'"
    case .user(let name, _) where running[name]?.program.player == nil:
      return "the program '\(name)' has no player; give it one with --player BUS when it starts"
    default:
      return nil
    }
  }

  private var runningList: String {
    let names = runningPrograms.map { "'\($0.program.name)'" }
    return names.isEmpty ? "no program runs" : "running: " + names.joined(separator: ", ")
  }

  /// The program starts: its player says Playing (Paused, if it starts paused) first, then its
  /// streams appear.
  mutating func start(_ program: DesktopAct.Program) -> [ArbiterEvent] {
    if !order.contains(program.name) { order.append(program.name) }
    let pid = program.pid ?? pids[program.name] ?? Int32(1000 + order.count - 1)
    pids[program.name] = pid
    let started = Running(
      program: program, pid: pid, index: takeIndex(), playing: !program.paused,
      status: program.player == nil ? nil : program.paused ? .paused : .playing)
    running[program.name] = started
    return (started.player.map { [.players(.updated($0))] } ?? []) + updates(of: started)
  }

  /// A program pauses, plays or quits of its own accord.
  mutating func act(_ name: String, _ act: DesktopAct.ProgramAct) -> [ArbiterEvent] {
    guard var program = running[name] else { return [] }
    switch act {
    case .stop:
      running[name] = nil
      var events = removals(of: program)
      if let bus = program.program.player { events.append(.players(.removed(bus: bus))) }
      return events
    case .close:
      guard program.open else { return [] }
      let events = removals(of: program)
      program.open = false
      running[name] = program
      return events
    case .open:
      guard !program.open else { return [] }
      program.open = true
      program.index = takeIndex()
      running[name] = program
      return updates(of: program)
    case .pause, .play:
      program.playing = act == .play
      if program.status != nil { program.status = act == .play ? .playing : .paused }
      running[name] = program
      return (program.player.map { [.players(.updated($0))] } ?? []) + updates(of: program)
    case .stall:
      program.playing = false
      running[name] = program
      return updates(of: program)
    }
  }

  /// The user's command to a program's player: the bus shows the command, then the player's
  /// status, then its streams as it plays or pauses.
  mutating func user(_ name: String, _ command: PlayerAction.Command) -> [ArbiterEvent] {
    guard let bus = running[name]?.program.player else { return [] }
    return [.players(.commanded(bus: bus, command))] + obey(command, bus: bus)
  }

  /// A player carries out a command it was sent, and says so; a Pause to a player that does
  /// not play changes nothing.
  mutating func obey(_ command: PlayerAction.Command, bus: String) -> [ArbiterEvent] {
    guard var program = runningPrograms.first(where: { $0.program.player == bus }) else {
      return []
    }
    if command == .pause, program.status != .playing { return [] }
    program.status = command == .play ? .playing : .paused
    program.playing = command == .play
    running[program.program.name] = program
    return [.players(.updated(program.player ?? MediaPlayer(bus: bus, pid: nil, status: .paused)))]
      + updates(of: program)
  }

  /// The audio server dies: every stream goes, and the programs without a player die with it
  /// (pacat and espeak-ng do); the players live on.
  mutating func serverLost() -> [ArbiterEvent] {
    running = running.filter { $0.value.program.player != nil }
    serverDown = true
    return [.streams(.snapshot([]))]
  }

  /// The audio server is back: the players open their streams again, as new streams.
  mutating func serverBack() -> [ArbiterEvent] {
    serverDown = false
    var events: [ArbiterEvent] = []
    for name in order {
      guard var program = running[name], program.open else { continue }
      program.index = takeIndex()
      running[name] = program
      events += updates(of: program)
    }
    return events
  }

  /// What a new daemon learns: the players on the bus and the streams on the server, as they
  /// are, in the order given.
  func snapshots(busFirst: Bool) -> [ArbiterEvent] {
    let programs = runningPrograms
    let players = ArbiterEvent.players(.snapshot(programs.compactMap(\.player)))
    var processes: [Int32: ProcessFacts] = [:]
    for program in programs { processes.merge(program.processes) { first, _ in first } }
    let streams = ArbiterEvent.streams(
      .snapshot(serverDown ? [] : programs.filter(\.open).flatMap(\.streams)),
      processes: processes)
    return busFirst ? [players, streams] : [streams, players]
  }

  /// The program whose player has this bus name.
  func program(withPlayer bus: String) -> String? {
    runningPrograms.first { $0.program.player == bus }?.program.name
  }

  /// A program's streams as the server shows them now; none while the server is dead.
  private func updates(of program: Running) -> [ArbiterEvent] {
    guard !serverDown, program.open else { return [] }
    return program.streams.map { .streams(.updated($0), processes: program.processes) }
  }

  /// The program's streams going, last first; none when they are not on the server.
  private func removals(of program: Running) -> [ArbiterEvent] {
    guard !serverDown, program.open else { return [] }
    return program.streams.reversed().map { .streams(.removed($0.key)) }
  }

  /// Whether the program's streams are on the server.
  func hasStreams(_ program: Running) -> Bool { program.open && !serverDown }

  private mutating func takeIndex() -> UInt32 {
    defer { nextIndex += 1 }
    return nextIndex
  }
}
