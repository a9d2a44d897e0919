public import AudioSession

/// A reply or notification from the daemon that this library cannot read: a daemon of another
/// version, or not a daemon at all.
public struct WireDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
  public var message: String

  public init(_ message: String) { self.message = message }

  public var description: String { "unreadable message from the daemon: \(message)" }
}

/// Typed reads of one JSON object, each failure naming the member.
package struct WireReader {
  package let object: JSONObject
  package let path: String

  package init(object: JSONObject, path: String) {
    self.object = object
    self.path = path
  }

  package func fail(_ key: String, _ expected: String) -> WireDecodingError {
    WireDecodingError("\(path): \"\(key)\" must be \(expected)")
  }

  package func string(_ key: String) throws(WireDecodingError) -> String {
    guard case .string(let text)? = object[key] else { throw fail(key, "a string") }
    return text
  }

  package func optionalString(_ key: String) throws(WireDecodingError) -> String? {
    switch object[key] {
    case nil, .null?: return nil
    case .string(let text)?: return text
    default: throw fail(key, "a string or null")
    }
  }

  package func int(_ key: String) throws(WireDecodingError) -> Int {
    guard case .int(let number)? = object[key] else { throw fail(key, "an integer") }
    return number
  }

  package func bool(_ key: String) throws(WireDecodingError) -> Bool {
    guard case .bool(let flag)? = object[key] else { throw fail(key, "true or false") }
    return flag
  }

  package func object(_ key: String) throws(WireDecodingError) -> JSONObject {
    guard case .object(let value)? = object[key] else { throw fail(key, "an object") }
    return value
  }

  package func objects(_ key: String) throws(WireDecodingError) -> [JSONObject] {
    guard case .array(let values)? = object[key] else { throw fail(key, "an array of objects") }
    var objects: [JSONObject] = []
    for value in values {
      guard case .object(let item) = value else { throw fail(key, "an array of objects") }
      objects.append(item)
    }
    return objects
  }

  package func strings(_ key: String) throws(WireDecodingError) -> [String] {
    guard let strings = try optionalStrings(key) else { throw fail(key, "an array of strings") }
    return strings
  }

  package func optionalStrings(_ key: String) throws(WireDecodingError) -> [String]? {
    guard let value = object[key] else { return nil }
    guard case .array(let values) = value else { throw fail(key, "an array of strings") }
    var strings: [String] = []
    for value in values {
      guard case .string(let text) = value else { throw fail(key, "an array of strings") }
      strings.append(text)
    }
    return strings
  }

  package func named<Value: NamedCase>(_ key: String, _ type: Value.Type) throws(WireDecodingError)
    -> Value
  {
    let name = try string(key)
    guard let value = Value(name: name) else { throw fail(key, "a known name, not '\(name)'") }
    return value
  }

  /// A model value by name, or nil when the member is missing or null.
  package func optionalNamed<Value: NamedCase>(_ key: String, _ type: Value.Type)
    throws(WireDecodingError) -> Value?
  {
    guard try optionalString(key) != nil else { return nil }
    return try named(key, type)
  }

  /// A list of model values by name.
  package func namedList<Value: NamedCase>(_ key: String, _ type: Value.Type)
    throws(WireDecodingError) -> [Value]
  {
    var values: [Value] = []
    for name in try strings(key) {
      guard let value = Value(name: name) else { throw fail(key, "known names, not '\(name)'") }
      values.append(value)
    }
    return values
  }
}

/// Reads the model's JSON shapes (``TranscriptJSON``'s and the `session` reply's) back.
public enum WireDecoding {
  /// `{"code":…,"rawValue":…,"message":…}`: a ``SessionError`` when the code is
  /// AVAudioSession's, else a ``ProtocolError``.
  public static func error(_ object: JSONObject) throws(WireDecodingError) -> DaemonError {
    let reader = WireReader(object: object, path: "error")
    let code = try reader.string("code")
    let message = try reader.string("message")
    if let sessionCode = SessionErrorCode(name: code) {
      return .session(SessionError(sessionCode, message))
    }
    guard let protocolCode = ProtocolError.Code(rawValue: code) else {
      throw WireDecodingError("error: unknown code '\(code)'")
    }
    return .protocolError(ProtocolError(protocolCode, message))
  }

