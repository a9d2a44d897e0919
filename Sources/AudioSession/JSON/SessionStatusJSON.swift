// One session as `status` shows it, with its owner and players (docs/contract.md "The
// transcript", "More of AVAudioSession"; docs/apps.md "Owners"). The `session` reply adds to it
// (SessionReplyJSON.swift).

extension JSONKey {
  /// The members of a session of `status` (and of the `session` reply, which adds its own).
  package enum Session {
    package static let category = "category", mode = "mode", options = "options"
    package static let policy = "policy"
    static let active = "active", playing = "playing", interrupted = "interrupted"
    static let ducked = "ducked", muted = "muted", route = "route", appState = "appState"
    static let nowPlaying = "nowPlaying", outputMuted = "outputMuted", inputMuted = "inputMuted"
    static let promptStyle = "promptStyle"
    static let prefersNoInterruptionsFromSystemAlerts = "prefersNoInterruptionsFromSystemAlerts"
    static let prefersInterruptionOnRouteDisconnect = "prefersInterruptionOnRouteDisconnect"
    static let prefersEchoCancelledInput = "prefersEchoCancelledInput"
    static let echoCancelledInputAvailable = "echoCancelledInputAvailable"
    static let echoCancelledInputEnabled = "echoCancelledInputEnabled"
    static let availableInputs = "availableInputs", owner = "owner", pid = "pid"
    static let application = "application", players = "players"
    static let otherAudioPlaying = "otherAudioPlaying"
    static let secondaryAudioShouldBeSilencedHint = "secondaryAudioShouldBeSilencedHint"
    static let outputVolume = "outputVolume"
  }

  /// The members of a session's input, hardware values and preferences.
  enum Hardware {
    static let preferredInput = "preferredInput", inputGain = "inputGain"
    static let inputDataSource = "inputDataSource", inputPolarPattern = "inputPolarPattern"
    static let sampleRate = "sampleRate", ioBufferDuration = "ioBufferDuration"
    static let inputNumberOfChannels = "inputNumberOfChannels"
    static let outputNumberOfChannels = "outputNumberOfChannels"
    static let inputLatency = "inputLatency", outputLatency = "outputLatency"
    static let preferredSampleRate = "preferredSampleRate"
    static let preferredIOBufferDuration = "preferredIOBufferDuration"
    static let preferredInputNumberOfChannels = "preferredInputNumberOfChannels"
    static let preferredOutputNumberOfChannels = "preferredOutputNumberOfChannels"
    static let aggregatedIOPreference = "aggregatedIOPreference"
    /// `aggregatedIOPreference`'s values (true, false).
    static let aggregated = "aggregated", notSpecified = "notSpecified"
  }

  /// The members of an MPRIS player.
  enum Player {
    static let bus = "bus", pid = "pid", playbackStatus = "playbackStatus"
  }
}

