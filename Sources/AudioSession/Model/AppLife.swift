/// The state of the app that owns a session (docs/avaudiosession.md §13.4): iOS refuses some calls
/// from the background and deactivates idle sessions when it suspends the app.
public enum AppState: String, Sendable, Hashable, CaseIterable, NamedCase {
  case foreground
  case background
  case suspended

  public var name: String { rawValue }
}

/// `AVAudioSession.PromptStyle` (docs/avaudiosession.md §13.5): how a voice-prompt app should
/// speak now. The raw values are the header's four-character codes.
public enum PromptStyle: UInt, Sendable, Hashable, CaseIterable, NamedCase {
  /// Another session is using the microphone (Siri listening): play no prompt.
  case none = 0x6E6F_6E65  // 'none'
  /// Siri active but not recording, or a voice call: short, non-verbal prompts.
  case short = 0x7368_7274  // 'shrt'
  case normal = 0x6E72_6D6C  // 'nrml'

  public var name: String {
    switch self {
    case .none: "none"
    case .short: "short"
    case .normal: "normal"
    }
  }
}

/// How an incoming call is presented (docs/avaudiosession.md §13.5,
/// `setPrefersNoInterruptionsFromSystemAlerts`).
public enum CallStyle: String, Sendable, Hashable, CaseIterable, NamedCase {
  case banner
  case fullScreen

  public var name: String { rawValue }
}

/// `AVAudioSession.DeactivationSource` (iOS 27, docs/avaudiosession.md §13.1).
public enum DeactivationSource: UInt, Sendable, Hashable, CaseIterable, NamedCase {
  /// The app deactivated its session.
  case app = 1
  /// The system did (an interruption).
  case system = 2

  public var name: String { self == .app ? "app" : "system" }
}

/// `AVAudioSession.ResumptionRecommendation` (iOS 27, docs/avaudiosession.md §13.1).
public enum ResumptionRecommendation: UInt, Sendable, Hashable, CaseIterable, NamedCase {
  case shouldNotResume = 0
  case shouldResume = 1

  public var name: String { self == .shouldResume ? "shouldResume" : "shouldNotResume" }
}

/// A session preference the `prefer` command sets (docs/contract.md "More of AVAudioSession").
public enum SessionPreference: Sendable, Hashable {
  /// `setPrefersNoInterruptionsFromSystemAlerts(_:)` (iOS 14.5).
  case noInterruptionsFromSystemAlerts(Bool)
  /// `setPrefersInterruptionOnRouteDisconnect(_:)` (iOS 17).
  case interruptionOnRouteDisconnect(Bool)
  /// `setPreferredSampleRate(_:)`, in Hz.
  case sampleRate(Double)
  /// `setPreferredIOBufferDuration(_:)`, in seconds.
  case ioBufferDuration(Double)
  /// `setPreferredInputNumberOfChannels(_:)`.
  case inputNumberOfChannels(Int)
  /// `setPreferredOutputNumberOfChannels(_:)`.
  case outputNumberOfChannels(Int)
  /// `setAggregatedIOPreference(_:)`: true for `aggregated`, false for `notSpecified`.
  case aggregatedIO(Bool)
  /// `setPrefersEchoCancelledInput(_:)` (iOS 18.2).
  case echoCancelledInput(Bool)

  /// The `prefer` command's key.
  public var key: String {
    switch self {
    case .noInterruptionsFromSystemAlerts: "noInterruptionsFromSystemAlerts"
    case .interruptionOnRouteDisconnect: "interruptionOnRouteDisconnect"
    case .sampleRate: "sampleRate"
    case .ioBufferDuration: "ioBufferDuration"
    case .inputNumberOfChannels: "inputNumberOfChannels"
    case .outputNumberOfChannels: "outputNumberOfChannels"
    case .aggregatedIO: "aggregatedIO"
    case .echoCancelledInput: "echoCancelledInput"
    }
  }

  /// The value as typed (`on` / `off`).
  public var valueText: String {
    switch self {
    case .noInterruptionsFromSystemAlerts(let on), .interruptionOnRouteDisconnect(let on),
      .echoCancelledInput(let on):
      on ? "on" : "off"
    case .sampleRate(let value), .ioBufferDuration(let value): Self.number(value)
    case .inputNumberOfChannels(let count), .outputNumberOfChannels(let count): "\(count)"
    case .aggregatedIO(let on): on ? "aggregated" : "notSpecified"
    }
  }

  /// A number as people read it: `48000`, `0.005`, `0.021333` (at most six decimals).
  public static func number(_ value: Double) -> String {
    guard value.isFinite else { return String(value) }
    if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
    let rounded = (value * 1_000_000).rounded() / 1_000_000
    return rounded == rounded.rounded() && abs(rounded) < 1e15
      ? String(Int(rounded)) : String(rounded)
  }

