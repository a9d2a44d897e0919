import AVKit

/// A video app's route and microphone inspector, written as an iOS app that imports only AVKit
/// (which brings AVFoundation): the previous route of a route change, falling back to an empty
/// route when the notification has none; the built-in microphone's front data source found by
/// its location name; and an observer of the audio engine's configuration change.
public final class RouteInspector {
  public private(set) var previousOutputs: [String] = []
  public private(set) var changes = 0
  public private(set) var engineConfigurationChanges = 0
  private var observers: [NSObjectProtocol] = []

  public init() {
    let center = NotificationCenter.default
    observers.append(
      center.addObserver(
        forName: AVAudioSession.routeChangeNotification, object: nil, queue: nil
      ) { [weak self] notification in
        let previous =
          notification.userInfo?[AVAudioSessionRouteChangePreviousRouteKey]
          as? AVAudioSessionRouteDescription ?? AVAudioSessionRouteDescription()
        self?.previousOutputs = previous.outputs.map { $0.portType.rawValue }
        self?.changes += 1
      })
    observers.append(
      center.addObserver(forName: .AVAudioEngineConfigurationChange, object: nil, queue: nil) {
        [weak self] _ in
        self?.engineConfigurationChanges += 1
      })
  }

  deinit {
    observers.forEach { NotificationCenter.default.removeObserver($0) }
  }

  /// The empty route an app falls back to.
  public static func fallbackRoute() -> AVAudioSessionRouteDescription {
    AVAudioSessionRouteDescription()
  }

  /// The built-in microphone's data source whose name is the front location's, if it has one.
  public static func frontDataSource() -> AVAudioSessionDataSourceDescription? {
    let session = AVAudioSession.sharedInstance()
    let mic = session.availableInputs?.first { $0.portType == .builtInMic }
    return mic?.dataSources?.first {
      $0.dataSourceName == AVAudioSession.Location.orientationFront.rawValue
    }
  }

  /// The deprecated orientation locations' names, as old code compares them.
  public static let locationNames = [
    AVAudioSession.Location.orientationTop, .orientationBottom, .orientationFront,
    .orientationBack, .orientationLeft, .orientationRight,
  ].map { $0.rawValue }

  public func start() throws {
    let session = AVAudioSession.sharedInstance()
    try session.setCategory(.playback, mode: .moviePlayback)
    try session.setActive(true)
  }
}
