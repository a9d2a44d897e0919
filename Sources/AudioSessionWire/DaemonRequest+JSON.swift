public import AudioSession

// Requests on the wire: `{"v":1,"id":7,"op":"set","session":"music","category":"playback",…}`
// (docs/protocol.md "Operations"). Each member's name, each op and each simulate action is
// written once, below, for the encoder and the decoder.

extension DaemonRequest {
  /// The `op` values, in the order docs/protocol.md lists them.
  enum Op: String, CaseIterable {
    case hello, open, follow, set, setMode, activate, deactivate, play, stop, override
    case setPreferredInput, remove, appState, nowPlaying, prefer, inputGain, dataSource
    case polarPattern, outputMuted, inputMuted, status, route, devices, session, simulate, watch
    case explain, record
  }

  /// The `action` values of `simulate`: the words of `sessionctl simulate`.
  enum SimulateAction: String, CaseIterable {
    case plug, unplug, call, silent, lock
    case micMute = "mic-mute", serverRestart = "server-restart"
    case mediaServices = "media-services", siri, alarm, volume, permission
  }

  /// The members of a request.
  enum Key {
    static let id = "id", deadline = "deadline", op = "op", session = "session"
    static let client = "client", events = "events", category = "category", mode = "mode"
    static let policy = "policy", options = "options", notifyOthers = "notifyOthers"
    static let port = "port", uid = "uid", state = "state", on = "on", key = "key"
    static let value = "value", gain = "gain", name = "name", dataSource = "dataSource"
    static let pattern = "pattern", muted = "muted", input = "input", action = "action"
    static let preset = "preset", device = "device", style = "style"
  }

  /// The `state` values of `simulate`.
  enum State {
    static let on = "on", off = "off", begin = "begin", end = "end", lost = "lost"
    static let reset = "reset", ring = "ring"
  }

  /// The request as one wire message (no newline).
  public var json: JSONObject {
    var object: JSONObject = [WireProtocol.versionKey: .int(WireProtocol.version)]
    if let id { object.append(Key.id, .int(id)) }
    if let deadline { object.append(Key.deadline, .int(deadline)) }
    func op(_ op: Op, session: String? = nil) {
      object.append(Key.op, .string(op.rawValue))
      if let session { object.append(Key.session, .string(session)) }
    }
    switch operation {
    case .hello(let client):
      op(.hello)
      if let client { object.append(Key.client, .string(client)) }
    case .open(let session): op(.open, session: session)
    case .follow(let session): op(.follow, session: session)
    case .session(let session): op(.session, session: session)
    case .explain(let session): op(.explain, session: session)
    case .record: op(.record)
    case .watch(let filter):
      op(.watch)
      object.append(Key.events, .string(filter.rawValue))
    case .command(.input(let input)): Self.append(input, to: &object)
    case .command(.status): op(.status)
    case .command(.route(let session)): op(.route, session: session)
    case .command(.devices): op(.devices)
    case .command(.simulate(let action)):
      op(.simulate)
      Self.append(action, to: &object)
    }
    return object
  }

