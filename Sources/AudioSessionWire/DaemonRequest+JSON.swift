public import AudioSession

// Requests on the wire: `{"v":1,"id":7,"op":"set","session":"music","category":"playback",…}`.

extension DaemonRequest {
  /// The request as one wire message (no newline).
  public var json: JSONObject {
    var object: JSONObject = ["v": .int(WireProtocol.version)]
    if let id { object.append("id", .int(id)) }
    if let deadline { object.append("deadline", .int(deadline)) }
    func op(_ name: String, session: String? = nil) {
      object.append("op", .string(name))
      if let session { object.append("session", .string(session)) }
    }
    switch operation {
    case .hello(let client):
      op("hello")
      if let client { object.append("client", .string(client)) }
    case .open(let session): op("open", session: session)
    case .follow(let session): op("follow", session: session)
    case .session(let session): op("session", session: session)
    case .explain(let session): op("explain", session: session)
    case .watch(let filter):
      op("watch")
      object.append("events", .string(filter.rawValue))
    case .command(.input(let input)): Self.append(input, to: &object)
    case .command(.status): op("status")
    case .command(.route(let session)): op("route", session: session)
    case .command(.devices): op("devices")
    case .command(.simulate(let action)):
      op("simulate")
      Self.append(action, to: &object)
    }
    return object
  }

  /// An app's call (``EngineInput/isAppCall``) as its op; an input of another kind has no op
  /// on the wire, and is sent as `input`, which the daemon refuses as an unknown op: the system's
  /// events come from its backend (or `simulate`), other programs' sessions from their streams.
  private static func append(_ input: EngineInput, to object: inout JSONObject) {
    func op(_ name: String, session: String) {
      object.append("op", .string(name))
      object.append("session", .string(session))
    }
    switch input {
    case .setCategory(let session, let category, let mode, let options, let policy):
      op("set", session: session)
      object.append("category", .string(category.name))
      if let mode { object.append("mode", .string(mode.name)) }
      if policy != .default { object.append("policy", .string(policy.name)) }
      object.append("options", .strings(options.names))
    case .setMode(let session, let mode):
      op("setMode", session: session)
      object.append("mode", .string(mode.name))
    case .setActive(let session, true, _): op("activate", session: session)
    case .setActive(let session, false, let options):
      op("deactivate", session: session)
      object.append("notifyOthers", .bool(options.contains(.notifyOthersOnDeactivation)))
    case .startIO(let session): op("play", session: session)
    case .stopIO(let session): op("stop", session: session)
    case .overrideOutput(let session, let port):
      op("override", session: session)
      object.append("port", .string(port.name))
    case .setPreferredInput(let session, let uid):
      op("setPreferredInput", session: session)
      object.append("uid", uid.map(JSONValue.string) ?? .null)
    case .removeSession(let session): op("remove", session: session)
    case .setAppState(let session, let state):
      op("appState", session: session)
      object.append("state", .string(state.name))
    case .setNowPlaying(let session, let on):
      op("nowPlaying", session: session)
      object.append("on", .bool(on))
    case .setPreference(let session, let preference):
      op("prefer", session: session)
      object.append("key", .string(preference.key))
      object.append("value", .string(preference.valueText))
    case .setInputGain(let session, let gain):
      op("inputGain", session: session)
      object.append("gain", .double(gain))
    case .setDataSource(let session, let name):
      op("dataSource", session: session)
      object.append("name", .string(name))
    case .setPolarPattern(let session, let source, let pattern):
      op("polarPattern", session: session)
      object.append("dataSource", .string(source))
      object.append("pattern", pattern.map { .string($0.name) } ?? .null)
    case .setOutputMuted(let session, let muted):
      op("outputMuted", session: session)
      object.append("muted", .bool(muted))
    case .setInputMuted(let session, let muted):
      op("inputMuted", session: session)
      object.append("muted", .bool(muted))
    case .createSession, .observed, .ownCall, .deviceConnected, .deviceDisconnected,
      .deviceChosen, .call, .callRing, .siri, .alarm, .silentSwitch, .screenLock, .builtInMicMute,
      .systemVolume, .recordPermission, .mediaServicesLost, .mediaServicesReset:
      object.append("op", .string("input"))
      object.append("input", .string(input.description))
    }
  }

