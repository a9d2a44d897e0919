import AudioSession
import AudioSessionWire
public import Foundation

// The rest of AVAudioSession's surface: record permission, volume, channel maxima, the iOS 13–27
// additions. docs/api-coverage.md says, symbol by symbol, which the engine decides and which are
// this process's own (the simulated system has no haptics, no spatial audio, no echo-cancelling
// hardware, no microphone injection).

/// `AVAudioSessionMicrophoneInjectionIsAvailableKey` (iOS 18.2): never posted.
public let AVAudioSessionMicrophoneInjectionIsAvailableKey =
  "AVAudioSessionMicrophoneInjectionIsAvailableKey"
/// `AVAudioSessionRenderingModeNewRenderingModeKey` (iOS 17.2): never posted.
public let AVAudioSessionRenderingModeNewRenderingModeKey =
  "AVAudioSessionRenderingModeNewRenderingModeKey"

/// `AVAudioSessionCapability` (iOS 26): a capability of a port; no simulated port has one.
open class AVAudioSessionCapability: NSObject, @unchecked Sendable {
  public let isSupported: Bool
  public let isEnabled: Bool
  init(isSupported: Bool = false, isEnabled: Bool = false) {
    self.isSupported = isSupported
    self.isEnabled = isEnabled
    super.init()
  }
}

/// `AVAudioSessionPortExtensionBluetoothMicrophone` (iOS 26).
open class AVAudioSessionPortExtensionBluetoothMicrophone: NSObject, @unchecked Sendable {
  public let highQualityRecording = AVAudioSessionCapability()
  public let farFieldCapture = AVAudioSessionCapability()
}

extension AVAudioSessionPortDescription {
  /// `bluetoothMicrophoneExtension` (iOS 26): nil, as for every port that is not a Bluetooth
  /// microphone with the extension (the simulated ones do not have it).
  public var bluetoothMicrophoneExtension: AVAudioSessionPortExtensionBluetoothMicrophone? { nil }
}

extension AVAudioSession {
  /// `AVAudioSession.RenderingMode` (iOS 17.2).
  public enum RenderingMode: Int, Sendable, Hashable {
    case notApplicable = 0
    case monoStereo = 1
    case surround = 2
    case spatialAudio = 3
    case dolbyAudio = 4
    case dolbyAtmos = 5
  }

  /// `AVAudioSession.MicrophoneInjectionMode` (iOS 18.2).
  public enum MicrophoneInjectionMode: Int, Sendable, Hashable {
    case none = 0
    case spokenAudio = 1
  }

  /// `renderingModeChangeNotification` (iOS 17.2): never posted.
  public static let renderingModeChangeNotification = Notification.Name(
    "AVAudioSessionRenderingModeChangeNotification")
  /// `renderingCapabilitiesChangeNotification` (iOS 17.2): never posted.
  public static let renderingCapabilitiesChangeNotification = Notification.Name(
    "AVAudioSessionRenderingCapabilitiesChangeNotification")
  /// `microphoneInjectionCapabilitiesChangeNotification` (iOS 18.2): never posted.
  public static let microphoneInjectionCapabilitiesChangeNotification = Notification.Name(
    "AVAudioSessionMicrophoneInjectionCapabilitiesChangeNotification")
  /// `outputMuteStateChangeNotification` (iOS 26): posted when the session's output mute
  /// changes (``setOutputMuted(_:)``, or the system unmuting it), with ``muteStateKey``.
  public static let outputMuteStateChangeNotification = Notification.Name(
    "AVAudioSessionOutputMuteStateChangeNotification")
  /// `userIntentToUnmuteOutputNotification` (iOS 26): posted to a shortFormVideo session whose
  /// output is muted when the user raises the volume (`sessionctl simulate volume`), before the
  /// system unmutes it.
  public static let userIntentToUnmuteOutputNotification = Notification.Name(
    "AVAudioSessionUserIntentToUnmuteOutputNotification")
  /// `muteStateKey` (iOS 26): `NSNumber` of a `Bool`.
  public static let muteStateKey = "AVAudioSessionMuteStateKey"

  // MARK: Record permission (deprecated on iOS 17; AVAudioApplication's)

  /// `recordPermission`: the process's record permission (``AVAudioApplication``).
  public var recordPermission: RecordPermission {
    switch AVAudioApplication.shared.recordPermission {
    case .undetermined: .undetermined
    case .denied: .denied
    case .granted: .granted
    }
  }

  /// `requestRecordPermission(_:)`: answers at once, with ``AVAudioApplication``'s permission.
  public func requestRecordPermission(_ response: @escaping @Sendable (Bool) -> Void) {
    AVAudioApplication.requestRecordPermission(completionHandler: response)
  }