  /// An app's call (``EngineInput/isAppCall``) as its op; an input of another kind has no op
  /// on the wire, and is sent as `input`, which the daemon refuses as an unknown op: the system's
  /// events come from its backend (or `simulate`), other programs' sessions from their streams.
  private static func append(_ input: EngineInput, to object: inout JSONObject) {
    func op(_ op: Op, _ session: String) {
      object.append(Key.op, .string(op.rawValue))
      object.append(Key.session, .string(session))
    }
    switch input {
    case .setCategory(let session, let category, let mode, let options, let policy):
      op(.set, session)
      object.append(Key.category, .string(category.name))
      if let mode { object.append(Key.mode, .string(mode.name)) }
      if policy != .default { object.append(Key.policy, .string(policy.name)) }
      object.append(Key.options, .strings(options.names))
    case .setMode(let session, let mode):
      op(.setMode, session)
      object.append(Key.mode, .string(mode.name))
    case .setActive(let session, true, _): op(.activate, session)
    case .setActive(let session, false, let options):
      op(.deactivate, session)
      object.append(Key.notifyOthers, .bool(options.contains(.notifyOthersOnDeactivation)))
    case .startIO(let session): op(.play, session)
    case .stopIO(let session): op(.stop, session)
    case .overrideOutput(let session, let port):
      op(.override, session)
      object.append(Key.port, .string(port.name))
    case .setPreferredInput(let session, let uid):
      op(.setPreferredInput, session)
      object.append(Key.uid, uid.map(JSONValue.string) ?? .null)
    case .removeSession(let session): op(.remove, session)
    case .setAppState(let session, let state):
      op(.appState, session)
      object.append(Key.state, .string(state.name))
    case .setNowPlaying(let session, let on):
      op(.nowPlaying, session)
      object.append(Key.on, .bool(on))
    case .setPreference(let session, let preference):
      op(.prefer, session)
      object.append(Key.key, .string(preference.key))
      object.append(Key.value, .string(preference.valueText))
    case .setInputGain(let session, let gain):
      op(.inputGain, session)
      object.append(Key.gain, .double(gain))
    case .setDataSource(let session, let name):
      op(.dataSource, session)
      object.append(Key.name, .string(name))
    case .setPolarPattern(let session, let source, let pattern):
      op(.polarPattern, session)
      object.append(Key.dataSource, .string(source))
      object.append(Key.pattern, pattern.map { .string($0.name) } ?? .null)
    case .setOutputMuted(let session, let muted):
      op(.outputMuted, session)
      object.append(Key.muted, .bool(muted))
    case .setInputMuted(let session, let muted):
      op(.inputMuted, session)
      object.append(Key.muted, .bool(muted))
    case .createSession, .observed, .ownCall, .deviceConnected, .deviceDisconnected,
      .deviceChosen, .call, .callRing, .siri, .alarm, .silentSwitch, .screenLock, .builtInMicMute,
      .systemVolume, .recordPermission, .mediaServicesLost, .mediaServicesReset:
      object.append(Key.op, .string(Key.input))
      object.append(Key.input, .string(input.description))
    }
  }

  private static func append(_ action: SimulationAction, to object: inout JSONObject) {
    func act(_ action: SimulateAction, _ state: String? = nil) {
      object.append(Key.action, .string(action.rawValue))
      if let state { object.append(Key.state, .string(state)) }
    }
    func onOff(_ on: Bool) -> String { on ? State.on : State.off }
    func beginEnd(_ active: Bool) -> String { active ? State.begin : State.end }
    switch action {
    case .plug(let preset):
      act(.plug)
      object.append(Key.preset, .string(preset))
    case .unplug(let device):
      act(.unplug)
      object.append(Key.device, .string(device))
    case .call(let active): act(.call, beginEnd(active))
    case .silentSwitch(let on): act(.silent, onOff(on))
    case .screenLock(let on): act(.lock, onOff(on))
    case .micMute(let on): act(.micMute, onOff(on))
    case .serverRestart: act(.serverRestart)
    case .mediaServices(let lost): act(.mediaServices, lost ? State.lost : State.reset)
    case .callRing(let style):
      act(.call, State.ring)
      object.append(Key.style, .string(style.name))
    case .siri(let active): act(.siri, beginEnd(active))
    case .alarm(let active): act(.alarm, beginEnd(active))
    case .volume(let volume):
      act(.volume)
      object.append(Key.value, .double(volume))
    case .recordPermission(let permission): act(.permission, permission.name)
    }
  }

