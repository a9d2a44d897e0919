/// What triggered a decision, as `explain` and `--explain` name it (docs/contract.md "Seeing
/// why"): a command as a scenario step would write it, or an input of the system.
extension Command {
  /// The command as a step: `nav activate`, `music set playback --options duckOthers`,
  /// `simulate call begin`, `status`.
  public var stepText: String {
    switch self {
    case .input(.setCategory(let session, let category, let mode, let options, let policy)):
      var words = [session, "set", category.name]
      if let mode { words += ["--mode", mode.name] }
      if policy != .default { words += ["--policy", policy.name] }
      let names = Policy.explicitNames(options).named.map(\.name)
      if !names.isEmpty { words += ["--options", names.joined(separator: ",")] }
      return words.joined(separator: " ")
    case .input(.setActive(let session, true, _)): return "\(session) activate"
    case .input(.setActive(let session, false, let options)):
      return "\(session) deactivate"
        + (options.contains(.notifyOthersOnDeactivation) ? " --notify-others" : "")
    case .input(.startIO(let session)): return "\(session) play"
    case .input(.stopIO(let session)): return "\(session) stop"
    case .input(.overrideOutput(let session, let value)):
      return "\(session) override \(value.name)"
    case .input(.removeSession(let session)): return "\(session) remove"
    case .input(.setAppState(let session, let state)):
      return "\(session) app-state \(state.name)"
    case .input(.setNowPlaying(let session, let on)):
      return "\(session) now-playing \(on ? "on" : "off")"
    case .input(.setPreference(let session, let preference)):
      return "\(session) prefer \(preference.key) \(preference.valueText)"
    case .input(.setInputGain(let session, let gain)):
      return "\(session) input-gain \(SessionPreference.number(gain))"
    case .input(.setDataSource(let session, let name)): return "\(session) data-source \(name)"
    case .input(.setPolarPattern(let session, let source, let pattern)):
      return "\(session) polar-pattern \(pattern?.name ?? "none") --data-source \(source)"
    case .input(.setOutputMuted(let session, let muted)):
      return "\(session) output-muted \(muted ? "on" : "off")"
    case .input(.setInputMuted(let session, let muted)):
      return "\(session) input-muted \(muted ? "on" : "off")"
    // No sessionctl command (`setMode`, `setPreferredInput`: the client library's calls), or
    // none of an app's: the call by name, or the input in words.
    case .input(let input): return input.triggerText
    case .status: return "status"
    case .route(let session): return "\(session) route"
    case .devices: return "devices"
    case .simulate(let action): return "simulate " + action.stepText
    }
  }
}

extension SimulationAction {
  /// `plug headphones`, `call begin`, `silent on`…
  public var stepText: String {
    switch self {
    case .plug(let preset): "plug \(preset)"
    case .unplug(let device): "unplug \(device)"
    case .call(let active): "call \(active ? "begin" : "end")"
    case .silentSwitch(let on): "silent \(on ? "on" : "off")"
    case .screenLock(let on): "lock \(on ? "on" : "off")"
    case .micMute(let on): "mic-mute \(on ? "on" : "off")"
    case .serverRestart: "server-restart"
    case .mediaServices(let lost): "media-services \(lost ? "lost" : "reset")"
    case .callRing(let style): "call ring --style \(style.name)"
    case .siri(let active): "siri \(active ? "begin" : "end")"
    case .alarm(let active): "alarm \(active ? "begin" : "end")"
    case .volume(let volume): "volume \(SessionPreference.number(volume))"
    case .recordPermission(let permission): "permission \(permission.name)"
    }
  }
}

extension EngineInput {
  /// An input as a trigger: the system's events in words (`device connected 'headphones-1'`),
  /// an app's call as its method (`mpv.4242 setActive(true)`).
  public var triggerText: String {
    switch self {
    case .createSession(let name): "\(name) created"
    case .removeSession(let name): "\(name) removed (its app went)"
    case .setCategory(let session, let category, let mode, _, let policy):
      "\(session) setCategory(\(category.name)\(mode.map { ", mode: \($0.name)" } ?? "")"
        + (policy == .default ? ")" : ", policy: \(policy.name))")
    case .setMode(let session, let mode): "\(session) setMode(\(mode.name))"
    case .setActive(let session, let active, let options):
      "\(session) setActive(\(active)\(options.contains(.notifyOthersOnDeactivation) ? ", notifyOthersOnDeactivation" : ""))"
    case .ownCall(let session): "\(session) makes the call"
    case .observed(let session): "\(session) is another program's"
    case .startIO(let session): "\(session) started playing"
    case .stopIO(let session): "\(session) stopped playing"
    case .overrideOutput(let session, let value):
      "\(session) overrideOutputAudioPort(\(value.name))"
    case .setPreferredInput(let session, let uid): "\(session) setPreferredInput(\(uid ?? "nil"))"
    case .deviceConnected(let device): "device connected '\(device.uid)'"
    case .deviceDisconnected(let uid): "device disconnected '\(uid)'"
    case .deviceChosen(let uid, let direction, let session):
      "the user chose '\(uid)' for \(direction.rawValue)" + (session.map { " of \($0)" } ?? "")
    case .call(let active): active ? "a call began" : "the call ended"
    case .callRing(let style): "a call rang (\(style.name))"
    case .siri(let active): active ? "Siri began listening" : "Siri went away"
    case .alarm(let active): active ? "an alarm sounded" : "the alarm was dismissed"
    case .setAppState(let session, let state): "the app of \(session) went \(state.name)"
    case .setNowPlaying(let session, let on):
      "\(session) \(on ? "became" : "stopped being") the Now Playing app"
    case .setPreference(let session, let preference): "\(session) \(preference.setterText)"
    case .setInputGain(let session, let gain):
      "\(session) setInputGain(\(SessionPreference.number(gain)))"
    case .setDataSource(let session, let name): "\(session) setInputDataSource(\(name))"
    case .setPolarPattern(let session, let source, let pattern):
      "\(session) \(source).setPreferredPolarPattern(\(pattern?.name ?? "nil"))"
    case .silentSwitch(let on): "silent switch \(on ? "on" : "off")"
    case .screenLock(let on): "screen lock \(on ? "on" : "off")"
    case .builtInMicMute(let on): "built-in microphone \(on ? "muted" : "unmuted")"
    case .systemVolume(let volume): "system volume \(SessionPreference.number(volume))"
    case .setOutputMuted(let session, let muted): "\(session) setOutputMuted(\(muted))"
    case .setInputMuted(let session, let muted): "\(session) setInputMuted(\(muted))"
    case .recordPermission(let permission): "record permission \(permission.name)"
    case .mediaServicesLost: "the media server went away"
    case .mediaServicesReset: "the media server came back"
    }
  }
}
