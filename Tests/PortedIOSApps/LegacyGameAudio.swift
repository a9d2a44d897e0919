import AVFoundation

/// Game audio written in the Swift 4 era, still in the old spellings, with the selector call
/// that kept iOS 9 devices working.
public final class LegacyGameAudio {
  public private(set) var interruptions = 0
  private var observer: NSObjectProtocol?

  public init() {
    observer = NotificationCenter.default.addObserver(
      forName: .AVAudioSessionInterruption, object: AVAudioSession.sharedInstance(), queue: nil
    ) { [weak self] note in
      let type = (note.userInfo?[AVAudioSessionInterruptionTypeKey] as? NSNumber)?.uintValue
      if type == AVAudioSessionInterruptionType.began.rawValue {
        self?.interruptions += 1
      }
    }
  }

  deinit {
    if let observer = observer { NotificationCenter.default.removeObserver(observer) }
  }

  /// What a game that supported iOS 9 did: `setCategory(_:mode:options:)` is iOS 10 only.
  public func configureLikeIOS9() {
    let session = AVAudioSession.sharedInstance()
    let selector = NSSelectorFromString("setCategory:error:")
    if session.responds(to: selector) {
      session.perform(selector, with: AVAudioSessionCategoryAmbient)
    }
  }

  public var isAmbient: Bool {
    return AVAudioSession.sharedInstance().category == AVAudioSessionCategoryAmbient
  }

  public func start() throws {
    try AVAudioSession.sharedInstance().setActive(true)
  }
}
