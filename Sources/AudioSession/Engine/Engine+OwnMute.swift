/// The app's own mutes: its output (iOS 26 `setOutputMuted(_:)`) and the user's intent to unmute
/// it, and its input (iOS 17 `AVAudioApplication.setInputMuted(_:)`) (docs/avaudiosession.md
/// §1.5, §3; docs/engine.md "Rules").
extension Engine {
  /// `AVAudioApplication.setInputMuted(_:)`: mutes or unmutes the app's input (its samples are
  /// zeroed; not the hardware's mute, ``EngineInput/builtInMicMute(on:)``). Any category may.
  /// When the state changes, an active recording session gets `inputMuteStateChange` at once;
  /// any other session's change "is allowed and will be stored, but it will not trigger a
  /// notification" (AVAudioApplication.h): the session gets it, with the state then, when it
  /// becomes an active recording session (docs/avaudiosession.md §13.6).
  mutating func setInputMuted(_ id: Int, _ muted: Bool) throws(SessionError) {
    try requireMediaServices("set the input mute of \(describe(id))")
    guard sessions[id].inputMuted != muted else { return }
    sessions[id].inputMuted = muted
    if sessions[id].active, records(id) {
      sessions[id].owesInputMuteNotice = false
      post(id, .inputMuteStateChange(muted: muted), because: explaining ? .fixed("§13.6") : nil)
    } else {
      sessions[id].owesInputMuteNotice = true
    }
  }

  /// The session has just become an active recording session (activated, or given a recording
  /// category while active): the input mute stored meanwhile is posted now (§13.6).
  mutating func deliverStoredInputMute(_ id: Int) {
    guard sessions[id].owesInputMuteNotice, sessions[id].active, records(id) else { return }
    sessions[id].owesInputMuteNotice = false
    post(
      id, .inputMuteStateChange(muted: sessions[id].inputMuted),
      because: explaining ? .fixed("§13.6") : nil)
  }

  /// A playAndRecord session given a mode other than default while its output is muted is
  /// unmuted, and told so: "Changing the mode to non-default mode with PlayAndRecord category
  /// will cause the session to unmute" (AVAudioSession.h, `setOutputMuted:error:`;
  /// docs/avaudiosession.md §13.6).
  mutating func unmuteOutputForMode(_ id: Int) {
    let configuration = sessions[id].configuration
    guard sessions[id].outputMuted, configuration.category == .playAndRecord,
      configuration.mode != .default
    else { return }
    setOutputMutedState(id, false)
    post(id, .outputMuteStateChange(muted: false), because: explaining ? .fixed("§13.6") : nil)
  }

  /// `setOutputMuted(_:)`: mutes or unmutes the session's output; posts
  /// `outputMuteStateChange` to the session when the state changes. playAndRecord may mute only
  /// in mode default (`incompatibleCategory`, and nothing changes).
  mutating func setOutputMuted(_ id: Int, _ muted: Bool) throws(SessionError) {
    try requireMediaServices("set the output mute of \(describe(id))")
    let configuration = sessions[id].configuration
    if muted, configuration.category == .playAndRecord, configuration.mode != .default {
      throw refusal(
        SessionError(
          .incompatibleCategory,
          "Cannot mute the output of \(describe(id)): playAndRecord sessions can mute their "
            + "output only in mode default"),
        because: explaining ? .fixed("§1.5") : nil)
    }
    guard sessions[id].outputMuted != muted else { return }
    setOutputMutedState(id, muted)
    post(id, .outputMuteStateChange(muted: muted), because: explaining ? .fixed("§1.5") : nil)
  }

  /// The system volume went up: the user means to hear. A shortFormVideo session whose output
  /// its app muted, and whose app is on screen (the volume buttons act on it), gets
  /// `userIntentToUnmuteOutput`, is unmuted by the system, and gets `outputMuteStateChange`
  /// (false) (docs/avaudiosession.md §3, `shortFormVideo`).
  mutating func unmuteOnVolumeIntent() {
    for id in outputMutedSessions.sorted()
    where sessions[id].configuration.mode == .shortFormVideo
      && sessions[id].appState == .foreground
    {
      post(id, .userIntentToUnmuteOutput, because: explaining ? .fixed("§3") : nil)
      setOutputMutedState(id, false)
      post(id, .outputMuteStateChange(muted: false), because: explaining ? .fixed("§3") : nil)
    }
  }

  /// Records a session's output mute and keeps the index of muted sessions.
  mutating func setOutputMutedState(_ id: Int, _ muted: Bool) {
    sessions[id].outputMuted = muted
    if muted {
      outputMutedSessions.insert(id)
    } else {
      outputMutedSessions.remove(id)
    }
  }
}
