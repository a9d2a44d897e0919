import AudioSession
import AudioSessionWire
import PropertyBased

/// Generators of every value the wire and the transcript carry (docs/protocol.md, docs/contract.md
/// "The transcript"): each enum case, each optional member present and absent, and text that
/// needs escaping. A value the JSON does not carry keeps its default (`mediaServicesAvailable`,
/// a player's desktop entry, the `session` reply's members in a `status` session), so that
/// reading a value back gives the value itself.
enum WireGen {
  /// Free text: names, messages, UIDs; quotes, backslashes, control characters, non-ASCII.
  static let text = Gen<String>.oneOf(
    Gen<String?>.element(of: ["", "music", "a\"b", "x\\y", "é", "tab\there", "\u{01}", "🎵 ✓"])
      .compactMap { $0 },
    Gen<Character>.letterOrNumber.string(of: 0...12))

  /// A valid session name (docs/protocol.md "Operations"), which no other `by` cause spells.
  static let sessionName = Gen<String>.oneOf(
    Gen<String?>.element(of: ["music", "nav", "call-app", "a.b_c-9", "Default", "calls"])
      .compactMap { $0 },
    Gen<Character>.letterOrNumber.string(of: 1...64))

  /// A finite number, as the wire writes it (`String(Double)`): fractions, exponents, whole ones.
  static let number = Gen<Double>.oneOf(
    Gen<Double>.double(in: -1e9...1e9),
    Gen<Double?>.element(of: [0, 1, -0.5, 48000, 0.005, 1e-7, 1e300, 0.1 + 0.2]).compactMap { $0 })

  /// A whole number, including ones past a 32-bit count.
  static let count = Gen<Int>.oneOf(
    Gen<Int>.int(in: 0...64), Gen<Int>.int(in: Int(Int32.max)...(1 << 53)))

  static let pid = Gen<Int32>.int32(in: .min ... .max)

  // MARK: Routes and devices

  static let port = zip(Gen<PortType>.case, text, text).map {
    PortDescription(portType: $0, portName: $1, uid: $2)
  }

  static let route = zip(port.array(of: 0...2), port.array(of: 0...2)).map {
    RouteDescription(inputs: $0, outputs: $1)
  }

  static let device = zip(
    text, text, text.optional,
    zip(Gen<PortType>.case, Gen<PortDirection>.case, text, text).map {
      DevicePort(type: $0, direction: $1, name: $2, uid: $3)
    }.array(of: 0...3)
  ).map { Device(uid: $0, name: $1, preset: $2, ports: $3) }

  // MARK: Notifications

  static let cause = zip(Gen<Int>.int(in: 0...4), sessionName).map { kind, name -> Cause in
    switch kind {
    case 0: .session(name)
    case 1: .call
    case 2: .siri
    case 3: .alarm
    default: .system
    }
  }

  static let playerAction = zip(
    Gen<PlayerAction.Command>.case, text, Gen<Int>.int(in: 0...2), cause,
    Gen<RouteChangeReason>.case
  ).map { command, player, kind, cause, reason -> PlayerAction in
    let playerCause: PlayerCause =
      switch kind {
      case 0: .interruption(by: cause)
      case 1: .interruptionEnded(by: cause)
      default: .pause(reason: reason)
      }
    return PlayerAction(command, player: player, cause: playerCause)
  }

  /// Every event, each of its cases equally likely.
  static let event = zip(
    Gen<Int>.int(in: 0...18), zip(Gen<InterruptionReason>.case, Gen<RouteChangeReason>.case),
    zip(cause, Gen<Bool>.bool), zip(route, route), playerAction,
    zip(Gen<MuteReason>.case, Gen<PromptStyle>.case, Gen<SilenceSecondaryAudioHintType>.case),
    zip(
      Gen<DeactivationSource>.case, Gen<InterruptionReason>.case.optional,
      Gen<ResumptionRecommendation>.case)
  ).map { kind, reasons, causeAndFlag, routes, action, named, inactive -> SessionEvent in
    let (interruption, routeChange) = reasons
    let (cause, flag) = causeAndFlag
    switch kind {
    case 0: return .interruptionBegan(reason: interruption, by: cause)
    case 1: return .interruptionEnded(options: flag ? .shouldResume : [], by: cause)
    case 2: return .routeChange(reason: routeChange, previous: routes.0, current: routes.1)
    case 3: return .silenceSecondaryAudioHint(named.2)
    case 4: return flag ? .mediaServicesWereLost : .mediaServicesWereReset
    case 5: return .duck(by: cause)
    case 6: return .unduck
    case 7: return .mute(reason: named.0)
    case 8: return .unmute
    case 9: return .pause(reason: routeChange)
    case 10: return .player(action)
    case 11: return .promptStyle(named.1)
    case 12: return .didBecomeActive
    case 13: return .didBecomeInactive(source: inactive.0, reason: inactive.1)
    case 14: return .resumptionRecommendation(inactive.2)
    case 15: return .outputMuteStateChange(muted: flag)
    case 16: return .userIntentToUnmuteOutput
    case 17: return .inputMuteStateChange(muted: flag)
    default: return .availableInputsChange
    }
  }

