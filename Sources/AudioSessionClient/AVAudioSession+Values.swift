import AudioSession

// The integer-valued types nested in AVAudioSession, with Apple's names and raw values
// (docs/avaudiosession.md §1.2–§1.4, §13), the client's own: an app that imports only `AVFAudio`
// sees them and their members without the engine's module, which the client does not re-export
// (docs/modules.md). Where the client hands one to the engine, or takes one from it, it converts
// (`model`, `init(_:)`: exhaustive switches, so that a case the engine gains is not missed);
// the others only carry raw values, the engine's (ClientValueTypesTests).

extension AVAudioSession {
  /// `AVAudioSession.CategoryOptions`.
  public struct CategoryOptions: OptionSet, Sendable, Hashable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }

    public static let mixWithOthers = CategoryOptions(rawValue: 0x1)
    public static let duckOthers = CategoryOptions(rawValue: 0x2)
    /// The name of ``allowBluetoothHFP`` before iOS 26 (the same bit).
    public static let allowBluetooth = CategoryOptions(rawValue: 0x4)
    public static let allowBluetoothHFP = CategoryOptions(rawValue: 0x4)
    public static let defaultToSpeaker = CategoryOptions(rawValue: 0x8)
    /// Includes the `mixWithOthers` bit; the distinguishing bit is 0x10.
    public static let interruptSpokenAudioAndMixWithOthers = CategoryOptions(rawValue: 0x11)
    public static let allowBluetoothA2DP = CategoryOptions(rawValue: 0x20)
    public static let allowAirPlay = CategoryOptions(rawValue: 0x40)
    public static let overrideMutedMicrophoneInterruption = CategoryOptions(rawValue: 0x80)
    public static let farFieldInput = CategoryOptions(rawValue: 1 << 18)
    public static let bluetoothHighQualityRecording = CategoryOptions(rawValue: 1 << 19)

    init(_ options: AudioSession.CategoryOptions) { rawValue = options.rawValue }
    var model: AudioSession.CategoryOptions { .init(rawValue: rawValue) }
  }

  /// `AVAudioSession.SetActiveOptions`.
  public struct SetActiveOptions: OptionSet, Sendable, Hashable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let notifyOthersOnDeactivation = SetActiveOptions(rawValue: 1)

  }

  /// `AVAudioSession.PortOverride`: `speaker` is the FourCC 'spkr'.
  public enum PortOverride: UInt, Sendable, Hashable {
    case none = 0
    case speaker = 0x7370_6B72

    var model: AudioSession.PortOverride { self == .none ? .none : .speaker }
  }

  /// `AVAudioSession.InterruptionType`.
  public enum InterruptionType: UInt, Sendable, Hashable {
    case began = 1
    case ended = 0
  }

  /// `AVAudioSession.InterruptionOptions`.
  public struct InterruptionOptions: OptionSet, Sendable, Hashable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let shouldResume = InterruptionOptions(rawValue: 1)
  }

  /// `AVAudioSession.InterruptionReason`.
  public enum InterruptionReason: UInt, Sendable, Hashable {
    case `default` = 0
    case appWasSuspended = 1
    case builtInMicMuted = 2
    case sceneWasBackgrounded = 3
    case routeDisconnected = 4
    case deviceUnauthenticated = 5

    init(_ reason: AudioSession.InterruptionReason) {
      switch reason {
      case .default: self = .default
      case .appWasSuspended: self = .appWasSuspended
      case .builtInMicMuted: self = .builtInMicMuted
      case .sceneWasBackgrounded: self = .sceneWasBackgrounded
      case .routeDisconnected: self = .routeDisconnected
      case .deviceUnauthenticated: self = .deviceUnauthenticated
      }
    }
  }

  /// `AVAudioSession.RouteChangeReason` (5 is unused).
  public enum RouteChangeReason: UInt, Sendable, Hashable {
    case unknown = 0
    case newDeviceAvailable = 1
    case oldDeviceUnavailable = 2
    case categoryChange = 3
    case override = 4
    case wakeFromSleep = 6
    case noSuitableRouteForCategory = 7
    case routeConfigurationChange = 8
  }

  /// `AVAudioSession.SilenceSecondaryAudioHintType`.
  public enum SilenceSecondaryAudioHintType: UInt, Sendable, Hashable {
    case begin = 1
    case end = 0
  }

  /// `AVAudioSession.ErrorCode`, the codes of the `NSError`s the session throws.
  public enum ErrorCode: Int, Sendable, Hashable {
    case none = 0
    case mediaServicesFailed = 0x6D73_7276  // 'msrv'
    case isBusy = 0x2161_6374  // '!act'
    case incompatibleCategory = 0x2163_6174  // '!cat'
    case cannotInterruptOthers = 0x2169_6E74  // '!int'
    case missingEntitlement = 0x656E_743F  // 'ent?'
    case siriIsRecording = 0x7369_7269  // 'siri'
    case cannotStartPlaying = 0x2170_6C61  // '!pla'
    case cannotStartRecording = 0x2172_6563  // '!rec'
    case badParam = -50
    case insufficientPriority = 0x2170_7269  // '!pri'
    case resourceNotAvailable = 0x2172_6573  // '!res'
    case unspecified = 0x7768_6174  // 'what'
    case expiredSession = 0x2173_6573  // '!ses'
    case sessionNotActive = 0x696E_6163  // 'inac'
  }

  /// `AVAudioSession.RouteSharingPolicy`.
  public enum RouteSharingPolicy: UInt, Sendable, Hashable {
    case `default` = 0
    case longFormAudio = 1
    /// Set by the system only: "Applications should not attempt to set this value".
    case independent = 2
    case longFormVideo = 3

    /// `longForm`: the name `longFormAudio` had in iOS 11.
    @available(*, deprecated, renamed: "longFormAudio")
    public static var longForm: Self { .longFormAudio }

    init(_ policy: AudioSession.RouteSharingPolicy) {
      switch policy {
      case .default: self = .default
      case .longFormAudio: self = .longFormAudio
      case .independent: self = .independent
      case .longFormVideo: self = .longFormVideo
      }
    }

    var model: AudioSession.RouteSharingPolicy {
      switch self {
      case .default: .default
      case .longFormAudio: .longFormAudio
      case .independent: .independent
      case .longFormVideo: .longFormVideo
      }
    }
  }

  /// `AVAudioSession.PromptStyle`: the header's four-character codes.
  public enum PromptStyle: UInt, Sendable, Hashable {
    case none = 0x6E6F_6E65  // 'none'
    case short = 0x7368_7274  // 'shrt'
    case normal = 0x6E72_6D6C  // 'nrml'

    init(_ style: AudioSession.PromptStyle) {
      switch style {
      case .none: self = .none
      case .short: self = .short
      case .normal: self = .normal
      }
    }
  }

  /// `AVAudioSession.DeactivationSource` (iOS 27).
  public enum DeactivationSource: UInt, Sendable, Hashable {
    case app = 1
    case system = 2

    init(_ source: AudioSession.DeactivationSource) { self = source == .app ? .app : .system }
  }

  /// `AVAudioSession.ResumptionRecommendation` (iOS 27).
  public enum ResumptionRecommendation: UInt, Sendable, Hashable {
    case shouldNotResume = 0
    case shouldResume = 1

    init(_ recommendation: AudioSession.ResumptionRecommendation) {
      self = recommendation == .shouldResume ? .shouldResume : .shouldNotResume
    }
  }
}