  /// Reads a request from one wire message.
  ///
  /// - Throws: ``DaemonError``: a ``ProtocolError`` for a message that is not a valid request,
  ///   `badParam` for a value that names nothing (a category, mode, option, port or session
  ///   name), with the valid names.
  public init(message bytes: [UInt8]) throws(DaemonError) {
    let value: JSONValue
    do {
      value = try JSONParser.parse(bytes)
    } catch {
      throw .protocolError(ProtocolError(.malformed, "the message is not JSON: \(error)"))
    }
    guard case .object(let object) = value else {
      throw .protocolError(
        ProtocolError(.malformed, "a message is a JSON object, like {\"v\":1,\"op\":\"status\"}"))
    }
    try self.init(object: object)
  }

  /// Reads a request from a parsed message.
  public init(object: JSONObject) throws(DaemonError) {
    var fields = WireFields(object)
    switch object[WireProtocol.versionKey] {
    case .int(WireProtocol.version)?: break
    case nil:
      throw .protocolError(
        ProtocolError(.unsupportedVersion, "the message has no \"v\"; this daemon speaks \"v\":1"))
    case let other?:
      throw .protocolError(
        ProtocolError(
          .unsupportedVersion,
          "unsupported protocol version \(other.serialized); this daemon speaks \"v\":1"))
    }
    id = try fields.optionalInt(Key.id)
    deadline = try fields.optionalInt(Key.deadline)
    operation = try Self.operation(&fields)
    try fields.finish()
  }

  private static func operation(_ fields: inout WireFields) throws(DaemonError) -> Operation {
    let name = try fields.string(Key.op)
    guard let op = Op(rawValue: name) else {
      throw .protocolError(
        ProtocolError(
          .unknownOperation,
          "unknown op '\(name)'; valid ops are: \(operationNames.joined(separator: ", "))"))
    }
    func input(_ input: EngineInput) -> Operation { .command(.input(input)) }
    switch op {
    case .hello: return .hello(client: try fields.optionalString(Key.client))
    case .watch:
      let events = try fields.string(Key.events)
      guard let filter = WatchFilter(rawValue: events) else {
        throw .session(
          SessionError(
            .badParam,
            "unknown watch filter '\(events)'; valid filters are: "
              + WatchFilter.allCases.map(\.rawValue).joined(separator: ", ")))
      }
      return .watch(filter)
    case .status: return .command(.status)
    case .devices: return .command(.devices)
    case .simulate: return .command(.simulate(try simulateAction(&fields)))
    case .explain: return .explain(session: try fields.has(Key.session) ? fields.session() : nil)
    case .record: return .record
    case .open: return .open(session: try fields.session())
    case .follow: return .follow(session: try fields.session())
    case .session: return .session(try fields.session())
    case .route: return .command(.route(session: try fields.session()))
    case .setMode:
      return input(
        .setMode(
          session: try fields.session(), mode: try fields.named(Key.mode, Mode.self, kind: "mode")))
    case .setPreferredInput:
      return input(
        .setPreferredInput(session: try fields.session(), uid: try fields.nullableString(Key.uid)))
    case .set:
      let session = try fields.session()
      let category = try fields.named(
        Key.category, Category.self, kind: "category", plural: "categories")
      let mode: Mode? =
        try fields.has(Key.mode) ? fields.named(Key.mode, Mode.self, kind: "mode") : nil
      var options: CategoryOptions = []
      for name in try fields.optionalStrings(Key.options) ?? [] {
        do {
          options.formUnion(try CategoryOption.parse(name, kind: "category option").bits)
        } catch {
          throw .session(error)
        }
      }
      let policy: RouteSharingPolicy =
        try fields.has(Key.policy)
        ? fields.named(
          Key.policy, RouteSharingPolicy.self, kind: "route-sharing policy",
          plural: "route-sharing policies") : .default
      return input(
        .setCategory(
          session: session, category: category, mode: mode, options: options, policy: policy))
    case .activate:
      return input(.setActive(session: try fields.session(), active: true, options: []))
    case .deactivate:
      let session = try fields.session()
      let notify = try fields.optionalBool(Key.notifyOthers)
      return input(
        .setActive(
          session: session, active: false,
          options: notify ?? false ? .notifyOthersOnDeactivation : []))
    case .play: return input(.startIO(session: try fields.session()))
    case .stop: return input(.stopIO(session: try fields.session()))
    case .override:
      return input(
        .overrideOutput(
          session: try fields.session(),
          try fields.named(Key.port, PortOverride.self, kind: "port override")))
    case .remove: return input(.removeSession(try fields.session()))
    case .appState:
      return input(
        .setAppState(
          session: try fields.session(),
          try fields.named(Key.state, AppState.self, kind: "app state")))
    case .nowPlaying:
      return input(.setNowPlaying(session: try fields.session(), try fields.bool(Key.on)))
    case .inputGain:
      return input(.setInputGain(session: try fields.session(), try fields.number(Key.gain)))
    case .dataSource:
      return input(.setDataSource(session: try fields.session(), try fields.string(Key.name)))
    case .polarPattern:
      let session = try fields.session()
      let source = try fields.string(Key.dataSource)
      var pattern: PolarPattern?
      if let name = try fields.nullableString(Key.pattern) {
        do {
          pattern = try PolarPattern.parse(name, kind: "polar pattern")
        } catch {
          throw .session(error)
        }
      }
      return input(.setPolarPattern(session: session, dataSource: source, pattern))
    case .outputMuted:
      return input(.setOutputMuted(session: try fields.session(), try fields.bool(Key.muted)))
    case .inputMuted:
      return input(.setInputMuted(session: try fields.session(), try fields.bool(Key.muted)))
    case .prefer:
      let session = try fields.session()
      let key = try fields.string(Key.key)
      let value = try fields.string(Key.value)
      do {
        return input(
          .setPreference(session: session, try SessionPreference.parse(key: key, value: value)))
      } catch {
        throw .session(error)
      }
    }
  }

