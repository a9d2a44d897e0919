public import AudioSession
import AudioSessionWire
public import Foundation

// The description classes of AVAudioSessionRoute.h, as NSObject subclasses read from the engine
// when the route is asked for (docs/api-coverage.md): ports, their channels and data sources, and
// the route. Two descriptions are equal when they describe the same port (`uid`) or the same
// ports, so `previousRoute.outputs == session.currentRoute.outputs` compares routes.

/// `AVAudioSessionChannelDescription`: one channel of a port.
open class AVAudioSessionChannelDescription: NSObject, @unchecked Sendable {
  /// `"<port name> <n>"`, as iOS names channels.
  public let channelName: String
  public let owningPortUID: String
  /// 1 for the first channel.
  public let channelNumber: Int
  /// `AudioChannelLabel`: 0 (unknown), as iOS reports for most ports' channels.
  public let channelLabel: UInt32

  init(channelName: String, owningPortUID: String, channelNumber: Int) {
    self.channelName = channelName
    self.owningPortUID = owningPortUID
    self.channelNumber = channelNumber
    channelLabel = 0
    super.init()
  }

  open override func isEqual(_ object: Any?) -> Bool {
    guard let other = object as? AVAudioSessionChannelDescription else { return false }
    return other.owningPortUID == owningPortUID && other.channelNumber == channelNumber
  }

  open override var hash: Int { owningPortUID.hashValue ^ channelNumber }
}

/// `AVAudioSessionDataSourceDescription`: one data source of a port (the built-in mic's Bottom,
/// Front and Back microphones, from `devices.json`'s `hardware.dataSources`), with its location,
/// orientation and polar patterns (docs/avaudiosession.md §7.1).
open class AVAudioSessionDataSourceDescription: NSObject, @unchecked Sendable {
  /// Its position in the port's list, from 0.
  public let dataSourceID: NSNumber
  /// As iOS names them: `Bottom`, `Front`, `Back` (the orientations' strings, which code
  /// compares with `AVAudioSession.Location.orientationFront.rawValue`).
  public let dataSourceName: String
  /// `lower` for the bottom microphone, `upper` for the front and back ones (as on an iPhone).
  public let location: AVAudioSession.Location?
  public let orientation: AVAudioSession.Orientation?
  /// nil for a data source without selectable patterns. Stereo is offered where the port has
  /// the two channels it needs.
  public let supportedPolarPatterns: [AVAudioSession.PolarPattern]?
  private let lock = NSLock()
  private var preferred: AVAudioSession.PolarPattern?
  private var selected: AVAudioSession.PolarPattern?
  /// The session that read it; nil for a description no session made.
  weak var session: AVAudioSession?

  init(index: Int, _ source: DataSourceStatus, session: AVAudioSession?) {
    dataSourceID = NSNumber(value: index)
    dataSourceName = source.name
    location = source.location.map { AVAudioSession.Location($0.appleName) }
    orientation = source.orientation.map { AVAudioSession.Orientation($0.appleName) }
    let supported = source.supportedPolarPatterns.map(AVAudioSession.PolarPattern.init)
    supportedPolarPatterns = supported.isEmpty ? nil : supported
    preferred = source.preferredPolarPattern.map(AVAudioSession.PolarPattern.init)
    selected = source.selectedPolarPattern.map(AVAudioSession.PolarPattern.init)
    self.session = session
    super.init()
  }

  /// `preferredPolarPattern`: nil until one is set (or for a source without patterns).
  public var preferredPolarPattern: AVAudioSession.PolarPattern? { lock.withLock { preferred } }
  /// `selectedPolarPattern`: the pattern in use, as last read; nil for a source without
  /// patterns.
  public var selectedPolarPattern: AVAudioSession.PolarPattern? { lock.withLock { selected } }

  /// `setPreferredPolarPattern(_:)`: the engine keeps the preference for this data source of the
  /// session's input; it applies at once when the source is selected (a
  /// `routeConfigurationChange`), else once it is. A pattern the source does not support is
  /// `badParam` (-50), as iOS answers a value outside what it offers; nil clears the
  /// preference.
  open func setPreferredPolarPattern(_ pattern: AVAudioSession.PolarPattern?) throws {
    guard let session else {
      throw SessionError(.badParam, "the data source '\(dataSourceName)' belongs to no session")
        .nsError
    }
    var engine: AudioSession.PolarPattern?
    if let pattern {
      guard
        let known = AudioSession.PolarPattern.allCases.first(where: {
          $0.appleName == pattern.rawValue
        })
      else {
        throw SessionError(
          .badParam,
          "unknown polar pattern '\(pattern.rawValue)'; valid: "
            + AudioSession.PolarPattern.allCases.map(\.appleName).joined(separator: ", ")
        ).nsError
      }
      engine = known
    }
    try session.perform(
      .command(
        .input(.setPolarPattern(session: session.name, dataSource: dataSourceName, engine))))
    let now = session.read()?.status.inputDataSourceDetails.first { $0.name == dataSourceName }
    lock.withLock {
      preferred = pattern
      if let now { selected = now.selectedPolarPattern.map(AVAudioSession.PolarPattern.init) }
    }
  }

  open override func isEqual(_ object: Any?) -> Bool {
    guard let other = object as? AVAudioSessionDataSourceDescription else { return false }
    return other.dataSourceName == dataSourceName && other.dataSourceID == dataSourceID
  }

