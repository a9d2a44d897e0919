import AudioSession
import AudioSessionTestSupport
import Testing

/// The repository's policies load cleanly and say what the spec says.
@Suite struct PolicyContentTests {
  let table: PolicyTable

  init() throws {
    table = try PolicyLoader.load(directory: Repository.policies)
  }

  func policy(_ profile: String? = nil) throws -> Policy {
    try Policy(table: table, profile: profile)
  }

  func validate(
    _ category: Category, _ mode: AudioSession.Mode = .default, _ options: CategoryOptions = [],
    profile: String? = nil
  ) throws -> Result<ValidatedConfiguration, SessionError> {
    try policy(profile).validate(
      SessionConfiguration(category: category, mode: mode, options: options))
  }

  @Test(
    "the repository's policies load with zero problems and eight profiles (docs/contract.md Policies)"
  )
  func load_repositoryPolicies_hasNoProblems() throws {
    let result = Result { () throws(PolicyValidationError) in
      try PolicyLoader.load(directory: Repository.policies)
    }
    if case .failure(let error) = result { Issue.record("problems:\n\(error)") }
    #expect(
      table.profileOrder == [
        "default", "ios18", "ios15", "ios27", "currentDocC", "programmingGuide", "ios26_5",
        "linuxDesktop",
      ])
    #expect(table.defaultProfile == "default")
  }

  @Test(
    "ambient implies mixWithOthers, and duckOthers implies it too (docs/avaudiosession.md §4.2)")
  func effectiveOptions_ambientAndDuckOthers_includeMixWithOthers() throws {
    let policy = try policy()
    #expect(policy.effectiveOptions(SessionConfiguration(category: .ambient)) == .mixWithOthers)
    #expect(
      policy.effectiveOptions(SessionConfiguration(category: .playback, options: .duckOthers))
        == [.duckOthers, .mixWithOthers])
    #expect(policy.isMixable(SessionConfiguration(category: .ambient)))
    #expect(!policy.isMixable(SessionConfiguration(category: .soloAmbient)))
  }

  @Test(
    "defaultToSpeaker only with playAndRecord, with iOS's message (docs/avaudiosession.md §4.1, §4.3)",
    arguments: Category.allCases)
  func validate_defaultToSpeaker_onlyPlayAndRecord(category: Category) throws {
    let result = try validate(category, .default, .defaultToSpeaker)
    switch (category, result) {
    case (.playAndRecord, .success): break
    case (.audioProcessing, .failure(let error)):
      #expect(error.code == .badParam)
    case (_, .failure(let error)):
      #expect(error.code == .badParam)
      #expect(
        error.message
          == "category option 'defaultToSpeaker' is only applicable with category 'playAndRecord'")
    case (_, .success):
      Issue.record("\(category.name) accepted defaultToSpeaker")
    }
  }

  @Test(
    "record + voiceChat fails with badParam naming playAndRecord (docs/avaudiosession.md §3.1)")
  func validate_recordVoiceChat_isBadParam() throws {
    guard case .failure(let error) = try validate(.record, .voiceChat) else {
      Issue.record("record + voiceChat was accepted")
      return
    }
    #expect(error.code == .badParam)
    #expect(
      error.message
        == "mode 'voiceChat' is not valid with category 'record'; "
        + "categories that accept it: playAndRecord"
    )
  }

  @Test(
    "advisory modes warn by default and fail when enforced (docs/avaudiosession.md §3.1, §12 D4)"
  )
  func validate_measurementWithAmbient_followsD4() throws {
    let warned = try validate(.ambient, .measurement).get()
    #expect(warned.warnings.count == 1)
    guard
      case .failure(let error) = try validate(.ambient, .measurement, profile: "programmingGuide")
    else {
      Issue.record("programmingGuide accepted ambient + measurement")
      return
    }
    #expect(error.code == .badParam)
    // moviePlayback is a header restriction: enforced in every profile.
    if case .success = try validate(.ambient, .moviePlayback) {
      Issue.record("moviePlayback with ambient")
    }
  }

  @Test(
    "disputed cells follow the profile's switches (docs/avaudiosession.md §12 D2, D3, D10)"
  )
  func validate_disputedCells_followProfiles() throws {
    func accepted(
      _ category: Category, _ mode: AudioSession.Mode, _ options: CategoryOptions,
      _ profile: String
    ) throws -> Bool {
      if case .success = try validate(category, mode, options, profile: profile) { return true }
      return false
    }
    #expect(try !accepted(.record, .videoChat, [], "default"))
    #expect(try accepted(.record, .videoChat, [], "currentDocC"))
    #expect(try accepted(.ambient, .default, .duckOthers, "default"))
    #expect(try !accepted(.ambient, .default, .duckOthers, "currentDocC"))
    #expect(try accepted(.multiRoute, .default, .mixWithOthers, "default"))
    #expect(try !accepted(.multiRoute, .default, .mixWithOthers, "programmingGuide"))
  }

  @Test(
    "playback + allowBluetoothA2DP: tolerated, but 'what' on iOS 26.5 (docs/avaudiosession.md §12 D5, D8)"
  )
  func validate_playbackA2DP_followsD8() throws {
    #expect(try validate(.playback, .default, .allowBluetoothA2DP).get().warnings.isEmpty)
    guard
      case .failure(let error) = try validate(
        .playback, .default, .allowBluetoothA2DP, profile: "ios26_5")
    else {
      Issue.record("ios26_5 accepted playback + allowBluetoothA2DP")
      return
    }
    #expect(error.code == .unspecified)
  }

  @Test(
    "dualRoute requires allowBluetoothHFP; farFieldInput requires it too (docs/avaudiosession.md §3, §4.1)"
  )
  func validate_requiredOptions_areEnforced() throws {
    guard case .failure(let dual) = try validate(.multiRoute, .dualRoute) else {
      Issue.record("dualRoute without allowBluetoothHFP")
      return
    }
    #expect(dual.message == "mode 'dualRoute' requires option 'allowBluetoothHFP'")
    _ = try validate(.multiRoute, .dualRoute, .allowBluetoothHFP).get()
    guard case .failure(let farField) = try validate(.record, .default, .farFieldInput) else {
      Issue.record("farFieldInput without allowBluetoothHFP")
      return
    }
    #expect(
      farField.message == "option 'farFieldInput' requires option 'allowBluetoothHFP' to be set too"
    )
    _ = try validate(.record, .default, [.farFieldInput, .allowBluetoothHFP]).get()
  }

  @Test(
    "multiRoute takes the mixing options in mode default only and farFieldInput in dualRoute only; other categories are not limited so (docs/avaudiosession.md §4.1, [H27T])",
    arguments: [CategoryOptions.mixWithOthers, .duckOthers, .interruptSpokenAudioAndMixWithOthers])
  func validate_multiRouteOptions_followTheMode(option: CategoryOptions) throws {
    _ = try validate(.multiRoute, .default, option).get()
    guard
      case .failure(let error) = try validate(
        .multiRoute, .dualRoute, option.union(.allowBluetoothHFP))
    else {
      Issue.record("multiRoute + dualRoute accepted \(option)")
      return
    }
    #expect(error.code == .badParam)
    #expect(
      error.message.hasSuffix(
        "is valid with category 'multiRoute' only in mode 'default', not 'dualRoute'"))
    _ = try validate(.playAndRecord, .voiceChat, option).get()
    // farFieldInput: dualRoute only with multiRoute, any mode with playAndRecord.
    let farField: CategoryOptions = [.farFieldInput, .allowBluetoothHFP]
    _ = try validate(.multiRoute, .dualRoute, farField).get()
    guard case .failure(let inDefault) = try validate(.multiRoute, .default, farField) else {
      Issue.record("multiRoute + default accepted farFieldInput")
      return
    }
    #expect(
      inDefault.message
        == "option 'farFieldInput' is valid with category 'multiRoute' only in mode 'dualRoute', not 'default'"
    )
    _ = try validate(.playAndRecord, .voiceChat, farField).get()
  }

  @Test(
    "chat modes imply options for routing, read back only per D13 (docs/avaudiosession.md §4.2, §12 D13)"
  )
  func modes_chatModes_implyOptions() throws {
    let chat = SessionConfiguration(category: .playAndRecord, mode: .videoChat)
    #expect(try policy().routingOptions(chat) == [.allowBluetoothHFP, .defaultToSpeaker])
    #expect(try policy().readBackOptions(chat) == [])
    #expect(
      try policy("currentDocC").readBackOptions(chat) == [.allowBluetoothHFP, .defaultToSpeaker])
    #expect(table.modes[.voiceChat]?.impliedOptions == .allowBluetoothHFP)
  }

  @Test(
    "spoken audio is interrupted, duckOthers ducks, record mutes (docs/avaudiosession.md §5.1 A2–A3, §2)"
  )
  func action_ruleExamples_matchSpec() throws {
    let policy = try policy()
    func action(_ incoming: SessionConfiguration, _ holder: SessionConfiguration)
      -> InteractionAction
    {
      policy.action(incoming: policy.traits(incoming), holder: policy.traits(holder))
    }
    let music = SessionConfiguration(category: .playback)
    let podcast = SessionConfiguration(category: .playback, mode: .spokenAudio)
    let navigation = SessionConfiguration(
      category: .playback, mode: .voicePrompt,
      options: [.duckOthers, .interruptSpokenAudioAndMixWithOthers])
    let game = SessionConfiguration(category: .ambient)
    #expect(action(music, SessionConfiguration(category: .soloAmbient)) == .interrupt)
    #expect(action(navigation, podcast) == .interrupt)
    #expect(action(navigation, music) == .duck)
    #expect(action(SessionConfiguration(category: .record), game) == .mute)
    #expect(action(game, music) == .mix)
  }

  @Test(
    "calls block record, playAndRecord; switch and lock silence ambient (docs/avaudiosession.md §2, §5.1 A5)"
  )
  func interactions_systemActors_matchSpec() {
    let interactions = table.interactions
    #expect(interactions.callBlocksActivation == [.record, .playAndRecord])
    #expect(interactions.callBlocksSetCategory == [.record, .playAndRecord])
    #expect(interactions.silencedBy[.silentSwitch] == [.ambient, .soloAmbient])
    #expect(interactions.silencedBy[.screenLock] == [.ambient, .soloAmbient])
    #expect(interactions.micMuteInterrupts == [.record, .playAndRecord, .multiRoute])
    #expect(interactions.micMuteExemptOption == .overrideMutedMicrophoneInterruption)
  }

  @Test(
    "playAndRecord: receiver unless defaultToSpeaker; multiRoute: all outputs (docs/avaudiosession.md §7.3, §2)"
  )
  func routes_builtInsAndMultiRoute_matchSpec() throws {
    let routes = table.routes
    let playAndRecord = try #require(routes.outputs[.playAndRecord])
    #expect(playAndRecord.builtIn == .builtInReceiver)
    #expect(playAndRecord.builtInWithOption == [.defaultToSpeaker: .builtInSpeaker])
    #expect(playAndRecord.portsWithOption[.allowBluetoothHFP] == [.bluetoothHFP])
    #expect(routes.outputs[.playback]?.ports.contains(.bluetoothA2DP) == true)
    #expect(routes.outputs[.playback]?.ports.contains(.bluetoothHFP) == false)
    #expect(routes.outputs[.multiRoute]?.all == true)
    #expect(routes.inputs[.multiRoute]?.all == false)
    #expect(routes.outputs[.record] == nil)
    #expect(routes.inputs[.playback] == nil)
    #expect(routes.outputs[.audioProcessing] == nil && routes.inputs[.audioProcessing] == nil)
    #expect(routes.devicePortPreference == [.bluetoothHFP, .bluetoothA2DP])
    #expect(
      routes.privateListeningPorts == [
        .headphones, .headsetMic, .bluetoothA2DP, .bluetoothHFP, .bluetoothLE,
      ])
    // AVPlayer-like players are paused; a call only moves (§7.7).
    #expect(routes.pauseCategories == [.ambient, .soloAmbient, .playback])
  }

  @Test(
    "docs/contract.md's presets exist; built-in ones are present at start (docs/contract.md presets)"
  )
  func devices_productPresets_exist() throws {
    let required = [
      "builtInSpeaker", "builtInReceiver", "builtInMic", "headphones", "headset", "bluetoothA2DP",
      "bluetoothHFP", "bluetoothHeadset", "usbAudio", "HDMI", "airPlay", "carAudio", "lineOut",
      "lineIn",
    ]
    let devices = table.devices
    for name in required { #expect(devices.presets[name] != nil, "\(name)") }
    #expect(devices.defaultDevices == ["builtInSpeaker", "builtInReceiver", "builtInMic"])
    #expect(devices.presets["builtInSpeaker"]?.uid == "builtin-speaker")
    #expect(devices.presets["builtInMic"]?.displayName == "Built-In Microphone")
    let headset = try #require(devices.presets["bluetoothHeadset"])
    #expect(headset.ports.map(\.type) == [.bluetoothA2DP, .bluetoothHFP, .bluetoothHFP])
    #expect(headset.ports.map(\.direction) == [.output, .output, .input])
  }

  @Test(
    "preset PulseAudio properties map back to its port types (docs/pulseaudio.md §1.2, §4)",
    arguments: [
      "builtInSpeaker", "builtInReceiver", "builtInMic", "headphones", "headset", "bluetoothA2DP",
      "bluetoothHFP", "bluetoothHeadset", "bluetoothLE", "usbAudio", "HDMI", "airPlay", "carAudio",
      "lineOut", "lineIn",
    ])
  func pulseProperties_everyPreset_mapToItsPorts(name: String) throws {
    let preset = try #require(table.devices.presets[name])
    for port in preset.ports {
      var properties = preset.pulseProperties
      // A device offering several Bluetooth profiles gets bluetooth.protocol per port (README).
      if properties["device.bus"] == "bluetooth", properties["bluetooth.protocol"] == nil,
        properties["api.bluez5.profile"] == nil
      {
        properties["bluetooth.protocol"] =
          port.type == .bluetoothHFP ? "headset_head_unit" : "a2dp_sink"
      }
      #expect(
        Self.pulsePortType(properties, port.direction) == port.type,
        "\(name) \(port.direction.rawValue) \(port.type.name)")
    }
  }

  /// docs/pulseaudio.md §4, top-down, first match wins, on what a port-less simulated device has:
  /// properties, and the port name a real card would have (`audiosession.port_name`).
  static func pulsePortType(_ properties: [String: String], _ direction: PortDirection) -> PortType
  {
    let bus = properties["device.bus"]
    let formFactor = properties["device.form_factor"]
    let profile = properties["bluetooth.protocol"] ?? properties["api.bluez5.profile"] ?? ""
    let portName = properties["audiosession.port_name"] ?? ""
    let output = direction == .output
    if properties.keys.contains(where: { $0.hasPrefix("raop.") }) { return .airPlay }  // 1
    if bus == "bluetooth", profile.hasPrefix("bap") { return .bluetoothLE }  // 2
    if bus == "bluetooth",
      profile.contains("head_unit") || profile.contains("audio_gateway")
        || profile.contains("head-unit")
    {
      return .bluetoothHFP  // 3
    }
    if bus == "bluetooth" { return .bluetoothA2DP }  // 4
    if formFactor == "car" { return .carAudio }  // 5
    if portName.hasPrefix("hdmi-output") { return .HDMI }  // 6
    if bus == "usb" { return .usbAudio }  // 7
    if output, formFactor == "headphone" || formFactor == "headset" { return .headphones }  // 8, 9
    if !output, formFactor == "headset" { return .headsetMic }  // 10
    if output, formFactor == "handset" { return .builtInReceiver }  // 11
    if output, formFactor == "internal" || formFactor == "speaker" { return .builtInSpeaker }  // 12
    if !output, formFactor == "internal" || formFactor == "microphone" { return .builtInMic }  // 13
    if output, portName.contains("lineout") { return .lineOut }  // 14
    if !output, portName.contains("linein") { return .lineIn }  // 15
    return output ? .builtInSpeaker : .builtInMic  // 16
  }
}
