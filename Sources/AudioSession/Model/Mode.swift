/// An audio session mode: a specialisation of the category (docs/avaudiosession.md §1.1, §3).
///
/// The raw value is Apple's constant string (`AVAudioSessionModeVoiceChat`).
public enum Mode: String, CaseIterable, Sendable, Hashable, Codable {
  case `default` = "AVAudioSessionModeDefault"
  case voiceChat = "AVAudioSessionModeVoiceChat"
  case gameChat = "AVAudioSessionModeGameChat"
  case videoRecording = "AVAudioSessionModeVideoRecording"
  case measurement = "AVAudioSessionModeMeasurement"
  case moviePlayback = "AVAudioSessionModeMoviePlayback"
  case videoChat = "AVAudioSessionModeVideoChat"
  case spokenAudio = "AVAudioSessionModeSpokenAudio"
  case voicePrompt = "AVAudioSessionModeVoicePrompt"
  case shortFormVideo = "AVAudioSessionModeShortFormVideo"
  case dualRoute = "AVAudioSessionModeDualRoute"

  /// The Swift case name (`voiceChat`).
  public var name: String {
    let prefix = "AVAudioSessionMode"
    let tail = rawValue.dropFirst(prefix.count)
    return tail.prefix(1).lowercased() + tail.dropFirst()
  }
}

extension Mode: NamedCase {}
