/// Options that modify a category's behaviour, with Apple's bit values
/// (docs/avaudiosession.md §1.2).
public struct CategoryOptions: OptionSet, Sendable, Hashable {
  public let rawValue: UInt

  public init(rawValue: UInt) { self.rawValue = rawValue }

  public static let mixWithOthers = CategoryOptions(rawValue: 0x1)
  public static let duckOthers = CategoryOptions(rawValue: 0x2)
  /// Deprecated name of ``allowBluetoothHFP`` (same bit, docs/avaudiosession.md §12 D12).
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
}

/// One named category option, the unit of the policy tables and of the command line.
///
/// `allowBluetooth` is accepted on input as an alias of ``allowBluetoothHFP`` and always printed
/// as `allowBluetoothHFP` (docs/avaudiosession.md §12 D12).
public enum CategoryOption: String, CaseIterable, Sendable, Hashable, Codable, NamedCase {
  case mixWithOthers
  case duckOthers
  case allowBluetoothHFP
  case defaultToSpeaker
  case interruptSpokenAudioAndMixWithOthers
  case allowBluetoothA2DP
  case allowAirPlay
  case overrideMutedMicrophoneInterruption
  case farFieldInput
  case bluetoothHighQualityRecording

  public var name: String { rawValue }

  public init?(name: String) {
    if name == "allowBluetooth" {
      self = .allowBluetoothHFP
      return
    }
    self.init(rawValue: name)
  }

  /// Apple's bits for this option.
  public var bits: CategoryOptions {
    switch self {
    case .mixWithOthers: .mixWithOthers
    case .duckOthers: .duckOthers
    case .allowBluetoothHFP: .allowBluetoothHFP
    case .defaultToSpeaker: .defaultToSpeaker
    case .interruptSpokenAudioAndMixWithOthers: .interruptSpokenAudioAndMixWithOthers
    case .allowBluetoothA2DP: .allowBluetoothA2DP
    case .allowAirPlay: .allowAirPlay
    case .overrideMutedMicrophoneInterruption: .overrideMutedMicrophoneInterruption
    case .farFieldInput: .farFieldInput
    case .bluetoothHighQualityRecording: .bluetoothHighQualityRecording
    }
  }
}

extension CategoryOptions {
  /// Builds the option set from named options.
  public init<S: Sequence>(_ options: S) where S.Element == CategoryOption {
    self = options.reduce(into: CategoryOptions()) { $0.formUnion($1.bits) }
  }

  /// The named options contained in this set, in the order of their raw bit values
  /// (the order transcripts list them in). An option is contained when all its bits are.
  public var named: [CategoryOption] {
    CategoryOption.allCases
      .filter { contains($0.bits) }
      .sorted { $0.bits.rawValue < $1.bits.rawValue }
  }

  /// The Swift names of ``named``.
  public var names: [String] { named.map(\.name) }
}