  /// AVAudioSession's setter, for the step text of `--explain`.
  public var setterText: String {
    switch self {
    case .noInterruptionsFromSystemAlerts(let on):
      "setPrefersNoInterruptionsFromSystemAlerts(\(on))"
    case .interruptionOnRouteDisconnect(let on): "setPrefersInterruptionOnRouteDisconnect(\(on))"
    case .sampleRate(let value): "setPreferredSampleRate(\(Self.number(value)))"
    case .ioBufferDuration(let value): "setPreferredIOBufferDuration(\(Self.number(value)))"
    case .inputNumberOfChannels(let count): "setPreferredInputNumberOfChannels(\(count))"
    case .outputNumberOfChannels(let count): "setPreferredOutputNumberOfChannels(\(count))"
    case .aggregatedIO(let on): "setAggregatedIOPreference(.\(on ? "aggregated" : "notSpecified"))"
    case .echoCancelledInput(let on): "setPrefersEchoCancelledInput(\(on))"
    }
  }

  /// The keys `prefer` takes (`input` is `setPreferredInput(_:)`, a command of its own).
  public static let keys = [
    "input", "sampleRate", "ioBufferDuration", "inputNumberOfChannels", "outputNumberOfChannels",
    "noInterruptionsFromSystemAlerts", "interruptionOnRouteDisconnect", "aggregatedIO",
    "echoCancelledInput",
  ]

  /// Parses `prefer KEY VALUE`; a wrong key or value is `badParam` naming the valid ones.
  public static func parse(key: String, value: String) throws(SessionError) -> SessionPreference {
    func flag() throws(SessionError) -> Bool {
      switch value {
      case "on", "true", "yes": return true
      case "off", "false", "no": return false
      default:
        throw SessionError(.badParam, "'\(key)' takes on or off, not '\(value)'")
      }
    }
    func positive() throws(SessionError) -> Double {
      guard let number = Double(value), number.isFinite, number > 0 else {
        throw SessionError(.badParam, "'\(key)' takes a number greater than 0, not '\(value)'")
      }
      return number
    }
    func count() throws(SessionError) -> Int {
      guard let number = Int(value), number >= 1 else {
        throw SessionError(
          .badParam, "'\(key)' takes a whole number of channels, 1 or more, not '\(value)'")
      }
      return number
    }
    switch key {
    case "noInterruptionsFromSystemAlerts": return .noInterruptionsFromSystemAlerts(try flag())
    case "interruptionOnRouteDisconnect": return .interruptionOnRouteDisconnect(try flag())
    case "echoCancelledInput": return .echoCancelledInput(try flag())
    case "sampleRate": return .sampleRate(try positive())
    case "ioBufferDuration": return .ioBufferDuration(try positive())
    case "inputNumberOfChannels": return .inputNumberOfChannels(try count())
    case "outputNumberOfChannels": return .outputNumberOfChannels(try count())
    case "aggregatedIO":
      switch value {
      case "aggregated": return .aggregatedIO(true)
      case "notSpecified": return .aggregatedIO(false)
      default:
        throw SessionError(
          .badParam, "'aggregatedIO' takes aggregated or notSpecified, not '\(value)'")
      }
    case "input":
      throw SessionError(
        .badParam, "'input' is setPreferredInput: a port UID, a port type or none")
    default:
      throw SessionError(
        .badParam, "unknown preference '\(key)'; valid keys are: \(keys.joined(separator: ", "))")
    }
  }
}

/// `AVAudioSession.RouteSharingPolicy` (docs/avaudiosession.md §13.3): long-form sessions share
/// one output.
public enum RouteSharingPolicy: UInt, Sendable, Hashable, CaseIterable, NamedCase {
  case `default` = 0
  case longFormAudio = 1
  /// Set by the system only: "Applications should not attempt to set this value".
  case independent = 2
  case longFormVideo = 3

  public var name: String {
    switch self {
    case .default: "default"
    case .longFormAudio: "longFormAudio"
    case .independent: "independent"
    case .longFormVideo: "longFormVideo"
    }
  }
}

/// The hardware preferences a session set (nil: not set; docs/avaudiosession.md §13.5).
public struct HardwarePreferences: Sendable, Hashable {
  public var sampleRate: Double?
  public var ioBufferDuration: Double?
  public var inputNumberOfChannels: Int?
  public var outputNumberOfChannels: Int?
  /// `aggregated` (true) or `notSpecified` (false).
  public var aggregatedIO: Bool?

  public init() {}
}

/// What a session reads of the hardware (docs/avaudiosession.md §8): the simulated hardware's, or
/// the real sink's and source's on a PulseAudio server.
public struct HardwareValues: Sendable, Hashable {
  public var sampleRate: Double
  public var ioBufferDuration: Double
  /// 0 when the category has no input (or output), as iOS returns.
  public var inputNumberOfChannels: Int
  public var outputNumberOfChannels: Int
  /// Known on a real server only (its sink's and source's latency); nil otherwise.
  public var inputLatency: Double?
  public var outputLatency: Double?

  public init(
    sampleRate: Double, ioBufferDuration: Double, inputNumberOfChannels: Int,
    outputNumberOfChannels: Int, inputLatency: Double? = nil, outputLatency: Double? = nil
  ) {
    self.sampleRate = sampleRate
    self.ioBufferDuration = ioBufferDuration
    self.inputNumberOfChannels = inputNumberOfChannels
    self.outputNumberOfChannels = outputNumberOfChannels
    self.inputLatency = inputLatency
    self.outputLatency = outputLatency
  }
}
