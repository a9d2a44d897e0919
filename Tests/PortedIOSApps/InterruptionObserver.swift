import AVFoundation

/// A player that observes its session with selectors, as iOS apps written
/// before block observers do: `@objc` handlers registered with
/// `addObserver(_:selector:name:object:)`. This file is what
/// `sessionctl port-ios` made of the iOS original
/// (PortedAppsTests+Selectors.swift holds both).
public final class InterruptionObserver: NSObject {
  public private(set) var events: [String] = []

  public override init() {
    super.init()
    let center = NotificationCenter.default
    center.addObserver(
      self, selector: Selector(Self.handleInterruption(_:)),
      name: AVAudioSession.interruptionNotification, object: nil)
    center.addObserver(
      self, selector: Selector(Self.mediaServicesReset),
      name: AVAudioSession.mediaServicesWereResetNotification, object: nil)
  }

  public func start() throws {
    let session = AVAudioSession.sharedInstance()
    try session.setCategory(.playback, mode: .spokenAudio)
    try session.setActive(true)
  }

  private func handleInterruption(_ notification: Notification) {
    guard let value = notification.userInfo?[AVAudioSessionInterruptionTypeKey] as? UInt,
      let type = AVAudioSession.InterruptionType(rawValue: value)
    else { return }
    events.append(type == .began ? "began" : "ended")
  }

  func mediaServicesReset() {
    events.append("reset")
  }
}