  // MARK: Volume and channels

  /// `outputVolume`: the system volume, 0…1, as the engine has it (`simulate volume`; 1.0
  /// until changed). Not key-value observable here: Linux's Foundation has no KVO.
  public var outputVolume: Float { Float(read()?.status.outputVolume ?? 1) }

  /// `maximumInputNumberOfChannels` of the current route, from `devices.json`'s
  /// `hardware.channels` (0 without an input route).
  public var maximumInputNumberOfChannels: Int {
    read()?.status.maximumInputNumberOfChannels ?? 0
  }

  /// `maximumOutputNumberOfChannels` of the current route.
  public var maximumOutputNumberOfChannels: Int {
    read()?.status.maximumOutputNumberOfChannels ?? 0
  }

  // MARK: Settings of this process only

  /// `setAllowHapticsAndSystemSoundsDuringRecording(_:)` (iOS 13): kept by the session; the
  /// simulated system plays no haptics or system sounds.
  public func setAllowHapticsAndSystemSoundsDuringRecording(_ inValue: Bool) throws {
    localSettings { $0.allowHaptics = inValue }
  }

  public var allowHapticsAndSystemSoundsDuringRecording: Bool { localSettings().allowHaptics }

  /// `setSupportsMultichannelContent(_:)` (iOS 15): kept by the session.
  public func setSupportsMultichannelContent(_ inValue: Bool) throws {
    localSettings { $0.multichannelContent = inValue }
  }

  public var supportsMultichannelContent: Bool { localSettings().multichannelContent }

  /// `setPreferredInputOrientation(_:)` (iOS 14): granted as asked, kept by the session; it says
  /// which way left and right face when a data source's stereo polar pattern is selected (the
  /// simulated input carries no samples to turn).
  public func setPreferredInputOrientation(_ orientation: StereoOrientation) throws {
    localSettings { $0.inputOrientation = orientation }
  }

  public var preferredInputOrientation: StereoOrientation { localSettings().inputOrientation }
  public var inputOrientation: StereoOrientation { localSettings().inputOrientation }

  /// `renderingMode` (iOS 17.2): the simulated outputs render mono or stereo.
  public var renderingMode: RenderingMode { .monoStereo }

  /// `setPrefersEchoCancelledInput(_:)` (iOS 18.2), in the engine: `true` is accepted with
  /// playAndRecord in mode default (or multiRoute in dualRoute), else `incompatibleCategory`
  /// (docs/avaudiosession.md §13.5).
  public func setPrefersEchoCancelledInput(_ value: Bool) throws {
    try perform(.command(.input(.setPreference(session: name, .echoCancelledInput(value)))))
  }

  public var prefersEchoCancelledInput: Bool { read()?.status.prefersEchoCancelledInput ?? false }
  /// True while the session's input is the built-in microphone.
  public var isEchoCancelledInputAvailable: Bool {
    read()?.status.echoCancelledInputAvailable ?? false
  }
  /// Preferred, available, and the session active; query it after activating, and again after a
  /// route change.
  public var isEchoCancelledInputEnabled: Bool {
    read()?.status.echoCancelledInputEnabled ?? false
  }

  /// `setPreferredMicrophoneInjectionMode(_:)` (iOS 18.2): kept; injection is never available.
  public func setPreferredMicrophoneInjectionMode(_ inValue: MicrophoneInjectionMode) throws {
    localSettings { $0.microphoneInjection = inValue }
  }

  public var preferredMicrophoneInjectionMode: MicrophoneInjectionMode {
    localSettings().microphoneInjection
  }

  public var isMicrophoneInjectionAvailable: Bool { false }

  /// `setOutputMuted(_:)` (iOS 26): mutes this app's output, as the engine decides it
  /// (every category and mode but playAndRecord outside mode default: `incompatibleCategory`);
  /// the engine posts ``outputMuteStateChangeNotification`` when the state changes, and in mode
  /// shortFormVideo unmutes the output when the user raises the volume
  /// (``userIntentToUnmuteOutputNotification`` first).
  public func setOutputMuted(_ muted: Bool) throws {
    try perform(.command(.input(.setOutputMuted(session: name, muted))))
  }

  /// `isOutputMuted` (iOS 26): the engine's; false while no engine answers.
  public var isOutputMuted: Bool { read()?.status.outputMuted ?? false }

  // MARK: iOS 27's activate and deactivate

  /// `activate(options:completionHandler:)` (iOS 27): ``setActive(_:options:)`` answered
  /// through a handler.
  public func activate(
    options: ActivationOptions = [],
    completionHandler handler: @escaping @Sendable (Bool, (any Error)?) -> Void
  ) {
    do {
      try setActive(true)
      handler(true, nil)
    } catch {
      handler(false, error)
    }
  }

