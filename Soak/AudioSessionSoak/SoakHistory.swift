/// One act of a soak history: something a real program, the user or the system does on the
/// desktop (docs/soak.md "Acts").
public enum SoakAct: Sendable, Hashable, CustomStringConvertible {
  /// The program starts (its stream plays its tone).
  case start(String)
  /// The program quits (killed: its streams and its player go).
  case stop(String)
  /// The user's `playerctl -p NAME pause`.
  case userPause(String)
  /// The user's `playerctl -p NAME play`.
  case userPlay(String)
  /// Headphones are plugged (every stream moves onto them) and pulled out again.
  case unplugHeadphones
  /// The daemon is killed (`kill -9`) and started again.
  case daemonRestart

  /// The desktop steps that act it out in a scenario, before its `heard`.
  public var steps: [String] {
    switch self {
    case .start(let name):
      [SoakProgram.named(name)?.startStep ?? "simulate program \(name) start"]
    case .stop(let name): ["simulate program \(name) stop"]
    case .userPause(let name): ["simulate user \(name) pause"]
    case .userPlay(let name): ["simulate user \(name) play"]
    case .unplugHeadphones: ["simulate plug headphones", "simulate unplug headphones"]
    case .daemonRestart: ["simulate daemon restart"]
    }
  }

  public var description: String {
    switch self {
    case .start(let name): "start \(name)"
    case .stop(let name): "stop \(name)"
    case .userPause(let name): "user pauses \(name)"
    case .userPlay(let name): "user plays \(name)"
    case .unplugHeadphones: "headphones unplugged"
    case .daemonRestart: "daemon killed and started again"
    }
  }
}

/// A seeded random history of acts, each followed by a `heard` step in its scenario.
public struct SoakHistory: Sendable, Hashable {
  public var acts: [SoakAct]
  /// Steps before the first act that say what the desktop is (`simulate role-policy on` for a
  /// server whose WirePlumber runs its role policy).
  public var setup: [String]

  public init(acts: [SoakAct], setup: [String] = []) {
    self.acts = acts
    self.setup = setup
  }

  /// The programs the history starts, in the order they are first started: the order of the
  /// `heard` lines' members.
  public var programs: [String] {
    var seen: [String] = []
    for case .start(let name) in acts where !seen.contains(name) { seen.append(name) }
    return seen
  }

  /// The scenario of the first `count` acts (all by default), a `heard` after each; `notes`
  /// are comment lines put after the `heard` of the act of that index (what the server gave).
  public func scenario(
    name: String, description: String, count: Int? = nil, notes: [Int: [String]] = [:]
  ) -> String {
    var lines = [
      "name: \(Self.quoted(name))",
      "description: \(Self.quoted(description))",
      "steps:",
    ]
    for step in setup { lines.append("  - \(step)") }
    for (index, act) in acts.prefix(count ?? acts.count).enumerated() {
      lines.append("  # act \(index + 1): \(act)")
      for step in act.steps { lines.append("  - \(step)") }
      lines.append("  - heard")
      for note in notes[index] ?? [] { lines.append("  # \(note)") }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// The number of the `heard` step (from 1) that follows each act, in the scenario's steps.
  public var heardSteps: [Int] {
    var step = setup.count
    return acts.map { act in
      step += act.steps.count + 1
      return step
    }
  }

  /// A YAML double-quoted scalar.
  static func quoted(_ text: String) -> String {
    "\"" + text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\""
  }
}

/// A small, fast, seedable generator (SplitMix64): the same seed gives the same histories on
/// every machine.
public struct SoakRandom: RandomNumberGenerator, Sendable {
  private var state: UInt64

  public init(seed: UInt64) { state = seed }

  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// Makes histories of what real programs can act out (docs/soak.md "Acts"): a program is
/// started only when it does not run, stopped or commanded by the user only while it runs, and
/// only a program with a player gets the user's commands.
public struct SoakHistoryGenerator: Sendable {
  public var cast: [SoakProgram]

  public init(cast: [SoakProgram] = SoakProgram.cast) { self.cast = cast }

  /// History number `index` of the run seeded with `seed`: each history has its own stream
  /// of random numbers, so one can be made again alone.
  public func history(seed: UInt64, index: Int, steps: Int) -> SoakHistory {
    var random = SoakRandom(seed: seed &* 1_000_003 &+ UInt64(truncatingIfNeeded: index))
    return history(using: &random, steps: steps)
  }

  public func history(using random: inout some RandomNumberGenerator, steps: Int) -> SoakHistory {
    var running: [String] = []
    var acts: [SoakAct] = []
    while acts.count < steps {
      let act = next(running: running, using: &random)
      switch act {
      case .start(let name): running.append(name)
      case .stop(let name): running.removeAll { $0 == name }
      default: break
      }
      acts.append(act)
    }
    return SoakHistory(acts: acts)
  }

  /// The kinds of act, for drawing one by weight.
  private enum Choice { case start, stop, unplug, restart, userPause, userPlay }

  /// One act drawn by weight among those the desktop allows now. Starting is likeliest while
  /// few programs run, so that most steps have several programs to judge by ear.
  func next(running: [String], using random: inout some RandomNumberGenerator) -> SoakAct {
    let idle = cast.map(\.name).filter { !running.contains($0) }
    let players = cast.filter { $0.hasPlayer && running.contains($0.name) }.map(\.name)
    var choices: [(Choice, Int)] = []
    if !idle.isEmpty { choices.append((.start, running.count < 2 ? 8 : 4)) }
    if !running.isEmpty {
      choices += [(.stop, running.count > 4 ? 4 : 2), (.unplug, 1), (.restart, 1)]
    }
    if !players.isEmpty { choices += [(.userPause, 1), (.userPlay, 1)] }
    var pick = Int.random(in: 0..<choices.reduce(0) { $0 + $1.1 }, using: &random)
    var chosen = Choice.restart
    for (choice, weight) in choices {
      if pick < weight {
        chosen = choice
        break
      }
      pick -= weight
    }
    func any(_ names: [String]) -> String { names[Int.random(in: 0..<names.count, using: &random)] }
    switch chosen {
    case .start: return .start(any(idle))
    case .stop: return .stop(any(running))
    case .unplug: return .unplugHeadphones
    case .restart: return .daemonRestart
    case .userPause: return .userPause(any(players))
    case .userPlay: return .userPlay(any(players))
    }
  }
}