  /// `{"portType":…,"portName":…,"uid":…}`.
  public static func port(_ object: JSONObject) throws(WireDecodingError) -> PortDescription {
    let reader = WireReader(object: object, path: "port")
    return PortDescription(
      portType: try reader.named("portType", PortType.self),
      portName: try reader.string("portName"), uid: try reader.string("uid"))
  }

  /// `{"inputs":[…],"outputs":[…]}`.
  public static func route(_ object: JSONObject) throws(WireDecodingError) -> RouteDescription {
    let reader = WireReader(object: object, path: "route")
    var inputs: [PortDescription] = []
    for item in try reader.objects("inputs") { inputs.append(try port(item)) }
    var outputs: [PortDescription] = []
    for item in try reader.objects("outputs") { outputs.append(try port(item)) }
    return RouteDescription(inputs: inputs, outputs: outputs)
  }

  /// A device of `devices` or `status`.
  public static func device(_ object: JSONObject) throws(WireDecodingError) -> Device {
    let reader = WireReader(object: object, path: "device")
    var ports: [DevicePort] = []
    for item in try reader.objects("ports") {
      let described = try port(item)
      let direction = try WireReader(object: item, path: "port").string("direction")
      guard let value = PortDirection(rawValue: direction) else {
        throw WireDecodingError("port: unknown direction '\(direction)'")
      }
      ports.append(
        DevicePort(
          type: described.portType, direction: value, name: described.portName,
          uid: described.uid))
    }
    return Device(
      uid: try reader.string("uid"), name: try reader.string("name"),
      preset: try reader.optionalString("preset"), ports: ports)
  }

  /// The `status` object.
  public static func status(_ object: JSONObject) throws(WireDecodingError) -> EngineStatus {
    let reader = WireReader(object: object, path: "status")
    let sessionsObject = try reader.object("sessions")
    var sessions: [SessionStatus] = []
    for member in sessionsObject.members {
      guard case .object(let item) = member.value else {
        throw WireDecodingError("status: session '\(member.key)' must be an object")
      }
      sessions.append(try session(item, name: member.key))
    }
    var devices: [Device] = []
    for item in try reader.objects("devices") { devices.append(try device(item)) }
    let system = WireReader(object: try reader.object("system"), path: "status.system")
    return EngineStatus(
      sessions: sessions, devices: devices, callActive: try system.bool("call"),
      silentSwitch: try system.bool("silentSwitch"), screenLocked: try system.bool("screenLock"),
      builtInMicMuted: try system.bool("micMuted"),
      mediaServicesAvailable: (try? system.bool("mediaServicesAvailable")) ?? true,
      callRinging: system.object["callRinging"] == nil || system.object["callRinging"] == .null
        ? nil : try system.named("callRinging", CallStyle.self),
      siriActive: system.object["siri"] == nil ? false : try system.bool("siri"),
      alarmActive: system.object["alarm"] == nil ? false : try system.bool("alarm"),
      outputVolume: try WireDecoding.volume(system.object["volume"]),
      recordPermission: system.object["recordPermission"] == nil
        ? .granted : try system.named("recordPermission", RecordPermission.self),
      server: system.object["server"] == nil ? nil : try server(try system.object("server")),
      stateFile: system.object["stateFile"] == nil
        ? nil : try stateFile(try system.object("stateFile")))
  }

  /// `status.system.volume`: absent means 1.0.
  static func volume(_ value: JSONValue?) throws(WireDecodingError) -> Double {
    switch value {
    case nil: return 1
    case .int(let volume)?: return Double(volume)
    case .double(let volume)?: return volume
    default: throw WireDecodingError("status.system.volume must be a number")
    }
  }