  /// `activate(options:)` (iOS 27), async.
  public func activate(options: ActivationOptions = []) async throws {
    try setActive(true)
  }

  /// `deactivate(options:completionHandler:)` (iOS 27).
  public func deactivate(
    options: DeactivationOptions = [],
    completionHandler handler: @escaping @Sendable ((any Error)?) -> Void
  ) {
    do {
      try deactivate(options)
      handler(nil)
    } catch {
      handler(error)
    }
  }

  /// `deactivate(options:)` (iOS 27), async.
  public func deactivate(options: DeactivationOptions = []) async throws {
    try deactivate(options)
  }

  private func deactivate(_ options: DeactivationOptions) throws {
    try setActive(
      false,
      options: options.contains(.notifyOthersOnDeactivation) ? .notifyOthersOnDeactivation : [])
  }

  /// Reads (and with `change`, changes) the settings this process keeps.
  @discardableResult
  func localSettings(_ change: (inout LocalSettings) -> Void = { _ in }) -> LocalSettings {
    lock.lock()
    defer { lock.unlock() }
    change(&local)
    return local
  }
}

/// What a session keeps in this process (docs/api-coverage.md: "this process").
struct LocalSettings {
  var allowHaptics = false
  var multichannelContent = false
  var inputOrientation = AVAudioSession.StereoOrientation.none
  var microphoneInjection = AVAudioSession.MicrophoneInjectionMode.none
}

/// `AudioChannelLayoutTag` (CoreAudioTypes): the layout's kind in the high 16 bits, its channel
/// count in the low 16.
public typealias AudioChannelLayoutTag = UInt32
/// `AVAudioChannelCount`.
public typealias AVAudioChannelCount = UInt32
/// `kAudioChannelLayoutTag_Mono`.
public let kAudioChannelLayoutTag_Mono: AudioChannelLayoutTag = (100 << 16) | 1
/// `kAudioChannelLayoutTag_Stereo`.
public let kAudioChannelLayoutTag_Stereo: AudioChannelLayoutTag = (101 << 16) | 2
/// `kAudioChannelLayoutTag_DiscreteInOrder`: or it with a channel count.
public let kAudioChannelLayoutTag_DiscreteInOrder: AudioChannelLayoutTag = 147 << 16
/// `kAudioChannelLayoutTag_Unknown`: or it with a channel count.
public let kAudioChannelLayoutTag_Unknown: AudioChannelLayoutTag = 0xFFFF_0000

/// `AVAudioChannelLayout` (AVFAudio): a channel layout named by its tag. Only the tag-based part
/// of Apple's class: the simulated system describes its outputs by tags alone.
open class AVAudioChannelLayout: NSObject, @unchecked Sendable {
  /// The layout's tag.
  public let layoutTag: AudioChannelLayoutTag

  /// `init?(layoutTag:)`: nil for a tag that carries no channel count.
  public init?(layoutTag: AudioChannelLayoutTag) {
    guard layoutTag & 0xFFFF != 0 else { return nil }
    self.layoutTag = layoutTag
    super.init()
  }

  /// The number of channels, from the tag's low 16 bits.
  public var channelCount: AVAudioChannelCount { layoutTag & 0xFFFF }

  open override func isEqual(_ object: Any?) -> Bool {
    (object as? AVAudioChannelLayout)?.layoutTag == layoutTag
  }

  open override var hash: Int { Int(layoutTag) }

  /// The layout iOS names for `count` channels: mono, stereo, else discrete in order.
  static func layout(channels count: Int) -> AVAudioChannelLayout? {
    switch count {
    case ..<1: nil
    case 1: AVAudioChannelLayout(layoutTag: kAudioChannelLayoutTag_Mono)
    case 2: AVAudioChannelLayout(layoutTag: kAudioChannelLayoutTag_Stereo)
    default:
      AVAudioChannelLayout(
        layoutTag: kAudioChannelLayoutTag_DiscreteInOrder
          | AudioChannelLayoutTag(min(count, 0xFFFF)))
    }
  }
}

extension AVAudioSession {
  /// `supportedOutputChannelLayouts` (iOS 17.2): the layouts the current output supports, as
  /// Apple's header says only for CarPlay and AirPlay outputs, and empty while the session is
  /// inactive. The engine's route and its output channel count decide them.
  public var supportedOutputChannelLayouts: [AVAudioChannelLayout] {
    guard let status = read()?.status, status.active,
      let output = status.route.outputs.first,
      [.carAudio, .airPlay].contains(output.portType),
      let layout = AVAudioChannelLayout.layout(channels: status.hardware.outputNumberOfChannels)
    else { return [] }
    return [layout]
  }
}
