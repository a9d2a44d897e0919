// An engine input in the contract's words, for the daemon's log (docs/apps.md "Rules"): `set mpv.42
// ambient, mode default, options [defaultToSpeaker]`, never Swift's dump of the value
// (`AudioSession.CategoryOptions(rawValue: 10)`, `Optional(…)`).

extension EngineInput: CustomStringConvertible {
  public var description: String {
    switch self {
    case .createSession(let name): "create \(name)"
    case .removeSession(let name): "remove \(name)"
    case .setCategory(let session, let category, let mode, let options, let policy):
      "set \(session) \(category.name), mode \(mode?.name ?? "kept"), options "
        + "[\(options.names.joined(separator: ", "))]"
        + (policy == .default ? "" : ", policy \(policy.name)")
    case .setMode(let session, let mode): "set \(session) mode \(mode.name)"
    case .setActive(let session, let active, let options):
      (active ? "activate \(session)" : "deactivate \(session)")
        + (options.contains(.notifyOthersOnDeactivation) ? " notifying others" : "")
    case .startIO(let session): "play \(session)"
    case .stopIO(let session): "stop \(session)"
    case .overrideOutput(let session, let port): "override \(session) \(port.name)"
    case .setPreferredInput(let session, let uid): "prefer \(session) input \(uid ?? "none")"
    case .deviceConnected(let device): "device \(device.uid) connected"
    case .deviceDisconnected(let uid): "device \(uid) disconnected"
    case .deviceChosen(let uid, let direction, let session):
      "device \(uid) chosen for \(direction.rawValue)" + (session.map { " of \($0)" } ?? "")
    case .call(let active): active ? "call begins" : "call ends"
    case .ownCall(let session): "call of \(session)"
    case .observed(let session): "observe \(session)"
    case .callRing(let style): "call rings (\(style.name))"
    case .siri(let active): active ? "Siri begins" : "Siri ends"
    case .alarm(let active): active ? "an alarm sounds" : "the alarm is dismissed"
    case .setAppState(let session, let state): "app state of \(session) \(state.name)"
    case .setNowPlaying(let session, let on): "now playing \(session) \(on ? "on" : "off")"
    case .setPreference(let session, let preference): "prefer \(session) \(preference)"
    case .setInputGain(let session, let gain): "input gain of \(session) \(gain)"
    case .setDataSource(let session, let name): "data source of \(session) \(name)"
    case .setPolarPattern(let session, let source, let pattern):
      "polar pattern of \(session) \(source) \(pattern?.name ?? "none")"
    case .silentSwitch(let on): "silent switch \(on ? "on" : "off")"
    case .screenLock(let on): "screen lock \(on ? "on" : "off")"
    case .builtInMicMute(let on): "built-in mic \(on ? "muted" : "unmuted")"
    case .systemVolume(let volume): "system volume \(volume)"
    case .setOutputMuted(let session, let muted):
      "output of \(session) \(muted ? "muted" : "unmuted")"
    case .setInputMuted(let session, let muted):
      "input of \(session) \(muted ? "muted" : "unmuted")"
    case .recordPermission(let permission): "record permission \(permission.name)"
    case .mediaServicesLost: "media services lost"
    case .mediaServicesReset: "media services reset"
    }
  }
}