  private static func append(_ action: SimulationAction, to object: inout JSONObject) {
    func state(_ on: Bool) -> JSONValue { .string(on ? "on" : "off") }
    switch action {
    case .plug(let preset):
      object.append("action", "plug")
      object.append("preset", .string(preset))
    case .unplug(let device):
      object.append("action", "unplug")
      object.append("device", .string(device))
    case .call(let active):
      object.append("action", "call")
      object.append("state", .string(active ? "begin" : "end"))
    case .silentSwitch(let on):
      object.append("action", "silent")
      object.append("state", state(on))
    case .screenLock(let on):
      object.append("action", "lock")
      object.append("state", state(on))
    case .micMute(let on):
      object.append("action", "mic-mute")
      object.append("state", state(on))
    case .serverRestart:
      object.append("action", "server-restart")
    case .mediaServices(let lost):
      object.append("action", "media-services")
      object.append("state", .string(lost ? "lost" : "reset"))
    case .callRing(let style):
      object.append("action", "call")
      object.append("state", "ring")
      object.append("style", .string(style.name))
    case .siri(let active):
      object.append("action", "siri")
      object.append("state", .string(active ? "begin" : "end"))
    case .alarm(let active):
      object.append("action", "alarm")
      object.append("state", .string(active ? "begin" : "end"))
    case .volume(let volume):
      object.append("action", "volume")
      object.append("value", .double(volume))
    case .recordPermission(let permission):
      object.append("action", "permission")
      object.append("state", .string(permission.name))
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
    switch object["v"] {
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
    id = try fields.optionalInt("id")
    deadline = try fields.optionalInt("deadline")
    operation = try Self.operation(&fields)
    try fields.finish()
  }

  private static func operation(_ fields: inout WireFields) throws(DaemonError) -> Operation {
    let op = try fields.string("op")
    guard operationNames.contains(op) else {
      throw .protocolError(
        ProtocolError(
          .unknownOperation,
          "unknown op '\(op)'; valid ops are: \(operationNames.joined(separator: ", "))"))
    }
    switch op {
    case "hello": return .hello(client: try fields.optionalString("client"))
    case "watch":
      let events = try fields.string("events")
      guard let filter = WatchFilter(rawValue: events) else {
        throw .session(
          SessionError(
            .badParam,
            "unknown watch filter '\(events)'; valid filters are: "
              + WatchFilter.allCases.map(\.rawValue).joined(separator: ", ")))
      }
      return .watch(filter)
    case "status": return .command(.status)
    case "devices": return .command(.devices)
    case "simulate": return .command(.simulate(try simulateAction(&fields)))
    case "explain": return .explain(session: try fields.has("session") ? fields.session() : nil)
    default: break
    }
    let session = try fields.session()
    switch op {
    case "open": return .open(session: session)
    case "follow": return .follow(session: session)
    case "session": return .session(session)
    case "setMode":
      return .command(
        .input(
          .setMode(session: session, mode: try fields.named("mode", Mode.self, kind: "mode"))))
    case "setPreferredInput":
      return .command(
        .input(.setPreferredInput(session: session, uid: try fields.nullableString("uid"))))
    case "set":
      let category = try fields.named(
        "category", Category.self, kind: "category", plural: "categories")
      let mode: Mode? =
        try fields.has("mode") ? fields.named("mode", Mode.self, kind: "mode") : nil
      let names = try fields.optionalStrings("options")
      var options: CategoryOptions = []
      for name in names ?? [] {
        do {
          options.formUnion(try CategoryOption.parse(name, kind: "category option").bits)
        } catch {
          throw .session(error)
        }
      }
      let policy: RouteSharingPolicy =
        try fields.has("policy")
        ? fields.named(
          "policy", RouteSharingPolicy.self, kind: "route-sharing policy",
          plural: "route-sharing policies") : .default
      return .command(
        .input(
          .setCategory(
            session: session, category: category, mode: mode, options: options, policy: policy)))
    case "activate":
      return .command(.input(.setActive(session: session, active: true, options: [])))
    case "deactivate":
      let notify = try fields.optionalBool("notifyOthers")
      return .command(
        .input(
          .setActive(
            session: session, active: false,
            options: notify ?? false ? .notifyOthersOnDeactivation : [])))
    case "play": return .command(.input(.startIO(session: session)))
    case "stop": return .command(.input(.stopIO(session: session)))
    case "override":
      return .command(
        .input(
          .overrideOutput(
            session: session,
            try fields.named("port", PortOverride.self, kind: "port override"))))
    case "remove": return .command(.input(.removeSession(session)))
    case "appState":
      return .command(
        .input(
          .setAppState(
            session: session, try fields.named("state", AppState.self, kind: "app state"))))
    case "nowPlaying":
      return .command(.input(.setNowPlaying(session: session, try fields.bool("on"))))
    case "inputGain":
      return .command(.input(.setInputGain(session: session, try fields.number("gain"))))
    case "dataSource":
      return .command(.input(.setDataSource(session: session, try fields.string("name"))))
    case "polarPattern":
      let source = try fields.string("dataSource")
      var pattern: PolarPattern?
      if let name = try fields.nullableString("pattern") {
        do {
          pattern = try PolarPattern.parse(name, kind: "polar pattern")
        } catch {
          throw .session(error)
        }
      }
      return .command(
        .input(.setPolarPattern(session: session, dataSource: source, pattern)))
    case "outputMuted":
      return .command(.input(.setOutputMuted(session: session, try fields.bool("muted"))))
    case "inputMuted":
      return .command(.input(.setInputMuted(session: session, try fields.bool("muted"))))
    case "prefer":
      let key = try fields.string("key")
      let value = try fields.string("value")
      do {
        return .command(
          .input(
            .setPreference(session: session, try SessionPreference.parse(key: key, value: value))))
      } catch {
        throw .session(error)
      }
    default: return .command(.route(session: session))
    }
  }

  private static func simulateAction(_ fields: inout WireFields) throws(DaemonError)
    -> SimulationAction
  {
    let action = try fields.string("action")
    func state(_ on: String, _ off: String) throws(DaemonError) -> Bool {
      let value = try fields.string("state")
      guard value == on || value == off else {
        throw .session(
          SessionError(.badParam, "'\(action)' takes state '\(on)' or '\(off)', not '\(value)'"))
      }
      return value == on
    }
    switch action {
    case "plug": return .plug(preset: try fields.string("preset"))
    case "unplug": return .unplug(try fields.string("device"))
    case "call":
      let value = try fields.string("state")
      switch value {
      case "begin", "end": return .call(active: value == "begin")
      case "ring":
        let style =
          try fields.has("style")
          ? fields.named("style", CallStyle.self, kind: "call style") : .fullScreen
        return .callRing(style)
      default:
        throw .session(
          SessionError(.badParam, "'call' takes state 'ring', 'begin' or 'end', not '\(value)'"))
      }
    case "siri": return .siri(active: try state("begin", "end"))
    case "alarm": return .alarm(active: try state("begin", "end"))
    case "silent": return .silentSwitch(on: try state("on", "off"))
    case "lock": return .screenLock(on: try state("on", "off"))
    case "mic-mute": return .micMute(on: try state("on", "off"))
    case "server-restart": return .serverRestart
    case "media-services": return .mediaServices(lost: try state("lost", "reset"))
    case "volume": return .volume(try fields.number("value"))
    case "permission":
      return .recordPermission(
        try fields.named("state", RecordPermission.self, kind: "record permission"))
    default:
      throw .session(
        SessionError(
          .badParam,
          "unknown simulate action '\(action)'; valid actions are: "
            + simulateActions.joined(separator: ", ")))
    }
  }
}
