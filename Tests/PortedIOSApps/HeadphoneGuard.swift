import AVFoundation

/// Pauses music when the headphones it played on are pulled out, as Apple's guide for route
/// changes recommends; remembers which output the music is on.
public final class HeadphoneGuard {
  public private(set) var events: [String] = []
  public private(set) var headphonesConnected = false
  private let lock = NSLock()
  private var observer: NSObjectProtocol?

  public init() {
    headphonesConnected = HeadphoneGuard.hasHeadphones(
      in: AVAudioSession.sharedInstance().currentRoute)
    observer = NotificationCenter.default.addObserver(
      forName: AVAudioSession.routeChangeNotification, object: nil, queue: nil
    ) { [weak self] notification in
      self?.handleRouteChange(notification)
    }
  }

  deinit {
    if let observer = observer { NotificationCenter.default.removeObserver(observer) }
  }

  private func handleRouteChange(_ notification: Notification) {
    guard let userInfo = notification.userInfo,
      let reasonValue = userInfo[AVAudioSessionRouteChangeReasonKey] as? UInt,
      let reason = AVAudioSession.RouteChangeReason(rawValue: reasonValue)
    else { return }

    switch reason {
    case .newDeviceAvailable:
      let session = AVAudioSession.sharedInstance()
      let connected = HeadphoneGuard.hasHeadphones(in: session.currentRoute)
      update(connected, "new device: " + session.currentRoute.outputs.map { $0.portName }.joined())
    case .oldDeviceUnavailable:
      if let previousRoute =
        userInfo[AVAudioSessionRouteChangePreviousRouteKey] as? AVAudioSessionRouteDescription
      {
        if HeadphoneGuard.hasHeadphones(in: previousRoute) {
          update(false, "pause: headphones removed")
        } else {
          update(headphonesConnected, "device removed")
        }
      }
    default:
      update(headphonesConnected, "route change \(reason.rawValue)")
    }
  }

  private func update(_ connected: Bool, _ event: String) {
    lock.lock()
    headphonesConnected = connected
    events.append(event)
    lock.unlock()
  }

  public var recorded: [String] {
    lock.lock()
    defer { lock.unlock() }
    return events
  }

  static func hasHeadphones(in route: AVAudioSessionRouteDescription) -> Bool {
    return !route.outputs.filter { $0.portType == .headphones }.isEmpty
  }
}
