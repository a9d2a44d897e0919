import AVFoundation

/// A spoken-word player's audio session handling, as an iOS app writes it.
public final class PodcastPlayer {
  public private(set) var isPlaying = false
  /// What the player did, in order.
  public private(set) var actions: [String] = []

  private let session = AVAudioSession.sharedInstance()
  private var observers: [NSObjectProtocol] = []
  private let lock = NSLock()

  public init() {
    let center = NotificationCenter.default
    observers.append(
      center.addObserver(
        forName: AVAudioSession.interruptionNotification, object: session, queue: nil
      ) { [weak self] notification in
        self?.handleInterruption(notification)
      })
    observers.append(
      center.addObserver(
        forName: AVAudioSession.mediaServicesWereResetNotification, object: session, queue: nil
      ) { [weak self] _ in
        self?.record("reset")
        try? self?.configureSession()
      })
  }

  deinit {
    observers.forEach(NotificationCenter.default.removeObserver)
  }

  public func configureSession() throws {
    try session.setCategory(.playback, mode: .spokenAudio, options: [])
  }

  public func play() throws {
    try configureSession()
    try session.setActive(true)
    setPlaying(true)
    record("play")
  }

  public func pause() {
    setPlaying(false)
    record("pause")
  }

  private func handleInterruption(_ notification: Notification) {
    guard let userInfo = notification.userInfo,
      let typeValue = userInfo[AVAudioSessionInterruptionTypeKey] as? UInt,
      let type = AVAudioSession.InterruptionType(rawValue: typeValue)
    else { return }

    switch type {
    case .began:
      // Being suspended is no reason to change what the user sees.
      if let suspended = userInfo[AVAudioSessionInterruptionWasSuspendedKey] as? NSNumber,
        suspended.boolValue
      {
        return
      }
      setPlaying(false)
      record("interrupted")
    case .ended:
      guard let optionsValue = userInfo[AVAudioSessionInterruptionOptionKey] as? UInt else {
        record("ended without options")
        return
      }
      let options = AVAudioSession.InterruptionOptions(rawValue: optionsValue)
      if options.contains(.shouldResume) {
        do {
          try session.setActive(true)
          setPlaying(true)
          record("resumed")
        } catch {
          record("could not resume: \((error as NSError).code)")
        }
      } else {
        record("stays paused")
      }
    }
  }

  private func setPlaying(_ playing: Bool) {
    lock.lock()
    isPlaying = playing
    lock.unlock()
  }

  private func record(_ action: String) {
    lock.lock()
    actions.append(action)
    lock.unlock()
  }

  public var recorded: [String] {
    lock.lock()
    defer { lock.unlock() }
    return actions
  }
}
