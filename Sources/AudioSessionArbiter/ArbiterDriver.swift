public import AudioSession

/// The smallest shell around an ``Arbiter``: a backend and nothing else (no clients, no bus, no
/// files), for a scenario's run and for tests of a backend. It performs the arbiter's backend
/// effects and decides nothing itself; the daemon's shell is `DaemonCore`.
public actor ArbiterDriver {
  public private(set) var arbiter: Arbiter
  private let backend: any AudioBackend
  private let policy: Policy
  /// Whether it acts out the daemon on a desktop (``init(policy:backend:devices:explaining:desktop:)``).
  public let desktop: Bool
  /// The MPRIS commands the arbiter sent since ``takeSent()`` was last called, in order.
  private var sent: [(command: PlayerAction.Command, bus: String)] = []
  /// The journal of paused players as the arbiter last wrote it (docs/mpris.md "A daemon that
  /// stops").
  public private(set) var journal: Set<PausedPlayer> = []
  /// The scenario's clock, in milliseconds from the start: a step takes no time, `simulate
  /// wait` passes it (``passTime(_:)``), and the arbiter's holds end on it.
  public private(set) var clock = 0
  /// The holds the arbiter asked to time (``ArbiterEffect/timeHold(_:)``), with when each ends,
  /// in the order asked.
  private var holds: [(end: Int, hold: AppHold)] = []

  /// Starts the backend with the given initial devices (preset names; nil: the catalog's
  /// default). With `desktop`, the arbiter is the daemon's on a desktop: it is told of other
  /// programs' streams and players, keeps its journals, and runs each command as the daemon
  /// runs a request's, delivered (docs/contract.md "Desktop steps").
  public init(
    policy: Policy, backend: any AudioBackend, devices: [String]?, explaining: Bool = false,
    desktop: Bool = false
  ) async throws(SessionError) {
    let catalog = policy.table.devices
    let present = try await backend.start(
      catalog: catalog, initialDevices: devices ?? catalog.defaultDevices)
    self.policy = policy
    self.backend = backend
    self.desktop = desktop
    self.arbiter = Self.arbiter(
      policy: policy, devices: present, backend: backend, explaining: explaining,
      desktop: desktop)
    if desktop { await carryOut(arbiter.handle(.started(ArbiterStart()))) }
  }

  private static func arbiter(
    policy: Policy, devices: [Device], backend: any AudioBackend, explaining: Bool,
    desktop: Bool
  ) -> Arbiter {
    var arbiter = Arbiter(
      policy: policy, devices: devices,
      setup: .init(
        identity: .init(pid: 0, profile: policy.profile.name), backendName: backend.name,
        backendFollowsSessions: backend.followsSessions, backendReportsStreams: desktop,
        keepsState: desktop, watchesPlayers: desktop))
    arbiter.explaining = explaining
    if desktop { arbiter.recordDeliveries() }
    return arbiter
  }

  /// The daemon is killed and started again (docs/contract.md "Desktop steps"): a new arbiter,
  /// started with what the last one left on disk (its held sessions, the players it paused),
  /// on the same backend and devices. Nothing of what the last one decided and did not write
  /// survives; the shell then tells it the streams and players as they are.
  public func restartDaemon() async {
    stopDaemon()
    await startDaemon()
  }

  /// The daemon is killed (docs/contract.md "Desktop steps"): its timers die with it, and what
  /// it wrote stays on disk for the next one, ``startDaemon()``.
  public func stopDaemon() {
    holds = []
  }

  /// A daemon starts after the last one was killed (``stopDaemon()``): a new arbiter, started
  /// with what the last one left on disk (its held sessions, the players it paused), on the
  /// same backend and devices; the shell then tells it the streams and players as they are.
  public func startDaemon() async {
    holds = []
    let saved = arbiter.held.entries
    let devices = arbiter.engine.connectedDevices
    arbiter = Self.arbiter(
      policy: policy, devices: devices, backend: backend, explaining: arbiter.explaining,
      desktop: desktop)
    await carryOut(
      arbiter.handle(.started(ArbiterStart(saved: saved, pausedPlayers: .success(journal)))))
  }

  /// Feeds one fact (another program's stream, a player, the backend's own event) and carries
  /// out its effects; returns them.
  @discardableResult
  public func feed(_ event: ArbiterEvent) async -> [ArbiterEffect] {
    let effects = arbiter.handle(event)
    await carryOut(effects)
    return effects
  }

  /// Lets time pass: each hold that ends meanwhile is handed back to the arbiter, earliest
  /// first (those that end together in the order they began), with its effects carried out.
  public func passTime(_ milliseconds: Int) async {
    let (sum, overflow) = clock.addingReportingOverflow(max(0, milliseconds))
    let end = overflow ? Int.max : sum
    while let next = holds.indices.min(by: { holds[$0].end < holds[$1].end }),
      holds[next].end <= end
    {
      let (due, hold) = holds.remove(at: next)
      clock = max(clock, due)
      await feed(.holdEnded(hold))
    }
    clock = end
  }

  /// The MPRIS commands sent since the last call, in order.
  public func takeSent() -> [(command: PlayerAction.Command, bus: String)] {
    defer { sent = [] }
    return sent
  }

  /// The notifications delivered since the last call (``Arbiter/takeDeliveries()``).
  public func takeDeliveries() -> [Delivery] { arbiter.takeDeliveries() }

  /// Whether each result says why (``CommandResult/because``).
  public func setExplaining(_ on: Bool) { arbiter.explaining = on }

  /// Runs one command to completion (``Arbiter/run(_:firstMention:trigger:performed:)``): a
  /// simulation is performed by the backend first; a `status` gets the real hardware's values
  /// and the server.
  public func run(
    _ command: Command, firstMention: Arbiter.FirstMention = .creates, trigger: String? = nil
  ) async -> CommandResult {
    var performed: Result<SimulationOutcome, SessionError>?
    if case .simulate(let action) = command {
      do throws(SessionError) {
        let inputs = try await backend.perform(action)
        performed = .success(
          SimulationOutcome(inputs: inputs, notes: await backend.takeSimulationNotes()))
      } catch {
        performed = .failure(error)
      }
    }
    var effects: [ArbiterEffect] = []
    let result =
      desktop
      ? arbiter.runAsDaemon(command, trigger: trigger, performed: performed, effects: &effects)
      : arbiter.run(
        command, firstMention: firstMention, trigger: trigger, performed: performed,
        effects: &effects)
    await carryOut(effects)
    return await withRealHardware(result)
  }

  /// Feeds an input that did not come from a command (a backend's own event).
  public func handle(_ input: EngineInput) async -> EngineOutcome {
    var effects: [ArbiterEffect] = []
    let outcome = arbiter.handleInputs([input], effects: &effects)[0]
    await carryOut(effects)
    return outcome
  }

  /// Feeds the engine inputs the backend observes on its own to the engine as they arrive,
  /// handing each outcome to `deliver` once the backend has applied it; returns when the
  /// backend stops. Other programs' streams are left out: this shell has none of the daemon's
  /// app sessions.
  public func followBackend(
    _ deliver: @Sendable (EngineInput, EngineOutcome) async -> Void = { _, _ in }
  ) async {
    for await event in backend.observedEvents {
      guard case .input(let input) = event else { continue }
      await deliver(input, await handle(input))
    }
  }

  /// The whole state, with the real hardware's values where the backend has them.
  public func status() async -> EngineStatus {
    await backend.withRealHardware(arbiter.engine.status())
  }

  /// One session's state, or nil if there is no such session.
  public func session(named name: String) -> SessionStatus? { arbiter.engine.session(named: name) }

  /// The backend's media server, if it has one.
  public func serverStatus() async -> MediaServerStatus? { await backend.serverStatus }

  public nonisolated var backendName: String { backend.name }

  public func shutdown() async { await backend.stop() }

  private func withRealHardware(_ result: CommandResult) async -> CommandResult {
    guard case .status(let status)? = result.reply else { return result }
    var result = result
    result.reply = .status(await backend.withRealHardware(status))
    result.server = await backend.serverStatus
    return result
  }

  private func carryOut(_ effects: [ArbiterEffect]) async {
    for effect in effects {
      switch effect {
      case .apply(let notifications, let status): await backend.apply(notifications, status: status)
      case .assign(let assignment): await backend.assign(assignment)
      case .player(let command, let bus): sent.append((command, bus))
      case .keepPausedPlayers(let entries): journal = entries
      case .timeHold(let hold):
        let (end, overflow) = clock.addingReportingOverflow(hold.milliseconds)
        holds.append((overflow ? Int.max : end, hold))
      default: continue
      }
    }
  }
}