extension TranscriptJSON {
  /// One session of `status`.
  public static func session(_ session: SessionStatus) -> JSONObject {
    typealias Key = JSONKey.Session
    var object: JSONObject = [
      Key.category: .string(session.configuration.category.name),
      Key.mode: .string(session.configuration.mode.name),
      Key.options: .strings(session.options.names),
      Key.policy: .string(session.configuration.policy.name),
      Key.active: .bool(session.active), Key.playing: .bool(session.playing),
      Key.interrupted: .bool(session.interrupted), Key.ducked: .bool(session.ducked),
      Key.muted: .bool(session.muted), Key.route: .object(route(session.route)),
      Key.appState: .string(session.appState.name), Key.nowPlaying: .bool(session.nowPlaying),
      Key.outputMuted: .bool(session.outputMuted), Key.inputMuted: .bool(session.inputMuted),
      Key.promptStyle: .string(session.promptStyle.name),
      Key.prefersNoInterruptionsFromSystemAlerts: .bool(
        session.prefersNoInterruptionsFromSystemAlerts),
      Key.prefersInterruptionOnRouteDisconnect: session.prefersInterruptionOnRouteDisconnect.map(
        JSONValue.bool) ?? .null,
      Key.prefersEchoCancelledInput: .bool(session.prefersEchoCancelledInput),
      Key.echoCancelledInputAvailable: .bool(session.echoCancelledInputAvailable),
      Key.echoCancelledInputEnabled: .bool(session.echoCancelledInputEnabled),
    ]
    appendHardware(session, to: &object)
    object.append(Key.availableInputs, .array(session.availableInputs.map { .object(port($0)) }))
    // The daemon's status says whose each session is (docs/apps.md "Owners"); a scenario's
    // transcript has no owners, unless it acts out a desktop (docs/contract.md "Desktop steps").
    if let ownership = session.ownership {
      object.append(Key.owner, .string(ownership.kind))
      if ownership.kind != "cli" {
        object.append(Key.pid, ownership.pid.map { .int(Int($0)) } ?? .null)
        object.append(Key.application, ownership.application.map(JSONValue.string) ?? .null)
        object.append(Key.players, .array(ownership.players.map { .object(player($0)) }))
      }
    }
    // What the session's app reads of the others, as the engine computes it (§8), in every
    // status: the daemon's and a scenario's.
    object.append(Key.otherAudioPlaying, .bool(session.isOtherAudioPlaying))
    object.append(
      Key.secondaryAudioShouldBeSilencedHint, .bool(session.secondaryAudioShouldBeSilencedHint))
    // `outputVolume` is a property of the session on iOS, the same for every session (the
    // system volume): each session's status shows it (docs/contract.md "More of AVAudioSession").
    object.append(Key.outputVolume, .double(session.outputVolume))
    return object
  }

  /// A session's input, hardware values and preferences (docs/contract.md "More of
  /// AVAudioSession").
  static func appendHardware(_ session: SessionStatus, to object: inout JSONObject) {
    typealias Key = JSONKey.Hardware
    func number(_ value: Double?) -> JSONValue { value.map(JSONValue.double) ?? .null }
    func count(_ value: Int?) -> JSONValue { value.map(JSONValue.int) ?? .null }
    let hardware = session.hardware
    let preferences = session.preferences
    object.append(Key.preferredInput, session.preferredInput.map(JSONValue.string) ?? .null)
    object.append(Key.inputGain, number(session.inputGain))
    object.append(Key.inputDataSource, session.inputDataSource.map(JSONValue.string) ?? .null)
    object.append(
      Key.inputPolarPattern, session.inputPolarPattern.map { .string($0.name) } ?? .null)
    object.append(Key.sampleRate, .double(hardware.sampleRate))
    object.append(Key.ioBufferDuration, .double(hardware.ioBufferDuration))
    object.append(Key.inputNumberOfChannels, .int(hardware.inputNumberOfChannels))
    object.append(Key.outputNumberOfChannels, .int(hardware.outputNumberOfChannels))
    object.append(Key.inputLatency, number(hardware.inputLatency))
    object.append(Key.outputLatency, number(hardware.outputLatency))
    object.append(Key.preferredSampleRate, number(preferences.sampleRate))
    object.append(Key.preferredIOBufferDuration, number(preferences.ioBufferDuration))
    object.append(Key.preferredInputNumberOfChannels, count(preferences.inputNumberOfChannels))
    object.append(Key.preferredOutputNumberOfChannels, count(preferences.outputNumberOfChannels))
    object.append(
      Key.aggregatedIOPreference,
      preferences.aggregatedIO.map { .string($0 ? Key.aggregated : Key.notSpecified) } ?? .null)
  }

  /// `{"bus":…,"pid":…,"playbackStatus":…}`: an MPRIS player of an app or `run` session.
  public static func player(_ player: MediaPlayer) -> JSONObject {
    [
      JSONKey.Player.bus: .string(player.bus),
      JSONKey.Player.pid: player.pid.map { .int(Int($0)) } ?? .null,
      JSONKey.Player.playbackStatus: .string(player.status.rawValue),
    ]
  }
}