  open override var hash: Int { dataSourceName.hashValue }

  open override var description: String {
    "<AVAudioSessionDataSourceDescription: ID = \(dataSourceID); name = \(dataSourceName)>"
  }
}

extension AVAudioSession.PolarPattern {
  init(_ pattern: AudioSession.PolarPattern) { self.init(pattern.appleName) }
}

/// `AVAudioSessionPortDescription`: one port of a route or of the available inputs.
open class AVAudioSessionPortDescription: NSObject, @unchecked Sendable {
  public let portType: AVAudioSession.Port
  public let portName: String
  /// Unique per port: the device's UID, plus `/hfp` etc. when one device offers several ports.
  public let uid: String
  /// The port's channels as the engine reports them for the session's current route; empty for
  /// a port that is not in it.
  public let channels: [AVAudioSessionChannelDescription]?
  /// The port's data sources; nil when it has none.
  public let dataSources: [AVAudioSessionDataSourceDescription]?
  /// The data source in use (the engine's `inputDataSource`).
  public let selectedDataSource: AVAudioSessionDataSourceDescription?
  /// Whether the port does its own voice processing (Bluetooth HFP and car audio, as on iOS).
  public let hasHardwareVoiceCallProcessing: Bool
  /// No simulated port renders spatial audio.
  public let isSpatialAudioEnabled: Bool = false
  /// The engine's port.
  public let port: PortDescription
  weak var session: AVAudioSession?

  init(
    _ port: PortDescription, channels: Int, dataSources: [DataSourceStatus] = [],
    selected: String? = nil, session: AVAudioSession? = nil
  ) {
    self.port = port
    portType = AVAudioSession.Port(port.portType)
    portName = port.portName
    uid = port.uid
    self.channels = (0..<channels).map {
      AVAudioSessionChannelDescription(
        channelName: "\(port.portName) \($0 + 1)", owningPortUID: port.uid, channelNumber: $0 + 1)
    }
    let sources = dataSources.enumerated().map {
      AVAudioSessionDataSourceDescription(index: $0.offset, $0.element, session: session)
    }
    self.dataSources = sources.isEmpty ? nil : sources
    selectedDataSource = sources.first { $0.dataSourceName == selected }
    hasHardwareVoiceCallProcessing = port.portType == .bluetoothHFP || port.portType == .carAudio
    self.session = session
    super.init()
  }

  /// The data source that will be used: the selected one (preferences are applied at once).
  public var preferredDataSource: AVAudioSessionDataSourceDescription? { selectedDataSource }

  /// `setPreferredDataSource(_:)`: selects one of the port's data sources for the session that
  /// read this port (the engine's `data-source`); nil selects the first.
  open func setPreferredDataSource(_ dataSource: AVAudioSessionDataSourceDescription?) throws {
    guard let session else {
      throw SessionError(.badParam, "the port '\(portName)' belongs to no session").nsError
    }
    guard let dataSources else {
      throw SessionError(.badParam, "the port '\(portName)' has no data sources").nsError
    }
    if let dataSource, !dataSources.contains(dataSource) {
      throw SessionError(
        .badParam,
        "'\(dataSource.dataSourceName)' is not a data source of the port '\(portName)'"
      ).nsError
    }
    try session.setInputDataSource(dataSource ?? dataSources.first)
  }

  open override func isEqual(_ object: Any?) -> Bool {
    guard let other = object as? AVAudioSessionPortDescription else { return false }
    return other.uid == uid && other.portType == portType
  }

  open override var hash: Int { uid.hashValue }

  open override var description: String {
    "<AVAudioSessionPortDescription: type = \(portType.rawValue); name = \(portName); UID = \(uid)>"
  }
}

/// `AVAudioSessionRouteDescription`: the ports a session's audio uses.
open class AVAudioSessionRouteDescription: NSObject, @unchecked Sendable {
  public let inputs: [AVAudioSessionPortDescription]
  public let outputs: [AVAudioSessionPortDescription]
  /// The engine's route.
  public let route: RouteDescription

  init(
    _ route: RouteDescription, inputs: [AVAudioSessionPortDescription],
    outputs: [AVAudioSessionPortDescription]
  ) {
    self.route = route
    self.inputs = inputs
    self.outputs = outputs
    super.init()
  }

  /// `init()`, NSObject's: a route with no inputs and no outputs, which apps make as the
  /// fallback previous route of a route change that carries none.
  public convenience override init() {
    self.init(.empty, inputs: [], outputs: [])
  }

  /// A route as a notification carries it (no session behind it: channels from the port types'
  /// defaults are not known, so none are listed).
  public convenience init(_ route: RouteDescription) {
    self.init(
      route, inputs: route.inputs.map { AVAudioSessionPortDescription($0, channels: 0) },
      outputs: route.outputs.map { AVAudioSessionPortDescription($0, channels: 0) })
  }

  open override func isEqual(_ object: Any?) -> Bool {
    guard let other = object as? AVAudioSessionRouteDescription else { return false }
    return other.route == route
  }

  open override var hash: Int { route.hashValue }

  open override var description: String {
    "<AVAudioSessionRouteDescription: inputs = \(inputs); outputs = \(outputs)>"
  }
}
