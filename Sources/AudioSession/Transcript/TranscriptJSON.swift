/// The JSON shapes of the transcript (docs/contract.md "The transcript"), with a fixed key order.
///
/// Names are the model's Swift case names; option lists are in raw-bit order.
public enum TranscriptJSON {
  /// `{"step":N,"command":…,"result":"ok"|"error",…}`: `error` on failure, `warnings` when there
  /// are any, then `status`, `route` or `devices` for the commands that answer them.
  public static func result(_ entry: TranscriptEntry) -> JSONObject {
    var object: JSONObject = ["step": .int(entry.step), "command": .string(entry.command)]
    let result = entry.result
    if let error = result.error {
      object.append("result", "error")
      object.append("error", .object(self.error(error)))
    } else {
      object.append("result", "ok")
    }
    if !result.warnings.isEmpty {
      object.append("warnings", .strings(result.warnings))
    }
    if result.error != nil, let because = result.errorBecause {
      object.append("because", .object(self.because(because)))
    }
    switch result.reply {
    case .status(let status)?: object.append("status", .object(self.status(status)))
    case .route(_, let route)?: object.append("route", .object(self.route(route)))
    case .devices(let devices)?:
      object.append("devices", .array(devices.map { .object(device($0)) }))
    case nil: break
    }
    return object
  }

  /// `{"policy":"interactions.json","path":"rules[3]","profile":"default","switch":null,
  /// "trigger":"nav activate"}`, with `"spec"` (a section of docs/avaudiosession.md) when no
  /// policy table decided (docs/contract.md "Seeing why").
  public static func because(_ because: Because) -> JSONObject {
    let source = because.source
    var object: JSONObject = [
      "policy": source.policy.map(JSONValue.string) ?? .null,
      "path": source.path.map(JSONValue.string) ?? .null,
      "profile": .string(because.profile),
      "switch": source.switchName.map(JSONValue.string) ?? .null,
      "trigger": .string(because.trigger),
    ]
    if let spec = source.specReference { object.append("spec", .string(spec)) }
    return object
  }

  /// `{"code":"badParam","rawValue":-50,"message":…}`.
  public static func error(_ error: SessionError) -> JSONObject {
    [
      "code": .string(error.code.name), "rawValue": .int(error.code.rawValue),
      "message": .string(error.message),
    ]
  }

  /// `{"step":N,"session":S,"event":E,…}` with the event's own fields.
  public static func notification(_ notification: SessionNotification, step: Int) -> JSONObject {
    var object: JSONObject = [
      "step": .int(step), "session": .string(notification.session),
      "event": .string(eventName(notification.event)),
    ]
    switch notification.event {
    case .interruptionBegan(let reason, let cause):
      object.append("type", .string(InterruptionType.began.name))
      object.append("reason", .string(reason.name))
      object.append("by", .string(cause.name))
    case .interruptionEnded(let options, let cause):
      object.append("type", .string(InterruptionType.ended.name))
      object.append("options", .strings(options.names))
      object.append("by", .string(cause.name))
    case .routeChange(let reason, let previous, let current):
      object.append("reason", .string(reason.name))
      object.append("previousRoute", .object(route(previous)))
      object.append("currentRoute", .object(route(current)))
    case .silenceSecondaryAudioHint(let type):
      object.append("type", .string(type.name))
    case .duck(let cause):
      object.append("by", .string(cause.name))
    case .mute(let reason):
      object.append("reason", .string(reason.rawValue))
    case .pause(let reason):
      object.append("reason", .string(reason.name))
    case .player(let action):
      object.append("action", .string(action.command.rawValue))
      object.append("player", .string(action.player))
      object.append("cause", .string(action.cause.name))
      switch action.cause {
      case .interruption(let cause), .interruptionEnded(let cause):
        object.append("by", .string(cause.name))
      case .pause(let reason):
        object.append("reason", .string(reason.name))
      }
    case .promptStyle(let style):
      object.append("style", .string(style.name))
    case .didBecomeInactive(let source, let reason):
      object.append("source", .string(source.name))
      if let reason { object.append("reason", .string(reason.name)) }
    case .resumptionRecommendation(let recommendation):
      object.append("recommendation", .string(recommendation.name))
    case .outputMuteStateChange(let muted), .inputMuteStateChange(let muted):
      object.append("muted", .bool(muted))
    case .mediaServicesWereLost, .mediaServicesWereReset, .unduck, .unmute,
      .userIntentToUnmuteOutput, .availableInputsChange, .didBecomeActive:
      break
    }
    return object
  }