  /// `status.system.stateFile`: the daemon's state file (``TranscriptJSON/stateFile(_:)``).
  public static func stateFile(_ object: JSONObject) throws(WireDecodingError) -> StateFileStatus {
    let reader = WireReader(object: object, path: "status.system.stateFile")
    return StateFileStatus(
      path: try reader.string("path"), problems: try reader.optionalStrings("problems") ?? [])
  }

  /// `status.system.server`: the real media server's state (``TranscriptJSON/server(_:)``).
  public static func server(_ object: JSONObject) throws(WireDecodingError) -> MediaServerStatus {
    let reader = WireReader(object: object, path: "status.system.server")
    let sinceText = try reader.string("since")
    guard let since = WallTime(iso8601: sinceText) else {
      throw WireDecodingError("status.system.server.since: '\(sinceText)' is not a UTC time")
    }
    let state: MediaServerStatus.State
    switch try reader.string("state") {
    case "connected": state = .connected(since: since)
    case "reconnecting": state = .reconnecting(since: since, attempts: try reader.int("attempts"))
    case let other:
      throw WireDecodingError(
        "status.system.server.state: '\(other)' is not one of connected, reconnecting")
    }
    return MediaServerStatus(
      name: try reader.string("name"), address: try reader.optionalString("address"),
      state: state)
  }

