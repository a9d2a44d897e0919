// `status`: every session, the devices and the system's state, with the media server and the
// state file when a daemon has them (docs/contract.md "The transcript"; docs/protocol.md "The
// server in `status`", "The state file").

extension JSONKey {
  /// The members of `status` and of its `system`.
  enum Status {
    static let sessions = "sessions", devices = "devices", system = "system"
    static let call = "call", silentSwitch = "silentSwitch", screenLock = "screenLock"
    static let micMuted = "micMuted", callRinging = "callRinging", siri = "siri"
    static let alarm = "alarm", volume = "volume", recordPermission = "recordPermission"
    static let server = "server", stateFile = "stateFile"
    /// Read when there (true when not): no status writes it.
    static let mediaServicesAvailable = "mediaServicesAvailable"
  }

  /// The members of `system.server` and `system.stateFile`.
  enum Server {
    static let name = "name", address = "address", state = "state", since = "since"
    static let attempts = "attempts", path = "path", problems = "problems"
  }
}

extension TranscriptJSON {
  /// `{"sessions":{NAME:{…}},"devices":[…],"system":{…}}`, sessions in creation order and devices
  /// in connection order.
  public static func status(_ status: EngineStatus) -> JSONObject {
    typealias Key = JSONKey.Status
    var sessions: JSONObject = [:]
    for session in status.sessions {
      // Names are unique in a status: no check of each against all before it (10,000 sessions).
      sessions.appendNew(session.name, .object(self.session(session)))
    }
    var system: JSONObject = [
      Key.call: .bool(status.callActive), Key.silentSwitch: .bool(status.silentSwitch),
      Key.screenLock: .bool(status.screenLocked), Key.micMuted: .bool(status.builtInMicMuted),
      Key.callRinging: status.callRinging.map { .string($0.name) } ?? .null,
      Key.siri: .bool(status.siriActive),
    ]
    // Only when not the default (no alarm, 1.0, granted), as in the text.
    if status.alarmActive { system.append(Key.alarm, .bool(true)) }
    if status.outputVolume != 1 { system.append(Key.volume, .double(status.outputVolume)) }
    if status.recordPermission != .granted {
      system.append(Key.recordPermission, .string(status.recordPermission.name))
    }
    if let server = status.server { system.append(Key.server, .object(self.server(server))) }
    // The state file only when something went wrong with it, as in the text.
    if let stateFile = status.stateFile, !stateFile.problems.isEmpty {
      system.append(Key.stateFile, .object(self.stateFile(stateFile)))
    }
    return [
      Key.sessions: .object(sessions),
      Key.devices: .array(status.devices.map { .object(device($0)) }),
      Key.system: .object(system),
    ]
  }

  /// `{"path":"/run/user/1000/audiosession/sessions.json","problems":["…"]}`.
  public static func stateFile(_ stateFile: StateFileStatus) -> JSONObject {
    [
      JSONKey.Server.path: .string(stateFile.path),
      JSONKey.Server.problems: .strings(stateFile.problems),
    ]
  }

  /// `{"name":"PulseAudio server","address":"unix:…","state":"connected","since":"…Z"}`;
  /// a lost server is `"state":"reconnecting"` with `"attempts"` (docs/protocol.md "The server in
  /// `status`").
  public static func server(_ server: MediaServerStatus) -> JSONObject {
    typealias Key = JSONKey.Server
    var object: JSONObject = [
      Key.name: .string(server.name), Key.address: server.address.map(JSONValue.string) ?? .null,
      Key.state: .string(server.stateName),
    ]
    switch server.state {
    case .connected(let since):
      object.append(Key.since, .string(since.iso8601))
    case .reconnecting(let since, let attempts):
      object.append(Key.since, .string(since.iso8601))
      object.append(Key.attempts, .int(attempts))
    }
    return object
  }
}

extension WireDecoding {
  /// ``TranscriptJSON/status(_:)`` read back.
  public static func status(_ object: JSONObject) throws(WireDecodingError) -> EngineStatus {
    typealias Key = JSONKey.Status
    let reader = WireReader(object: object, path: "status")
    var sessions: [SessionStatus] = []
    for member in try reader.object(Key.sessions).members {
      guard case .object(let item) = member.value else {
        throw WireDecodingError("status: session '\(member.key)' must be an object")
      }
      sessions.append(try session(item, name: member.key))
    }
    let devices = try reader.list(Key.devices, device)
    let system = WireReader(object: try reader.object(Key.system), path: "status.system")
    return EngineStatus(
      sessions: sessions, devices: devices, callActive: try system.bool(Key.call),
      silentSwitch: try system.bool(Key.silentSwitch),
      screenLocked: try system.bool(Key.screenLock),
      builtInMicMuted: try system.bool(Key.micMuted),
      mediaServicesAvailable: (try? system.bool(Key.mediaServicesAvailable)) ?? true,
      callRinging: system.object[Key.callRinging] == nil || system.object[Key.callRinging] == .null
        ? nil : try system.named(Key.callRinging, CallStyle.self),
      siriActive: try system.ifPresent(Key.siri, system.bool) ?? false,
      alarmActive: try system.ifPresent(Key.alarm, system.bool) ?? false,
      outputVolume: try volume(system.object[Key.volume]),
      recordPermission: try system.ifPresent(Key.recordPermission) {
        key throws(WireDecodingError) in try system.named(key, RecordPermission.self)
      } ?? .granted,
      server: try system.ifPresent(Key.server) { key throws(WireDecodingError) in
        try server(try system.object(key))
      },
      stateFile: try system.ifPresent(Key.stateFile) { key throws(WireDecodingError) in
        try stateFile(try system.object(key))
      })
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

  /// ``TranscriptJSON/stateFile(_:)`` read back: the daemon's state file.
  public static func stateFile(_ object: JSONObject) throws(WireDecodingError) -> StateFileStatus {
    let reader = WireReader(object: object, path: "status.system.stateFile")
    return StateFileStatus(
      path: try reader.string(JSONKey.Server.path),
      problems: try reader.optionalStrings(JSONKey.Server.problems) ?? [])
  }

  /// ``TranscriptJSON/server(_:)`` read back: the real media server's state.
  public static func server(_ object: JSONObject) throws(WireDecodingError) -> MediaServerStatus {
    typealias Key = JSONKey.Server
    let reader = WireReader(object: object, path: "status.system.server")
    let sinceText = try reader.string(Key.since)
    guard let since = WallTime(iso8601: sinceText) else {
      throw WireDecodingError("status.system.server.since: '\(sinceText)' is not a UTC time")
    }
    let state: MediaServerStatus.State
    switch try reader.string(Key.state) {
    case "connected": state = .connected(since: since)
    case "reconnecting": state = .reconnecting(since: since, attempts: try reader.int(Key.attempts))
    case let other:
      throw WireDecodingError(
        "status.system.server.state: '\(other)' is not one of connected, reconnecting")
    }
    return MediaServerStatus(
      name: try reader.string(Key.name), address: try reader.optionalString(Key.address),
      state: state)
  }
}
