package import AudioSession
package import AudioSessionArbiter
package import PropertyBased

/// Desktop histories acted out on the arbiter (docs/arbiter.md): media players that cork
/// while paused (mpv) and one that never does (Chromium), calls of one program (a phone-role
/// stream) and of a browser page (it plays and records, no role), speech, a beep, a program with
/// neither role nor player; the user's play and pause; the daemon killed and started again with
/// the journal it left, and the audio server restarted (the programs without a player die with
/// it, as pacat and espeak-ng do; the players open their streams again). The players obey the
/// commands they are sent, as real ones do, and report their status; mpv's stream may cork while
/// its player says Playing, as it does as it starts on a busy machine.
/// `DesktopHistoryPropertyTests` checks the arbiter's invariants over them; the record's tests
/// replay what a recorder saw of them (docs/contract.md "Recording what the daemon saw").
package enum DesktopHistory {
  /// One program of the cast.
  package struct Program {
    package var streams: [ServerStream]
    /// Its MPRIS player's bus name, if it has one.
    package var player: String?
    /// Whether it corks its stream while its player is paused.
    package var corksWhilePaused = true
    package var isCall = false
  }

  package static let cast: [Program] = [
    Program(
      streams: [Desktop.stream(1, pid: 900, binary: "mpv", role: "music")],
      player: "org.mpris.MediaPlayer2.mpv"),
    Program(
      streams: [Desktop.stream(2, pid: 800, binary: "chromium", name: "Chromium")],
      player: "org.mpris.MediaPlayer2.chromium.instance800", corksWhilePaused: false),
    Program(
      streams: [Desktop.stream(3, pid: 700, binary: "pacat", role: "phone")], isCall: true),
    Program(
      streams: [
        Desktop.stream(4, pid: 810, binary: "firefox-esr", name: "Firefox"),
        Desktop.stream(5, pid: 810, binary: "firefox-esr", name: "Firefox", record: true),
      ], isCall: true),
    Program(streams: [Desktop.stream(6, pid: 600, binary: "espeak-ng", name: "eSpeak")]),
    Program(streams: [Desktop.stream(7, pid: 610, binary: "paplay", role: "event")]),
    Program(streams: [Desktop.stream(8, pid: 650, binary: "aplay", name: "ALSA plug-in [aplay]")]),
  ]

  /// The desktop as it is: which programs run, and each player's status.
  package struct World {
    package var running: Set<Int> = []
    /// The calls that run, in the order they began.
    package var calls: [Int] = []
    package var status: [Int: PlaybackStatus] = [0: .paused, 1: .paused]
    /// Programs whose stream corked while their player says Playing, until it reports again.
    package var stalled: Set<Int> = []
    /// Players we paused and the user has not touched since: the only ones we may play.
    package var ours: Set<String> = []
    package var problems: [String] = []
    /// How many times the daemon was started again.
    package var restarts = 0

    package init() {}
  }

  package static func playersSnapshot(_ world: World) -> ArbiterEvent {
    .players(
      .snapshot([
        MediaPlayer(bus: cast[0].player!, pid: 900, status: world.status[0] ?? .paused),
        MediaPlayer(bus: cast[1].player!, pid: 800, status: world.status[1] ?? .paused),
      ]))
  }

  /// The daemon is killed and started again with the journal of paused players it left; it
  /// learns the players from the bus and the streams from the server, in either order.
  package static func restartDaemon(_ old: Desktop, _ world: World, busFirst: Bool) async -> Desktop
  {
    guard
      var desktop = try? await Desktop.start(
        paused: old.journal, recording: old.recorder != nil,
        limit: old.recorder?.limit ?? DesktopRecorder.defaultLimit)
    else { return old }
    var streams: [ServerStream] = []
    var processes: [Int32: ProcessFacts] = [:]
    for index in world.running.sorted() {
      for stream in Self.streams(of: index, world) {
        streams.append(stream)
        let pid = Int32(stream.properties["application.process.id"] ?? "") ?? 0
        processes[pid] = ProcessFacts(lineage: [pid])
      }
    }
    let serverSays = ArbiterEvent.streams(.snapshot(streams), processes: processes)
    desktop.feed(busFirst ? playersSnapshot(world) : serverSays)
    desktop.feed(busFirst ? serverSays : playersSnapshot(world))
    return desktop
  }

  /// The audio server dies and comes back: the programs without a player die with it (their
  /// calls with them), the players open their streams again.
  package static func restartServer(_ desktop: inout Desktop, _ world: inout World) {
    desktop.feed(.backend(.mediaServicesLost))
    desktop.feed(.streams(.snapshot([])))
    desktop.feed(.backend(.mediaServicesReset))
    world.running = world.running.filter { cast[$0].player != nil }
    world.stalled = []
    world.calls = []
    for index in world.running.sorted() {
      for stream in streams(of: index, world) { desktop.play(stream) }
    }
    obey(&desktop, &world)
  }

  /// A history of acts, each a code: program (7) and act (start, stop, the user's play, the
  /// user's pause, a stall), or, past those, the daemon's restart (``daemonRestart``), the
  /// server's (``serverRestart``) and time passing (``timePasses``).
  package static let histories = Gen.int(in: 0...(timePasses)).array(of: 1...12)
  package static let daemonRestart = cast.count * 5
  package static let serverRestart = daemonRestart + 1
  /// Time passes: the app sessions held after their last stream (espeak-ng's, docs/apps.md
  /// "Speech") go.
  package static let timePasses = serverRestart + 1

  package static func act(_ code: Int, _ desktop: inout Desktop, _ world: inout World) {
    let index = code % cast.count
    switch code / cast.count {
    case 0: startProgram(index, &desktop, &world)
    case 1: stop(index, &desktop, &world)
    case 2: user(index, .playing, &desktop, &world)
    case 3: user(index, .paused, &desktop, &world)
    default: stall(index, &desktop, &world)
    }
  }

  /// A player's stream corks while the player says Playing: buffering, not a pause, so nothing
  /// is played in its place (docs/mpris.md "A cork while the player plays"; taken as a pause,
  /// the app it had interrupted was played, and the two paused and played each other).
  package static func stall(_ index: Int, _ desktop: inout Desktop, _ world: inout World) {
    guard let bus = cast[index].player, cast[index].corksWhilePaused,
      world.running.contains(index), world.status[index] == .playing,
      world.stalled.insert(index).inserted
    else { return }
    for stream in streams(of: index, world) { desktop.play(stream) }
    let played = desktop.sent.filter { $0.0 == .play }.map(\.1)
    if !played.isEmpty {
      world.problems.append("\(bus) stalled, and the daemon played \(played)")
    }
    obey(&desktop, &world)
  }

  package static func streams(of index: Int, _ world: World) -> [ServerStream] {
    let program = cast[index]
    return program.streams.map { stream in
      var stream = stream
      if program.player != nil, program.corksWhilePaused {
        stream.isCorked = world.status[index] != .playing || world.stalled.contains(index)
      }
      return stream
    }
  }

  package static func startProgram(_ index: Int, _ desktop: inout Desktop, _ world: inout World) {
    guard !world.running.contains(index) else { return }
    world.running.insert(index)
    if cast[index].isCall { world.calls.append(index) }
    if let bus = cast[index].player {
      // A player starts playing as it opens its stream.
      world.status[index] = .playing
      world.ours.remove(bus)
      report(index, &desktop, &world)
    }
    for stream in streams(of: index, world) { desktop.play(stream) }
    obey(&desktop, &world)
  }

  package static func stop(_ index: Int, _ desktop: inout Desktop, _ world: inout World) {
    guard world.running.remove(index) != nil else { return }
    world.stalled.remove(index)
    world.calls.removeAll { $0 == index }
    for stream in cast[index].streams { desktop.remove(stream) }
    obey(&desktop, &world)
  }

  package static func user(
    _ index: Int, _ status: PlaybackStatus, _ desktop: inout Desktop, _ world: inout World
  ) {
    guard let bus = cast[index].player, world.running.contains(index) else { return }
    world.status[index] = status
    world.ours.remove(bus)
    // The user's command, as the bus shows it, then the player's status.
    desktop.feed(.players(.commanded(bus: bus, status == .playing ? .play : .pause)))
    report(index, &desktop, &world)
    for stream in streams(of: index, world) { desktop.play(stream) }
    obey(&desktop, &world)
    // The user's play is heard, unless a call runs (it refuses any other app, as on iOS).
    let callRuns = world.running.contains { cast[$0].isCall }
    if status == .playing, !callRuns,
      let session = desktop.arbiter.streams.assignment.sessions[cast[index].streams[0].key]
    {
      let state = desktop.session(session)
      if state?.active != true || state?.interrupted == true {
        world.problems.append("the user played \(bus) and \(session) is not heard")
      }
    }
  }

  /// A player reports its status; a stalled one plays on (its streams uncork with the report).
  package static func report(_ index: Int, _ desktop: inout Desktop, _ world: inout World) {
    guard let bus = cast[index].player else { return }
    world.stalled.remove(index)
    desktop.player(bus, pid: index == 0 ? 900 : 800, world.status[index] ?? .paused)
  }

  /// The players carry out the commands they were sent, and say so.
  package static func obey(_ desktop: inout Desktop, _ world: inout World) {
    for _ in 0..<8 {
      guard !desktop.sent.isEmpty else { return }
      let commands = desktop.sent
      desktop.sent = []
      for (command, bus) in commands {
        guard let index = cast.firstIndex(where: { $0.player == bus }) else { continue }
        switch command {
        case .pause:
          guard world.status[index] == .playing else { continue }
          world.ours.insert(bus)
          world.status[index] = .paused
        case .play:
          if !world.ours.contains(bus) {
            world.problems.append("\(bus) was played, but we had not paused it since the user")
          }
          world.ours.remove(bus)
          world.status[index] = .playing
        }
        report(index, &desktop, &world)
        if world.running.contains(index) {
          for stream in streams(of: index, world) { desktop.play(stream) }
        }
      }
    }
  }
}