  static let notification = zip(sessionName, event).map {
    SessionNotification(session: $0, event: $1)
  }

  // MARK: Sessions

  static let options = Gen<CategoryOption>.case.array(of: 0...4).map { CategoryOptions($0) }

  static let player = zip(text, pid.optional, Gen<PlaybackStatus>.case).map {
    MediaPlayer(bus: $0, pid: $1, status: $2)
  }

  /// No owner (a scenario's), the command line's (no more members), or a program's.
  static let ownership = zip(
    Gen<String?>.element(of: ["cli", "client", "run", "app"]).compactMap { $0 }.optional,
    pid.optional, text.optional,
    player.array(of: 0...2)
  ).map { kind, pid, application, players -> SessionOwnership? in
    guard let kind else { return nil }
    return kind == "cli"
      ? SessionOwnership(kind: kind)
      : SessionOwnership(kind: kind, pid: pid, application: application, players: players)
  }

  static let hardware = zip(
    number, number, count, count, number.optional, number.optional
  ).map {
    HardwareValues(
      sampleRate: $0, ioBufferDuration: $1, inputNumberOfChannels: $2, outputNumberOfChannels: $3,
      inputLatency: $4, outputLatency: $5)
  }

  static let preferences = zip(
    number.optional, number.optional, count.optional, count.optional, Gen<Bool>.bool.optional
  ).map { sampleRate, buffer, inputs, outputs, aggregated -> HardwarePreferences in
    var preferences = HardwarePreferences()
    preferences.sampleRate = sampleRate
    preferences.ioBufferDuration = buffer
    preferences.inputNumberOfChannels = inputs
    preferences.outputNumberOfChannels = outputs
    preferences.aggregatedIO = aggregated
    return preferences
  }

  /// A session as `status` shows it: what the `session` reply adds keeps its default.
  static let statusSession = zip(
    zip(text, Gen<Category>.case, Gen<Mode>.case, options, Gen<RouteSharingPolicy>.case),
    Gen<Bool>.bool.array(of: 14), route, port.array(of: 0...2),
    zip(Gen<AppState>.case, Gen<PromptStyle>.case, Gen<Bool>.bool.optional, number),
    zip(text.optional, number.optional, text.optional, Gen<PolarPattern>.case.optional),
    zip(hardware, preferences), ownership
  ).map { named, flags, route, inputs, app, input, values, ownership -> SessionStatus in
    let (name, category, mode, options, policy) = named
    var status = SessionStatus(
      name: name,
      configuration: SessionConfiguration(
        category: category, mode: mode, options: options, policy: policy),
      options: options, active: flags[0], playing: flags[1], interrupted: flags[2],
      ducked: flags[3], muted: flags[4], route: route, portOverride: .none,
      preferredInput: input.0, secondaryAudioShouldBeSilencedHint: flags[5],
      isOtherAudioPlaying: flags[6])
    status.ownership = ownership
    (status.appState, status.promptStyle) = (app.0, app.1)
    status.prefersInterruptionOnRouteDisconnect = app.2
    status.outputVolume = app.3
    status.nowPlaying = flags[7]
    status.outputMuted = flags[8]
    status.inputMuted = flags[9]
    status.prefersNoInterruptionsFromSystemAlerts = flags[10]
    status.prefersEchoCancelledInput = flags[11]
    status.echoCancelledInputAvailable = flags[12]
    status.echoCancelledInputEnabled = flags[13]
    status.availableInputs = inputs
    status.inputGain = input.1
    status.inputDataSource = input.2
    status.inputPolarPattern = input.3
    (status.hardware, status.preferences) = values
    return status
  }

