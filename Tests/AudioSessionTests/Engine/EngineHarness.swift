import AudioSessionTestSupport

@testable import AudioSession

/// Drives an ``Engine`` with the repository's policies and renders notifications as short lines
/// ("music: interruption began default by nav") so tests read like the spec.
struct EngineHarness {
  var engine: Engine
  let policy: Policy
  private var plugCounts: [String: Int] = [:]
  /// Every notification line posted so far, in order.
  private(set) var log: [String] = []

  /// - Parameters:
  ///   - devices: presets present at start (default: the built-in speaker, receiver and mic).
  ///   - adjust: changes to the profile's switches, for tests of the disputed points (§12).
  init(
    profile: String? = nil,
    devices: [String] = ["builtInSpeaker", "builtInReceiver", "builtInMic"],
    adjust: (inout ProfileSwitches) -> Void = { _ in }
  ) throws {
    var table = try TestPolicies.table()
    let name = profile ?? table.defaultProfile
    if var chosen = table.profiles[name] {
      adjust(&chosen.switches)
      table.profiles[name] = chosen
    }
    policy = try Policy(table: table, profile: name)
    let catalog = table.devices
    engine = Engine(
      policy: policy,
      devices: devices.map { name in
        let preset = catalog.presets[name]!
        return Device(preset: preset, uid: preset.uid ?? "\(name)-0")
      })
  }

  /// Handles an input; creates the sessions it names on first mention, like the coordinator.
  @discardableResult
  mutating func run(_ input: EngineInput) -> Outcome {
    if let name = input.session, engine.session(named: name) == nil {
      _ = engine.handle(.createSession(name))
    }
    let outcome = engine.handle(input)
    let lines = outcome.notifications.map(Self.line)
    log += lines
    return Outcome(error: outcome.error, warnings: outcome.warnings, lines: lines)
  }

  @discardableResult
  mutating func set(
    _ session: String, _ category: Category, mode: Mode? = nil, _ options: CategoryOptions = []
  ) -> Outcome {
    run(.setCategory(session: session, category: category, mode: mode, options: options))
  }

  @discardableResult
  mutating func activate(_ session: String) -> Outcome {
    run(.setActive(session: session, active: true, options: []))
  }

  @discardableResult
  mutating func deactivate(_ session: String, notifyOthers: Bool = false) -> Outcome {
    run(
      .setActive(
        session: session, active: false, options: notifyOthers ? .notifyOthersOnDeactivation : []))
  }

  @discardableResult
  mutating func play(_ session: String) -> Outcome { run(.startIO(session: session)) }

  @discardableResult
  mutating func stop(_ session: String) -> Outcome { run(.stopIO(session: session)) }

  /// Configures, activates and starts a session in one go; returns the activation's lines.
  @discardableResult
  mutating func start(
    _ session: String, _ category: Category, mode: Mode? = nil, _ options: CategoryOptions = []
  ) -> Outcome {
    set(session, category, mode: mode, options)
    let outcome = activate(session)
    play(session)
    return outcome
  }

  /// Plugs a device made from a preset; returns the outcome. UIDs are `<preset>-<n>`.
  @discardableResult
  mutating func plug(_ preset: String) -> Outcome {
    let count = plugCounts[preset, default: 0] + 1
    plugCounts[preset] = count
    let device = Device(preset: policy.table.devices.presets[preset]!, uid: "\(preset)-\(count)")
    return run(.deviceConnected(device))
  }

  @discardableResult
  mutating func unplug(_ uid: String) -> Outcome { run(.deviceDisconnected(uid: uid)) }

  /// The user chooses a device for a direction: for every session, or for one.
  @discardableResult
  mutating func choose(
    _ uid: String, _ direction: PortDirection = .output, for session: String? = nil
  ) -> Outcome {
    run(.deviceChosen(uid: uid, direction: direction, session: session))
  }

  func status(_ session: String) -> SessionStatus { engine.session(named: session)! }

  /// Output port types of a session's route, e.g. `["headphones"]`.
  func outputs(_ session: String) -> [String] {
    status(session).route.outputs.map(\.portType.name)
  }

  func inputs(_ session: String) -> [String] {
    status(session).route.inputs.map(\.portType.name)
  }

  struct Outcome {
    var error: SessionError?
    var warnings: [String]
    var lines: [String]
  }

  static func line(_ notification: SessionNotification) -> String {
    "\(notification.session): " + describe(notification.event)
  }

  static func describe(_ event: SessionEvent) -> String {
    switch event {
    case .interruptionBegan(let reason, let cause):
      "interruption began \(reason.name) by \(cause.name)"
    case .interruptionEnded(let options, let cause):
      "interruption ended [\(options.names.joined(separator: ","))] by \(cause.name)"
    case .routeChange(let reason, let previous, let current):
      "routeChange \(reason.name) \(describe(previous)) -> \(describe(current))"
    case .silenceSecondaryAudioHint(let type): "hint \(type.name)"
    case .mediaServicesWereLost: "mediaServicesWereLost"
    case .mediaServicesWereReset: "mediaServicesWereReset"
    case .duck(let cause): "duck by \(cause.name)"
    case .unduck: "unduck"
    case .mute(let reason): "mute \(reason.rawValue)"
    case .unmute: "unmute"
    case .pause(let reason): "pause \(reason.name)"
    case .player(let action): "player \(action.command.rawValue) \(action.player)"
    case .promptStyle(let style): "promptStyle \(style.name)"
    case .didBecomeActive: "didBecomeActive"
    case .didBecomeInactive(let source, let reason):
      "didBecomeInactive \(source.name)" + (reason.map { " \($0.name)" } ?? "")
    case .resumptionRecommendation(let recommendation):
      "resumptionRecommendation \(recommendation.name)"
    case .outputMuteStateChange(let muted): "outputMuteStateChange \(muted)"
    case .userIntentToUnmuteOutput: "userIntentToUnmuteOutput"
    case .inputMuteStateChange(let muted): "inputMuteStateChange \(muted)"
    case .availableInputsChange: "availableInputsChange"
    }
  }

  /// `out[builtInSpeaker]` or `in[builtInMic] out[builtInReceiver]`.
  static func describe(_ route: RouteDescription) -> String {
    var parts: [String] = []
    if !route.inputs.isEmpty {
      parts.append("in[\(route.inputs.map(\.portType.name).joined(separator: ","))]")
    }
    parts.append("out[\(route.outputs.map(\.portType.name).joined(separator: ","))]")
    return parts.joined(separator: " ")
  }
}