  /// The transcript's `event` value: AVAudioSession's notification name, or what the system did.
  public static func eventName(_ event: SessionEvent) -> String {
    switch event {
    case .interruptionBegan, .interruptionEnded: "interruption"
    case .routeChange: "routeChange"
    case .silenceSecondaryAudioHint: "silenceSecondaryAudioHint"
    case .mediaServicesWereLost: "mediaServicesWereLost"
    case .mediaServicesWereReset: "mediaServicesWereReset"
    case .duck: "duck"
    case .unduck: "unduck"
    case .mute: "mute"
    case .unmute: "unmute"
    case .pause: "pause"
    case .player: "player"
    case .promptStyle: "promptStyle"
    case .didBecomeActive: "didBecomeActive"
    case .didBecomeInactive: "didBecomeInactive"
    case .resumptionRecommendation: "resumptionRecommendation"
    case .outputMuteStateChange: "outputMuteStateChange"
    case .userIntentToUnmuteOutput: "userIntentToUnmuteOutput"
    case .inputMuteStateChange: "inputMuteStateChange"
    case .availableInputsChange: "availableInputsChange"
    }
  }

  /// `{"bus":…,"pid":…,"playbackStatus":…}`: an MPRIS player of an app or `run` session.
  public static func player(_ player: MediaPlayer) -> JSONObject {
    [
      "bus": .string(player.bus), "pid": player.pid.map { .int(Int($0)) } ?? .null,
      "playbackStatus": .string(player.status.rawValue),
    ]
  }

  /// `{"portType":…,"portName":…,"uid":…}`.
  public static func port(_ port: PortDescription) -> JSONObject {
    [
      "portType": .string(port.portType.name), "portName": .string(port.portName),
      "uid": .string(port.uid),
    ]
  }

  /// `{"inputs":[ports],"outputs":[ports]}`.
  public static func route(_ route: RouteDescription) -> JSONObject {
    [
      "inputs": .array(route.inputs.map { .object(port($0)) }),
      "outputs": .array(route.outputs.map { .object(port($0)) }),
    ]
  }

  /// `{"uid":…,"name":…,"preset":…,"ports":[{"portType","portName","uid","direction"}]}`;
  /// `preset` only for devices made from one.
  public static func device(_ device: Device) -> JSONObject {
    var object: JSONObject = ["uid": .string(device.uid), "name": .string(device.name)]
    if let preset = device.preset { object.append("preset", .string(preset)) }
    object.append(
      "ports",
      .array(
        device.ports.map {
          var port = port($0.description)
          port.append("direction", .string($0.direction.rawValue))
          return .object(port)
        }))
    return object
  }

  /// One session of `status`.
  public static func session(_ session: SessionStatus) -> JSONObject {
    var object: JSONObject = [
      "category": .string(session.configuration.category.name),
      "mode": .string(session.configuration.mode.name),
      "options": .strings(session.options.names),
      "policy": .string(session.configuration.policy.name),
      "active": .bool(session.active), "playing": .bool(session.playing),
      "interrupted": .bool(session.interrupted), "ducked": .bool(session.ducked),
      "muted": .bool(session.muted), "route": .object(route(session.route)),
      "appState": .string(session.appState.name), "nowPlaying": .bool(session.nowPlaying),
      "outputMuted": .bool(session.outputMuted), "inputMuted": .bool(session.inputMuted),
      "promptStyle": .string(session.promptStyle.name),
      "prefersNoInterruptionsFromSystemAlerts": .bool(
        session.prefersNoInterruptionsFromSystemAlerts),
      "prefersInterruptionOnRouteDisconnect": session.prefersInterruptionOnRouteDisconnect.map(
        JSONValue.bool) ?? .null,
      "prefersEchoCancelledInput": .bool(session.prefersEchoCancelledInput),
      "echoCancelledInputAvailable": .bool(session.echoCancelledInputAvailable),
      "echoCancelledInputEnabled": .bool(session.echoCancelledInputEnabled),
    ]
    appendHardware(session, to: &object)
    object.append("availableInputs", .array(session.availableInputs.map { .object(port($0)) }))
    // The daemon's status says whose each session is (docs/apps.md "Owners"); a scenario's
    // transcript has no owners, unless it acts out a desktop (docs/contract.md "Desktop steps").
    if let ownership = session.ownership {
      object.append("owner", .string(ownership.kind))
      if ownership.kind != "cli" {
        object.append("pid", ownership.pid.map { .int(Int($0)) } ?? .null)
        object.append("application", ownership.application.map(JSONValue.string) ?? .null)
        object.append("players", .array(ownership.players.map { .object(player($0)) }))
      }
    }
    // What the session's app reads of the others, as the engine computes it (§8), in every
    // status: the daemon's and a scenario's.
    object.append("otherAudioPlaying", .bool(session.isOtherAudioPlaying))
    object.append(
      "secondaryAudioShouldBeSilencedHint", .bool(session.secondaryAudioShouldBeSilencedHint))
    // `outputVolume` is a property of the session on iOS, the same for every session (the
    // system volume): each session's status shows it (docs/contract.md "More of AVAudioSession").
    object.append("outputVolume", .double(session.outputVolume))
    return object
  }