  static let dataSource = zip(
    text, Gen<DataSourceLocation>.case.optional, Gen<DataSourceOrientation>.case.optional,
    Gen<PolarPattern>.case.array(of: 0...4), Gen<PolarPattern>.case.optional,
    Gen<PolarPattern>.case.optional, Gen<Bool>.bool
  ).map {
    DataSourceStatus(
      name: $0, location: $1, orientation: $2, supportedPolarPatterns: $3,
      selectedPolarPattern: $4, preferredPolarPattern: $5, selected: $6)
  }

  /// A session as the `session` reply shows it: every member.
  static let replySession = zip(
    statusSession, Gen<PortOverride>.case, dataSource.array(of: 0...3), count, count,
    Gen<RecordPermission>.case
  ).map { session, portOverride, sources, inputs, outputs, permission -> SessionStatus in
    var status = session
    status.portOverride = portOverride
    status.inputDataSourceDetails = sources
    status.inputDataSources = sources.map(\.name)
    status.maximumInputNumberOfChannels = inputs
    status.maximumOutputNumberOfChannels = outputs
    status.recordPermission = permission
    return status
  }

  // MARK: Status

  static let wallTime = Gen<Int>.int(in: 0...4_102_444_799).map { WallTime(seconds: $0) }

  static let server = zip(text, text.optional, wallTime, Gen<Int>.int(in: -1...1_000_000)).map {
    name, address, since, attempts -> MediaServerStatus in
    MediaServerStatus(
      name: name, address: address,
      state: attempts < 0
        ? .connected(since: since) : .reconnecting(since: since, attempts: attempts))
  }

  /// A state file with problems: `status` shows it only then.
  static let stateFile = zip(text, text.array(of: 1...3)).map {
    StateFileStatus(path: $0, problems: $1)
  }

  /// Sessions of one status have different names.
  static let status = zip(
    statusSession.array(of: 0...3), device.array(of: 0...2), Gen<Bool>.bool.array(of: 6),
    Gen<CallStyle>.case.optional, Gen<Double>.double(in: 0...1), Gen<RecordPermission>.case,
    server.optional, stateFile.optional
  ).map { sessions, devices, flags, ringing, volume, permission, server, stateFile in
    var seen: Set<String> = []
    return EngineStatus(
      sessions: sessions.filter { seen.insert($0.name).inserted }, devices: devices,
      callActive: flags[0], silentSwitch: flags[1], screenLocked: flags[2],
      builtInMicMuted: flags[3], mediaServicesAvailable: true, callRinging: ringing,
      siriActive: flags[4], alarmActive: flags[5], outputVolume: flags[0] ? 1 : volume,
      recordPermission: permission, server: server, stateFile: stateFile)
  }

  // MARK: Errors

  static let error = zip(
    Gen<Bool>.bool, Gen<SessionErrorCode>.case, Gen<ProtocolError.Code>.case, text
  ).map { isSession, sessionCode, protocolCode, message -> DaemonError in
    isSession
      ? .session(SessionError(sessionCode, message))
      : .protocolError(ProtocolError(protocolCode, message))
  }

  // MARK: Requests

  /// A preference as `prefer` sends it: a number with at most six decimals, a count of 1 or
  /// more (docs/contract.md "More of AVAudioSession").
  static let preference = zip(
    Gen<Int>.int(in: 0...7), Gen<Bool>.bool, Gen<Int>.int(in: 1...100_000_000)
  ).map { kind, flag, value -> SessionPreference in
    switch kind {
    case 0: .noInterruptionsFromSystemAlerts(flag)
    case 1: .interruptionOnRouteDisconnect(flag)
    case 2: .sampleRate(Double(value) / 1000)
    case 3: .ioBufferDuration(Double(value) / 1_000_000)
    case 4: .inputNumberOfChannels(value)
    case 5: .outputNumberOfChannels(value)
    case 6: .aggregatedIO(flag)
    default: .echoCancelledInput(flag)
    }
  }

