/// `AVAudioSession.ErrorCode` with Apple's raw values (docs/avaudiosession.md §1.4).
public enum SessionErrorCode: Int, Sendable, Hashable, CaseIterable, NamedCase {
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

  public var name: String {
    switch self {
    case .none: "none"
    case .mediaServicesFailed: "mediaServicesFailed"
    case .isBusy: "isBusy"
    case .incompatibleCategory: "incompatibleCategory"
    case .cannotInterruptOthers: "cannotInterruptOthers"
    case .missingEntitlement: "missingEntitlement"
    case .siriIsRecording: "siriIsRecording"
    case .cannotStartPlaying: "cannotStartPlaying"
    case .cannotStartRecording: "cannotStartRecording"
    case .badParam: "badParam"
    case .insufficientPriority: "insufficientPriority"
    case .resourceNotAvailable: "resourceNotAvailable"
    case .unspecified: "unspecified"
    case .expiredSession: "expiredSession"
    case .sessionNotActive: "sessionNotActive"
    }
  }
}

/// An error from an audio session operation: AVAudioSession's code plus a sentence that says what
/// was attempted and what would be valid.
public struct SessionError: Error, Sendable, Hashable, CustomStringConvertible {
  public var code: SessionErrorCode
  public var message: String

  public init(_ code: SessionErrorCode, _ message: String) {
    self.code = code
    self.message = message
  }

  public var description: String { message }
}