extension WireDecoding {
  /// ``TranscriptJSON/session(_:)`` read back: one session of `status`, or the `session` reply
  /// (which adds the members only a session's owner reads: the override and isOtherAudioPlaying,
  /// SessionReplyJSON.swift). Members a status of an earlier version lacks take their defaults.
  public static func session(
    _ object: JSONObject, name: String
  ) throws(WireDecodingError) -> SessionStatus {
    typealias Key = JSONKey.Session
    let reader = WireReader(object: object, path: "session '\(name)'")
    let options = try reader.categoryOptions(Key.options)
    let configuration = SessionConfiguration(
      category: try reader.named(Key.category, Category.self),
      mode: try reader.named(Key.mode, Mode.self), options: options,
      policy: try reader.ifPresent(Key.policy) { key throws(WireDecodingError) in
        try reader.named(key, RouteSharingPolicy.self)
      } ?? .default)
    let portOverride =
      try reader.ifPresent(JSONKey.SessionReply.portOverride) { key throws(WireDecodingError) in
        try reader.named(key, PortOverride.self)
      } ?? .none
    // The `session` reply's name, or else the status's.
    func otherAudioPlaying() throws(WireDecodingError) -> Bool {
      if let playing = try reader.ifPresent(JSONKey.SessionReply.isOtherAudioPlaying, reader.bool) {
        return playing
      }
      return try reader.ifPresent(Key.otherAudioPlaying, reader.bool) ?? false
    }
    var status = SessionStatus(
      name: name, configuration: configuration, options: options,
      active: try reader.bool(Key.active), playing: try reader.bool(Key.playing),
      interrupted: try reader.bool(Key.interrupted), ducked: try reader.bool(Key.ducked),
      muted: try reader.bool(Key.muted), route: try route(try reader.object(Key.route)),
      portOverride: portOverride,
      preferredInput: try reader.optionalString(JSONKey.Hardware.preferredInput),
      secondaryAudioShouldBeSilencedHint:
        try reader.ifPresent(Key.secondaryAudioShouldBeSilencedHint, reader.bool) ?? false,
      isOtherAudioPlaying: try otherAudioPlaying())
    // Every session's status carries the system volume, as iOS's sessions read it.
    switch object[Key.outputVolume] {
    case .double(let volume)?: status.outputVolume = volume
    case .int(let volume)?: status.outputVolume = Double(volume)
    default: break
    }
    if reader.has(Key.appState) {
      status.appState = try reader.named(Key.appState, AppState.self)
      status.nowPlaying = try reader.bool(Key.nowPlaying)
      if reader.has(Key.outputMuted) { status.outputMuted = try reader.bool(Key.outputMuted) }
      if reader.has(Key.inputMuted) { status.inputMuted = try reader.bool(Key.inputMuted) }
      status.promptStyle = try reader.named(Key.promptStyle, PromptStyle.self)
      status.prefersNoInterruptionsFromSystemAlerts = try reader.bool(
        Key.prefersNoInterruptionsFromSystemAlerts)
      status.prefersInterruptionOnRouteDisconnect =
        object[Key.prefersInterruptionOnRouteDisconnect] == .null
        ? nil : try reader.bool(Key.prefersInterruptionOnRouteDisconnect)
      if reader.has(Key.prefersEchoCancelledInput) {
        status.prefersEchoCancelledInput = try reader.bool(Key.prefersEchoCancelledInput)
        status.echoCancelledInputAvailable = try reader.bool(Key.echoCancelledInputAvailable)
        status.echoCancelledInputEnabled = try reader.bool(Key.echoCancelledInputEnabled)
      }
    }
    if reader.has(Key.availableInputs) {
      status.availableInputs = try reader.list(Key.availableInputs, port)
    }
    if reader.has(JSONKey.Hardware.sampleRate) { try readHardware(reader, into: &status) }
    if reader.has(Key.owner) {
      let players =
        try reader.ifPresent(Key.players) { key throws(WireDecodingError) in
          try reader.list(key) { item throws(WireDecodingError) in
            try player(item, session: name)
          }
        } ?? []
      status.ownership = SessionOwnership(
        kind: try reader.string(Key.owner),
        pid: reader.has(Key.pid)
          ? (try? reader.int(Key.pid)).map { Int32(truncatingIfNeeded: $0) } : nil,
        application: try reader.optionalString(Key.application), players: players)
    }
    return status
  }

