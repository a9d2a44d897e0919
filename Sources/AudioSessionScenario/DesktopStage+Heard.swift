// What is heard of the other programs, as the daemon's decisions leave their streams.
import AudioSession
import AudioSessionArbiter

extension DesktopStage {
  /// How the daemon leaves a program's playback stream, as the backend carries its decisions
  /// out (docs/apps.md "On the server"): silenced while its session is muted (or its app muted
  /// its output), or interrupted or held while it does not play; ducked while its session is;
  /// else as the program plays it. Nil for a stream no session arbitrates.
  func treatment(of program: DesktopWorld.Running, _ arbiter: Arbiter) -> DesktopReport.Treatment? {
    guard let session = arbiter.streams.assignment.sessions[program.playbackKey],
      let status = arbiter.engine.session(named: session)
    else { return nil }
    let silenced =
      status.muted || status.outputMuted
      || (!status.playing && (status.interrupted || held.contains(session)))
    if silenced { return .muted }
    return status.ducked ? .ducked : .restored
  }

  /// The lines for the programs whose streams the step changed; keeps what the backend holds
  /// (``held``) up to date with the step's notifications first.
  mutating func streamLines(_ arbiter: Arbiter, delivered: [Delivery]) -> [DesktopReport.Line] {
    for delivery in delivered {
      switch delivery.notification.event {
      case .pause: held.insert(delivery.notification.session)
      case .interruptionEnded(let options, _) where !options.contains(.shouldResume):
        held.insert(delivery.notification.session)
      default: continue
      }
    }
    held = held.filter { arbiter.engine.session(named: $0)?.playing == false }
    var lines: [DesktopReport.Line] = []
    var now: [String: DesktopReport.Treatment] = [:]
    for program in world.runningPrograms {
      let name = program.program.name
      let treatment = treatment(of: program, arbiter) ?? .restored
      now[name] = treatment
      if treatment != (shown[name] ?? .restored) { lines.append(.stream(program: name, treatment)) }
    }
    shown = now
    return lines
  }

  /// What each program the scenario started is heard at: 0 unless it runs and plays (a paused
  /// program's uncorked stream plays silence), then 0 muted, the duck level ducked, else 1.
  /// With WirePlumber's role policy on (``DesktopRolePolicy``), a stream it corks is 0, and one
  /// it ducks is at its duck level unless the daemon silences it (the backend does not duck what
  /// the role policy ducks, docs/apps.md "Beside WirePlumber's role policy").
  func heard(_ arbiter: Arbiter) -> [DesktopReport.Level] {
    // The roles of the streams that play for WirePlumber: uncorked, whatever the daemon's
    // mute (a paused program that never corks still plays, silence).
    let uncorked = world.runningPrograms.filter {
      world.hasStreams($0) && ($0.playing || $0.program.neverCorks)
    }.map(\.program.role)
    return world.order.map { name in
      guard let program = world.running[name], program.playing, world.hasStreams(program) else {
        return DesktopReport.Level(program: name, level: 0)
      }
      let treatment = treatment(of: program, arbiter)
      var level: Double =
        switch treatment {
        case .muted?: 0
        case .ducked?: duckLevel
        case .restored?, nil: 1
        }
      if rolePolicy {
        switch DesktopRolePolicy.action(forRole: program.program.role, playing: uncorked) {
        case .cork: level = 0
        case .duck: level = treatment == .muted ? 0 : DesktopRolePolicy.duckLevel
        case .mix: break
        }
      }
      return DesktopReport.Level(program: name, level: level)
    }
  }
}
