extension EngineInput {
  /// The session the input is about, if any.
  public var session: String? {
    switch self {
    case .createSession(let s), .removeSession(let s), .setCategory(let s, _, _, _, _),
      .setMode(let s, _), .setActive(let s, _, _), .startIO(let s), .observed(let s),
      .stopIO(let s), .overrideOutput(let s, _), .setPreferredInput(let s, _), .ownCall(let s),
      .setAppState(let s, _), .setNowPlaying(let s, _), .setPreference(let s, _),
      .setInputGain(let s, _), .setDataSource(let s, _), .setPolarPattern(let s, _, _),
      .setOutputMuted(let s, _), .setInputMuted(let s, _):
      s
    case .deviceChosen(_, _, let s): s
    case .deviceConnected, .deviceDisconnected, .call, .callRing, .siri, .alarm, .silentSwitch,
      .screenLock, .builtInMicMute, .systemVolume, .recordPermission, .mediaServicesLost,
      .mediaServicesReset:
      nil
    }
  }

  /// Whether the input is one of an app's calls on its session, or a fact of the system about
  /// its app (its state, Now Playing): what a command may carry (``Command/input(_:)``), as
  /// opposed to what the system and the backends observe (devices, calls, Siri…) and what the
  /// daemon says of other programs (`createSession`, `observed`, `ownCall`, `deviceChosen`).
  public var isAppCall: Bool {
    switch self {
    case .setCategory, .setMode, .setActive, .startIO, .stopIO, .overrideOutput,
      .setPreferredInput, .removeSession, .setAppState, .setNowPlaying, .setPreference,
      .setInputGain, .setDataSource, .setPolarPattern, .setOutputMuted, .setInputMuted:
      true
    case .createSession, .observed, .ownCall, .deviceConnected, .deviceDisconnected,
      .deviceChosen, .call, .callRing, .siri, .alarm, .silentSwitch, .screenLock, .builtInMicMute,
      .systemVolume, .recordPermission, .mediaServicesLost, .mediaServicesReset:
      false
    }
  }
}