  /// ``TranscriptJSON/appendHardware(_:to:)`` read back.
  private static func readHardware(
    _ reader: WireReader, into status: inout SessionStatus
  ) throws(WireDecodingError) {
    typealias Key = JSONKey.Hardware
    func count(_ key: String) throws(WireDecodingError) -> Int? {
      guard let value = try reader.optionalNumber(key) else { return nil }
      // The daemon's number: one that no Int holds is refused, never converted (which traps).
      guard let count = Int(exactly: value.rounded(.towardZero)) else {
        throw WireDecodingError("\(reader.path): \"\(key)\" must be a whole number")
      }
      return count
    }
    status.hardware = HardwareValues(
      sampleRate: try reader.optionalNumber(Key.sampleRate) ?? 0,
      ioBufferDuration: try reader.optionalNumber(Key.ioBufferDuration) ?? 0,
      inputNumberOfChannels: try count(Key.inputNumberOfChannels) ?? 0,
      outputNumberOfChannels: try count(Key.outputNumberOfChannels) ?? 0,
      inputLatency: try reader.optionalNumber(Key.inputLatency),
      outputLatency: try reader.optionalNumber(Key.outputLatency))
    status.inputGain = try reader.optionalNumber(Key.inputGain)
    status.inputDataSource = try reader.optionalString(Key.inputDataSource)
    status.inputPolarPattern = try reader.optionalNamed(Key.inputPolarPattern, PolarPattern.self)
    status.preferences.sampleRate = try reader.optionalNumber(Key.preferredSampleRate)
    status.preferences.ioBufferDuration = try reader.optionalNumber(Key.preferredIOBufferDuration)
    status.preferences.inputNumberOfChannels = try count(Key.preferredInputNumberOfChannels)
    status.preferences.outputNumberOfChannels = try count(Key.preferredOutputNumberOfChannels)
    switch try reader.optionalString(Key.aggregatedIOPreference) {
    case nil: status.preferences.aggregatedIO = nil
    case Key.aggregated?: status.preferences.aggregatedIO = true
    case Key.notSpecified?: status.preferences.aggregatedIO = false
    case let other?:
      throw WireDecodingError(
        "\(reader.path): \(Key.aggregatedIOPreference) '\(other)' is not \(Key.aggregated) or "
          + Key.notSpecified)
    }
  }

  /// ``TranscriptJSON/player(_:)`` read back: one of a session's MPRIS players.
  static func player(_ object: JSONObject, session: String) throws(WireDecodingError) -> MediaPlayer
  {
    let reader = WireReader(object: object, path: "session '\(session)' player")
    let statusText = try reader.string(JSONKey.Player.playbackStatus)
    guard let status = PlaybackStatus(rawValue: statusText) else {
      throw WireDecodingError(
        "\(reader.path): unknown playbackStatus '\(statusText)'; expected "
          + PlaybackStatus.allCases.map(\.rawValue).joined(separator: ", "))
    }
    return MediaPlayer(
      bus: try reader.string(JSONKey.Player.bus),
      pid: (try? reader.int(JSONKey.Player.pid)).map { Int32(truncatingIfNeeded: $0) },
      status: status)
  }
}
