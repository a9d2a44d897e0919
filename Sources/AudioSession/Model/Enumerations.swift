/// `AVAudioSession.InterruptionType` (docs/avaudiosession.md §1.3).
public enum InterruptionType: UInt, Sendable, Hashable, CaseIterable, NamedCase {
  case began = 1
  case ended = 0

  public var name: String { self == .began ? "began" : "ended" }
}

/// `AVAudioSession.InterruptionOptions` (docs/avaudiosession.md §1.3).
public struct InterruptionOptions: OptionSet, Sendable, Hashable {
  public let rawValue: UInt
  public init(rawValue: UInt) { self.rawValue = rawValue }
  public static let shouldResume = InterruptionOptions(rawValue: 1)

  /// Swift names of the contained options, in bit order.
  public var names: [String] { contains(.shouldResume) ? ["shouldResume"] : [] }
}

/// `AVAudioSession.InterruptionReason` (docs/avaudiosession.md §1.3).
public enum InterruptionReason: UInt, Sendable, Hashable, CaseIterable, NamedCase {
  case `default` = 0
  case appWasSuspended = 1
  case builtInMicMuted = 2
  case sceneWasBackgrounded = 3
  case routeDisconnected = 4
  case deviceUnauthenticated = 5

  public var name: String {
    switch self {
    case .default: "default"
    case .appWasSuspended: "appWasSuspended"
    case .builtInMicMuted: "builtInMicMuted"
    case .sceneWasBackgrounded: "sceneWasBackgrounded"
    case .routeDisconnected: "routeDisconnected"
    case .deviceUnauthenticated: "deviceUnauthenticated"
    }
  }
}

/// `AVAudioSession.RouteChangeReason` (docs/avaudiosession.md §1.3; 5 is unused).
public enum RouteChangeReason: UInt, Sendable, Hashable, CaseIterable, NamedCase {
  case unknown = 0
  case newDeviceAvailable = 1
  case oldDeviceUnavailable = 2
  case categoryChange = 3
  case override = 4
  case wakeFromSleep = 6
  case noSuitableRouteForCategory = 7
  case routeConfigurationChange = 8

  public var name: String {
    switch self {
    case .unknown: "unknown"
    case .newDeviceAvailable: "newDeviceAvailable"
    case .oldDeviceUnavailable: "oldDeviceUnavailable"
    case .categoryChange: "categoryChange"
    case .override: "override"
    case .wakeFromSleep: "wakeFromSleep"
    case .noSuitableRouteForCategory: "noSuitableRouteForCategory"
    case .routeConfigurationChange: "routeConfigurationChange"
    }
  }
}

/// `AVAudioSession.SetActiveOptions` (docs/avaudiosession.md §1.3).
public struct SetActiveOptions: OptionSet, Sendable, Hashable {
  public let rawValue: UInt
  public init(rawValue: UInt) { self.rawValue = rawValue }
  public static let notifyOthersOnDeactivation = SetActiveOptions(rawValue: 1)
}

/// `AVAudioSession.PortOverride` (docs/avaudiosession.md §1.3): `speaker` is the FourCC 'spkr'.
public enum PortOverride: UInt, Sendable, Hashable, CaseIterable, NamedCase {
  case none = 0
  case speaker = 0x7370_6B72

  public var name: String { self == .none ? "none" : "speaker" }
}

/// The app's record permission (`AVAudioApplication.recordPermission`): the system's, the same
/// for every session; granted unless `simulate permission` says otherwise.
public enum RecordPermission: String, Sendable, Hashable, CaseIterable, NamedCase {
  case undetermined, denied, granted

  public var name: String { rawValue }
}

/// `AVAudioSession.SilenceSecondaryAudioHintType` (docs/avaudiosession.md §1.3).
public enum SilenceSecondaryAudioHintType: UInt, Sendable, Hashable, CaseIterable, NamedCase {
  case begin = 1
  case end = 0

  public var name: String { self == .begin ? "begin" : "end" }
}