  private static func simulateAction(_ fields: inout WireFields) throws(DaemonError)
    -> SimulationAction
  {
    let name = try fields.string(Key.action)
    func state(_ on: String, _ off: String) throws(DaemonError) -> Bool {
      let value = try fields.string(Key.state)
      guard value == on || value == off else {
        throw .session(
          SessionError(.badParam, "'\(name)' takes state '\(on)' or '\(off)', not '\(value)'"))
      }
      return value == on
    }
    switch SimulateAction(rawValue: name) {
    case .plug: return .plug(preset: try fields.string(Key.preset))
    case .unplug: return .unplug(try fields.string(Key.device))
    case .call:
      let value = try fields.string(Key.state)
      switch value {
      case State.begin, State.end: return .call(active: value == State.begin)
      case State.ring:
        let style =
          try fields.has(Key.style)
          ? fields.named(Key.style, CallStyle.self, kind: "call style") : .fullScreen
        return .callRing(style)
      default:
        throw .session(
          SessionError(
            .badParam,
            "'\(name)' takes state '\(State.ring)', '\(State.begin)' or '\(State.end)', "
              + "not '\(value)'"))
      }
    case .siri: return .siri(active: try state(State.begin, State.end))
    case .alarm: return .alarm(active: try state(State.begin, State.end))
    case .silent: return .silentSwitch(on: try state(State.on, State.off))
    case .lock: return .screenLock(on: try state(State.on, State.off))
    case .micMute: return .micMute(on: try state(State.on, State.off))
    case .serverRestart: return .serverRestart
    case .mediaServices: return .mediaServices(lost: try state(State.lost, State.reset))
    case .volume: return .volume(try fields.number(Key.value))
    case .permission:
      return .recordPermission(
        try fields.named(Key.state, RecordPermission.self, kind: "record permission"))
    case nil:
      throw .session(
        SessionError(
          .badParam,
          "unknown simulate action '\(name)'; valid actions are: "
            + simulateActions.joined(separator: ", ")))
    }
  }
}
