import AVFoundation

/// A dictation screen's audio session, set up as speech-recognition apps set it up on iOS: record,
/// mode measurement, ducking whatever else plays while the user speaks; deactivated with
/// notifyOthersOnDeactivation when it stops so that the other audio comes back up.
public final class DictationRecorder {
  public private(set) var isListening = false

  public init() {}

  public func startListening() throws {
    let audioSession = AVAudioSession.sharedInstance()
    try audioSession.setCategory(.record, mode: .measurement, options: .duckOthers)
    try audioSession.setActive(true, options: .notifyOthersOnDeactivation)
    isListening = true
  }

  public func stopListening() throws {
    isListening = false
    try AVAudioSession.sharedInstance().setActive(false, options: .notifyOthersOnDeactivation)
  }

  public var options: AVAudioSession.CategoryOptions {
    AVAudioSession.sharedInstance().categoryOptions
  }
}