  /// One session of `status`, or the `session` reply (which adds the members only a session's
  /// owner reads: override, preferred input, the hint and isOtherAudioPlaying).
  public static func session(
    _ object: JSONObject, name: String
  ) throws(WireDecodingError) -> SessionStatus {
    let reader = WireReader(object: object, path: "session '\(name)'")
    var options: CategoryOptions = []
    for option in try reader.strings("options") {
      guard let value = CategoryOption(name: option) else {
        throw WireDecodingError("session '\(name)': unknown option '\(option)'")
      }
      options.formUnion(value.bits)
    }
    let configuration = SessionConfiguration(
      category: try reader.named("category", Category.self),
      mode: try reader.named("mode", Mode.self), options: options,
      policy: object["policy"] == nil
        ? .default : try reader.named("policy", RouteSharingPolicy.self))
    let portOverride: PortOverride =
      object["portOverride"] == nil ? .none : try reader.named("portOverride", PortOverride.self)
    var status = SessionStatus(
      name: name, configuration: configuration, options: options,
      active: try reader.bool("active"), playing: try reader.bool("playing"),
      interrupted: try reader.bool("interrupted"), ducked: try reader.bool("ducked"),
      muted: try reader.bool("muted"), route: try route(try reader.object("route")),
      portOverride: portOverride, preferredInput: try reader.optionalString("preferredInput"),
      secondaryAudioShouldBeSilencedHint:
        object["secondaryAudioShouldBeSilencedHint"] == nil
        ? false : try reader.bool("secondaryAudioShouldBeSilencedHint"),
      // The `session` reply's name, or the status's.
      isOtherAudioPlaying:
        object["isOtherAudioPlaying"] != nil
        ? try reader.bool("isOtherAudioPlaying")
        : object["otherAudioPlaying"] != nil ? try reader.bool("otherAudioPlaying") : false)
    // Every session's status carries the system volume, as iOS's sessions read it.
    switch object["outputVolume"] {
    case .double(let volume)?: status.outputVolume = volume
    case .int(let volume)?: status.outputVolume = Double(volume)
    default: break
    }
    if object["appState"] != nil {
      status.appState = try reader.named("appState", AppState.self)
      status.nowPlaying = try reader.bool("nowPlaying")
      if object["outputMuted"] != nil { status.outputMuted = try reader.bool("outputMuted") }
      if object["inputMuted"] != nil { status.inputMuted = try reader.bool("inputMuted") }
      status.promptStyle = try reader.named("promptStyle", PromptStyle.self)
      status.prefersNoInterruptionsFromSystemAlerts = try reader.bool(
        "prefersNoInterruptionsFromSystemAlerts")
      status.prefersInterruptionOnRouteDisconnect =
        object["prefersInterruptionOnRouteDisconnect"] == .null
        ? nil : try reader.bool("prefersInterruptionOnRouteDisconnect")
      if object["prefersEchoCancelledInput"] != nil {
        status.prefersEchoCancelledInput = try reader.bool("prefersEchoCancelledInput")
        status.echoCancelledInputAvailable = try reader.bool("echoCancelledInputAvailable")
        status.echoCancelledInputEnabled = try reader.bool("echoCancelledInputEnabled")
      }
    }
    if object["availableInputs"] != nil {
      status.availableInputs = []
      for item in try reader.objects("availableInputs") {
        status.availableInputs.append(try port(item))
      }
    }
    if object["sampleRate"] != nil {
      func number(_ key: String) throws(WireDecodingError) -> Double? {
        switch object[key] {
        case nil, .null?: return nil
        case .int(let value)?: return Double(value)
        case .double(let value)?: return value
        default: throw WireDecodingError("session '\(name)': \"\(key)\" must be a number or null")
        }
      }
      func count(_ key: String) throws(WireDecodingError) -> Int? {
        guard let value = try number(key) else { return nil }
        // The daemon's number: one that no Int holds is refused, never converted (which traps).
        guard let count = Int(exactly: value.rounded(.towardZero)) else {
          throw WireDecodingError("session '\(name)': \"\(key)\" must be a whole number")
        }
        return count
      }
      status.hardware = HardwareValues(
        sampleRate: try number("sampleRate") ?? 0,
        ioBufferDuration: try number("ioBufferDuration") ?? 0,
        inputNumberOfChannels: try count("inputNumberOfChannels") ?? 0,
        outputNumberOfChannels: try count("outputNumberOfChannels") ?? 0,
        inputLatency: try number("inputLatency"), outputLatency: try number("outputLatency"))
      status.inputGain = try number("inputGain")
      status.inputDataSource = try reader.optionalString("inputDataSource")
      status.inputPolarPattern = try reader.optionalNamed("inputPolarPattern", PolarPattern.self)
      status.preferences.sampleRate = try number("preferredSampleRate")
      status.preferences.ioBufferDuration = try number("preferredIOBufferDuration")
      status.preferences.inputNumberOfChannels = try count("preferredInputNumberOfChannels")
      status.preferences.outputNumberOfChannels = try count("preferredOutputNumberOfChannels")
      switch try reader.optionalString("aggregatedIOPreference") {
      case nil: status.preferences.aggregatedIO = nil
      case "aggregated": status.preferences.aggregatedIO = true
      case "notSpecified": status.preferences.aggregatedIO = false
      case let other?:
        throw WireDecodingError(
          "session '\(name)': aggregatedIOPreference '\(other)' is not aggregated or notSpecified")
      }
    }
    if object["owner"] != nil {
      var players: [MediaPlayer] = []
      for item in object["players"] == nil ? [] : try reader.objects("players") {
        players.append(try player(item, session: name))
      }
      status.ownership = SessionOwnership(
        kind: try reader.string("owner"),
        pid: object["pid"] == nil
          ? nil : (try? reader.int("pid")).map { Int32(truncatingIfNeeded: $0) },
        application: try reader.optionalString("application"), players: players)
    }
    return status
  }

  /// One of a session's MPRIS players (``TranscriptJSON/player(_:)``).
  static func player(_ object: JSONObject, session: String) throws(WireDecodingError) -> MediaPlayer
  {
    let reader = WireReader(object: object, path: "session '\(session)' player")
    let statusText = try reader.string("playbackStatus")
    guard let status = PlaybackStatus(rawValue: statusText) else {
      throw WireDecodingError(
        "session '\(session)' player: unknown playbackStatus '\(statusText)'; expected "
          + PlaybackStatus.allCases.map(\.rawValue).joined(separator: ", "))
    }
    return MediaPlayer(
      bus: try reader.string("bus"),
      pid: (try? reader.int("pid")).map { Int32(truncatingIfNeeded: $0) }, status: status)
  }
}
