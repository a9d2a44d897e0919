/// A scenario's desktop on stage (docs/contract.md "Desktop steps"): the daemon's arbiter on the
/// simulated backend (``ArbiterDriver`` acting out the daemon), the other programs
/// (``DesktopWorld``) and the user; each step runs, the players obey what the daemon sends
/// them, and the step's transcript shows every notification the daemon delivered, the commands
/// it sent and what it did to the programs' streams.
import AudioSession
import AudioSessionArbiter

struct DesktopStage {
  /// The duck level of `heard` when the policy gives none: -20 dB, PulseAudio's
  /// module-role-ducking default and `pulse.json`'s `duckDecibels`, as an amplitude.
  static let defaultDuckLevel = 0.1

  let driver: ArbiterDriver
  let explain: Bool
  let duckLevel: Double
  /// The profile in force, for the reasons the stage gives itself.
  let profile: String
  var world = DesktopWorld()
  /// How each program's stream was last shown (a change is a line).
  var shown: [String: DesktopReport.Treatment] = [:]
  /// App sessions paused by the system, or whose interruption ended without shouldResume,
  /// that have not played since: their streams stay silenced (docs/apps.md "On the server").
  var held: Set<String> = []
  /// Whether WirePlumber's role policy runs (`simulate role-policy on`).
  var rolePolicy = false
  /// Whether the daemon is stopped (`simulate daemon stop`): the programs and the user act
  /// unseen, and no command runs, until `simulate daemon start`.
  var daemonStopped = false

  /// The daemon has just started: it hears the bus (no players) and the server (no streams).
  init(driver: ArbiterDriver, explain: Bool, duckLevel: Double) async {
    self.driver = driver
    self.explain = explain
    self.duckLevel = duckLevel
    profile = await driver.arbiter.setup.identity.profile
    await driver.feed(.players(.snapshot([])))
    await driver.feed(.streams(.snapshot([])))
    _ = await driver.takeDeliveries()
  }

  /// Runs one step to completion and returns its transcript entry.
  mutating func run(_ action: ScenarioAction, step: Int, text: String) async -> TranscriptEntry {
    var result: CommandResult
    switch action {
    case .command where daemonStopped:
      // The plan refuses such a step before anything runs (``DesktopCast``).
      result = CommandResult()
      result.error = SessionError(
        .badParam, "no daemon runs to take '\(text)'; start it with 'simulate daemon start'")
    case .command(let command): result = await run(command, text: text)
    case .desktop(let act):
      result = CommandResult()
      if let problem = world.problem(act) {
        result.error = SessionError(.badParam, problem)
        if explain {
          result.errorBecause = Because(
            source: DecisionSource(spec: "\"Desktop steps\"", document: "docs/contract.md"),
            profile: profile, trigger: text)
        }
      } else {
        await perform(act)
      }
    }
    await obey()
    let delivered = await driver.takeDeliveries()
    result.notifications = delivered.map(\.notification)
    let reasons = delivered.compactMap(\.because).map { retriggered($0, text) }
    result.because = explain && reasons.count == delivered.count ? reasons : []
    var report = DesktopReport(lines: sentLines, heard: nil)
    sentLines = []
    for (index, line) in report.lines.enumerated() {
      guard case .sent(let program, let bus, let command, _) = line else { continue }
      report.lines[index] = .sent(
        program: program, bus: bus, command: command,
        because: explain ? because(sending: command, to: bus, delivered, text) : nil)
    }
    let arbiter = await driver.arbiter
    if case .status(var status)? = result.reply {
      // The daemon's status says whose each session is, with the players (docs/apps.md
      // "Owners").
      for index in status.sessions.indices {
        status.sessions[index].ownership = arbiter.ownership(of: status.sessions[index].name)
      }
      result.reply = .status(status)
    }
    report.lines += streamLines(arbiter, delivered: delivered)
    if case .desktop(.heard) = action { report.heard = heard(arbiter) }
    return TranscriptEntry(step: step, command: text, result: result, desktop: report)
  }

  /// The commands sent during the step, with the program each went to.
  private var sentLines: [DesktopReport.Line] = []

  /// A command to the daemon; the server's death and return are also the programs'.
  private mutating func run(_ command: Command, text: String) async -> CommandResult {
    switch command {
    case .simulate(.serverRestart):
      // As the server dies and comes back: the streams go, then the reset.
      var lost = await run(.simulate(.mediaServices(lost: true)), text: text)
      let reset = await run(.simulate(.mediaServices(lost: false)), text: text)
      lost.error = lost.error ?? reset.error
      lost.errorBecause = lost.errorBecause ?? reset.errorBecause
      lost.warnings += reset.warnings
      return lost
    case .simulate(.mediaServices(let lost)):
      let result = await driver.run(command, trigger: text)
      guard result.error == nil else { return result }
      await feed(lost ? world.serverLost() : world.serverBack())
      return result
    default:
      return await driver.run(command, trigger: text)
    }
  }

  private mutating func perform(_ act: DesktopAct) async {
    switch act {
    case .start(let program): await feed(world.start(program))
    case .program(let name, let act): await feed(world.act(name, act))
    case .user(let name, let command): await feed(world.user(name, command))
    case .daemonRestart(let busFirst):
      await driver.restartDaemon()
      await feed(world.snapshots(busFirst: busFirst))
    case .daemonStop:
      await driver.stopDaemon()
      daemonStopped = true
    case .daemonStart(let busFirst):
      daemonStopped = false
      await driver.startDaemon()
      await feed(world.snapshots(busFirst: busFirst))
    case .wait(let milliseconds): await driver.passTime(milliseconds)
    case .rolePolicy(let on): rolePolicy = on
    case .heard: break
    }
  }

  /// Feeds what the daemon sees; a stopped daemon sees nothing.
  private func feed(_ events: [ArbiterEvent]) async {
    guard !daemonStopped else { return }
    for event in events { await driver.feed(event) }
  }

  /// The players carry out what the daemon sent them, which may make it send more.
  private mutating func obey() async {
    for _ in 0..<16 {
      let sent = await driver.takeSent()
      guard !sent.isEmpty else { return }
      for (command, bus) in sent {
        sentLines.append(
          .sent(
            program: world.program(withPlayer: bus) ?? bus, bus: bus, command: command,
            because: nil))
        await feed(world.obey(command, bus: bus))
      }
    }
  }

  /// A reason as the transcript gives it: triggered by the step as written (docs/contract.md
  /// "Seeing why").
  private func retriggered(_ because: Because, _ text: String) -> Because {
    Because(source: because.source, profile: because.profile, trigger: text)
  }

  /// Why a command went to a player: the reason of the session's `player` event, or, for a
  /// player no event names, the journal's (a player paused for an interruption that will not
  /// end: a previous daemon's, or one whose session went with the server).
  private func because(
    sending command: PlayerAction.Command, to bus: String, _ delivered: [Delivery],
    _ text: String
  ) -> Because {
    for delivery in delivered {
      if case .player(let action) = delivery.notification.event, action.player == bus,
        action.command == command, let because = delivery.because
      {
        return retriggered(because, text)
      }
    }
    return Because(
      source: DecisionSource(spec: "\"A daemon that stops\"", document: "docs/mpris.md"),
      profile: profile, trigger: text)
  }
}
