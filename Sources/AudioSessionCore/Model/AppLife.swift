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

  /// The `prefer` command's key.
  public var key: String {
    switch self {
    case .noInterruptionsFromSystemAlerts: "noInterruptionsFromSystemAlerts"
    case .interruptionOnRouteDisconnect: "interruptionOnRouteDisconnect"
    }
  }

  /// The value as typed (`on` / `off`).
  public var valueText: String {
    switch self {
    case .noInterruptionsFromSystemAlerts(let on), .interruptionOnRouteDisconnect(let on):
      on ? "on" : "off"
    }
  }

  /// AVAudioSession's setter, for the step text of `--explain`.
  public var setterText: String {
    switch self {
    case .noInterruptionsFromSystemAlerts(let on):
      "setPrefersNoInterruptionsFromSystemAlerts(\(on))"
    case .interruptionOnRouteDisconnect(let on): "setPrefersInterruptionOnRouteDisconnect(\(on))"
    }
  }

  /// The keys `prefer` takes today.
  public static let keys = ["noInterruptionsFromSystemAlerts", "interruptionOnRouteDisconnect"]

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
    switch key {
    case "noInterruptionsFromSystemAlerts": return .noInterruptionsFromSystemAlerts(try flag())
    case "interruptionOnRouteDisconnect": return .interruptionOnRouteDisconnect(try flag())
    default:
      throw SessionError(
        .badParam, "unknown preference '\(key)'; valid keys are: \(keys.joined(separator: ", "))")
    }
  }
}
