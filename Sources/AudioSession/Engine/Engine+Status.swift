/// Read-only views of the engine's state.
extension Engine {
  /// The whole state, sessions in creation order (none unless `withSessions`).
  public func status(withSessions: Bool = true) -> EngineStatus {
    EngineStatus(
      sessions: withSessions
        ? sessions.indices.filter { sessions[$0].alive }.map(sessionStatus) : [],
      devices: devices, callActive: callActive, silentSwitch: silentSwitch,
      screenLocked: screenLocked, builtInMicMuted: micMuted,
      mediaServicesAvailable: !mediaServicesLost, callRinging: callRinging,
      siriActive: siriActive, alarmActive: alarmActive, outputVolume: outputVolume,
      recordPermission: recordPermission)
  }

  /// One session's state, or nil if there is no such session.
  public func session(named name: String) -> SessionStatus? {
    ids[name].map(sessionStatus)
  }

  /// Whether a session is active, without building its status; nil if there is no such session.
  public func isActive(_ name: String) -> Bool? { ids[name].map { sessions[$0].active } }

  /// Whether a session is the Now Playing app, without building its status; nil if there is no
  /// such session.
  public func isNowPlaying(_ name: String) -> Bool? { ids[name].map { nowPlaying == $0 } }

  /// The devices connected, in connection order.
  public var connectedDevices: [Device] { devices }

  /// Whether a call is in progress (``EngineStatus/callActive``), without building the status.
  public var isCallActive: Bool { callActive }

  func sessionStatus(_ id: Int) -> SessionStatus {
    let session = sessions[id]
    let othersPlaying = activePlayingCount - (session.active && session.playing ? 1 : 0)
    var status = SessionStatus(
      name: session.name, configuration: session.configuration,
      options: policy.readBackOptions(session.configuration), active: session.active,
      playing: session.playing, interrupted: session.interruptedBy != nil,
      ducked: session.duckedBy != nil, muted: session.mutedBy != nil, route: session.route,
      portOverride: session.portOverride, preferredInput: session.preferredInput,
      secondaryAudioShouldBeSilencedHint: !playingNonMixable.subtracting([id]).isEmpty,
      isOtherAudioPlaying: othersPlaying > 0)
    status.appState = session.appState
    status.nowPlaying = nowPlaying == id
    status.outputMuted = session.outputMuted
    status.inputMuted = session.inputMuted
    status.availableInputs = router.availableInputs(
      for: routeKey(id, override: false), devices: devices
    ).map(\.description)
    status.promptStyle = session.promptStyle
    status.prefersNoInterruptionsFromSystemAlerts = session.prefersNoInterruptionsFromSystemAlerts
    status.prefersInterruptionOnRouteDisconnect = session.prefersInterruptionOnRouteDisconnect
    status.prefersEchoCancelledInput = session.prefersEchoCancelledInput
    status.echoCancelledInputAvailable = echoCancelledInputAvailable(id)
    status.echoCancelledInputEnabled = echoCancelledInputEnabled(id)
    status.hardware = hardwareValues(id)
    status.maximumInputNumberOfChannels = maximumChannels(id, .input)
    status.maximumOutputNumberOfChannels = maximumChannels(id, .output)
    status.outputVolume = outputVolume
    status.recordPermission = recordPermission
    status.preferences = session.preferences
    if let input = session.route.inputs.first {
      status.inputGain = inputGains[input.uid] ?? policy.table.devices.hardware.inputGain
      status.inputDataSource = dataSource(of: input)
      status.inputDataSourceDetails = dataSourceStatuses(of: input)
      status.inputDataSources = status.inputDataSourceDetails.map(\.name)
      status.inputPolarPattern =
        status.inputDataSourceDetails.first(where: \.selected)?.selectedPolarPattern
    }
    return status
  }
}