  /// A session's input, hardware values and preferences (docs/contract.md "More of
  /// AVAudioSession").
  static func appendHardware(_ session: SessionStatus, to object: inout JSONObject) {
    func number(_ value: Double?) -> JSONValue { value.map(JSONValue.double) ?? .null }
    func count(_ value: Int?) -> JSONValue { value.map(JSONValue.int) ?? .null }
    let hardware = session.hardware
    let preferences = session.preferences
    object.append("preferredInput", session.preferredInput.map(JSONValue.string) ?? .null)
    object.append("inputGain", number(session.inputGain))
    object.append("inputDataSource", session.inputDataSource.map(JSONValue.string) ?? .null)
    object.append(
      "inputPolarPattern", session.inputPolarPattern.map { .string($0.name) } ?? .null)
    object.append("sampleRate", .double(hardware.sampleRate))
    object.append("ioBufferDuration", .double(hardware.ioBufferDuration))
    object.append("inputNumberOfChannels", .int(hardware.inputNumberOfChannels))
    object.append("outputNumberOfChannels", .int(hardware.outputNumberOfChannels))
    object.append("inputLatency", number(hardware.inputLatency))
    object.append("outputLatency", number(hardware.outputLatency))
    object.append("preferredSampleRate", number(preferences.sampleRate))
    object.append("preferredIOBufferDuration", number(preferences.ioBufferDuration))
    object.append("preferredInputNumberOfChannels", count(preferences.inputNumberOfChannels))
    object.append("preferredOutputNumberOfChannels", count(preferences.outputNumberOfChannels))
    object.append(
      "aggregatedIOPreference",
      preferences.aggregatedIO.map { .string($0 ? "aggregated" : "notSpecified") } ?? .null)
  }

  /// `{"sessions":{NAME:{…}},"devices":[…],"system":{…}}`, sessions in creation order and devices
  /// in connection order.
  public static func status(_ status: EngineStatus) -> JSONObject {
    var sessions: JSONObject = [:]
    for session in status.sessions {
      // Names are unique in a status: no check of each against all before it (10,000 sessions).
      sessions.appendNew(session.name, .object(self.session(session)))
    }
    var system: JSONObject = [
      "call": .bool(status.callActive), "silentSwitch": .bool(status.silentSwitch),
      "screenLock": .bool(status.screenLocked), "micMuted": .bool(status.builtInMicMuted),
      "callRinging": status.callRinging.map { .string($0.name) } ?? .null,
      "siri": .bool(status.siriActive),
    ]
    // Only when not the default (no alarm, 1.0, granted), as in the text.
    if status.alarmActive { system.append("alarm", .bool(true)) }
    if status.outputVolume != 1 { system.append("volume", .double(status.outputVolume)) }
    if status.recordPermission != .granted {
      system.append("recordPermission", .string(status.recordPermission.name))
    }
    if let server = status.server { system.append("server", .object(self.server(server))) }
    // The state file only when something went wrong with it, as in the text.
    if let stateFile = status.stateFile, !stateFile.problems.isEmpty {
      system.append("stateFile", .object(self.stateFile(stateFile)))
    }
    return [
      "sessions": .object(sessions),
      "devices": .array(status.devices.map { .object(device($0)) }),
      "system": .object(system),
    ]
  }

  /// `{"path":"/run/user/1000/audiosession/sessions.json","problems":["…"]}`.
  public static func stateFile(_ stateFile: StateFileStatus) -> JSONObject {
    ["path": .string(stateFile.path), "problems": .strings(stateFile.problems)]
  }

  /// `{"name":"PulseAudio server","address":"unix:…","state":"connected","since":"…Z"}`;
  /// a lost server is `"state":"reconnecting"` with `"attempts"` (docs/protocol.md "The server in
  /// `status`").
  public static func server(_ server: MediaServerStatus) -> JSONObject {
    var object: JSONObject = [
      "name": .string(server.name), "address": server.address.map(JSONValue.string) ?? .null,
      "state": .string(server.stateName),
    ]
    switch server.state {
    case .connected(let since):
      object.append("since", .string(since.iso8601))
    case .reconnecting(let since, let attempts):
      object.append("since", .string(since.iso8601))
      object.append("attempts", .int(attempts))
    }
    return object
  }
}