  /// Every app call that has an op (``EngineInput/isAppCall``).
  static let appCall = zip(
    Gen<Int>.int(in: 0...16), sessionName, Gen<Bool>.bool,
    zip(Gen<Category>.case, Gen<Mode>.case.optional, options, Gen<RouteSharingPolicy>.case),
    zip(Gen<PortOverride>.case, Gen<AppState>.case, Gen<PolarPattern>.case.optional),
    zip(text.optional, text, number), preference
  ).map { kind, session, flag, category, named, texts, preference -> EngineInput in
    switch kind {
    case 0:
      .setCategory(
        session: session, category: category.0, mode: category.1, options: category.2,
        policy: category.3)
    case 1: .setMode(session: session, mode: category.1 ?? .default)
    case 2: .setActive(session: session, active: true, options: [])
    case 3:
      .setActive(session: session, active: false, options: flag ? .notifyOthersOnDeactivation : [])
    case 4: .startIO(session: session)
    case 5: .stopIO(session: session)
    case 6: .overrideOutput(session: session, named.0)
    case 7: .setPreferredInput(session: session, uid: texts.0)
    case 8: .removeSession(session)
    case 9: .setAppState(session: session, named.1)
    case 10: .setNowPlaying(session: session, flag)
    case 11: .setPreference(session: session, preference)
    case 12: .setInputGain(session: session, texts.2)
    case 13: .setDataSource(session: session, texts.1)
    case 14: .setPolarPattern(session: session, dataSource: texts.1, named.2)
    case 15: .setOutputMuted(session: session, flag)
    default: .setInputMuted(session: session, flag)
    }
  }

  static let simulation = zip(
    Gen<Int>.int(in: 0...12), Gen<Bool>.bool, text, Gen<CallStyle>.case, number,
    Gen<RecordPermission>.case
  ).map { kind, flag, name, style, volume, permission -> SimulationAction in
    switch kind {
    case 0: .plug(preset: name)
    case 1: .unplug(name)
    case 2: .call(active: flag)
    case 3: .silentSwitch(on: flag)
    case 4: .screenLock(on: flag)
    case 5: .micMute(on: flag)
    case 6: .serverRestart
    case 7: .mediaServices(lost: flag)
    case 8: .callRing(style)
    case 9: .siri(active: flag)
    case 10: .alarm(active: flag)
    case 11: .volume(volume)
    default: .recordPermission(permission)
    }
  }

  /// Every operation, each of its cases equally likely.
  static let operation = zip(
    Gen<Int>.int(in: 0...12), sessionName, sessionName.optional, text.optional,
    Gen<DaemonRequest.WatchFilter>.case, appCall, simulation
  ).map { kind, session, maybe, client, filter, call, action -> DaemonRequest.Operation in
    switch kind {
    case 0: .hello(client: client)
    case 1: .open(session: session)
    case 2: .follow(session: session)
    case 3: .session(session)
    case 4: .explain(session: maybe)
    case 5: .watch(filter)
    case 6: .command(.status)
    case 7: .command(.devices)
    case 8: .command(.route(session: session))
    case 9: .command(.simulate(action))
    case 10: .record
    default: .command(.input(call))
    }
  }

  static let request = zip(operation, Gen<Int>.int().optional, Gen<Int>.int().optional).map {
    DaemonRequest(id: $1, $0, deadline: $2)
  }

  // MARK: Replies

  /// What a reply reads, in wire order: the typed answers, or another member (`daemon`).
  static let body = zip(
    status.optional, route.optional, device.array(of: 0...2).optional, replySession.optional,
    Gen<Int>.int(in: 1...42).optional
  ).map { status, route, devices, session, daemon -> [JSONObject.Member] in
    var object: JSONObject = [:]
    if let status { object.append("status", .object(TranscriptJSON.status(status))) }
    if let route { object.append("route", .object(TranscriptJSON.route(route))) }
    if let devices {
      object.append("devices", .array(devices.map { .object(TranscriptJSON.device($0)) }))
    }
    if let session { object.append("session", .object(WireSession.json(session))) }
    if let daemon { object.append("daemon", ["protocol": 1, "connection": .int(daemon)]) }
    return object.members
  }

  static let reply = zip(
    Gen<Int>.int().optional, error.optional, text.array(of: 0...2), body,
    notification.array(of: 0...3)
  ).map {
    DaemonReply(id: $0, error: $1, warnings: $2, body: $3, notifications: $4)
  }
}
