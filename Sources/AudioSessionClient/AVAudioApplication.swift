import AudioSession
import AudioSessionWire
public import Foundation

/// `AVAudioApplication` (iOS 17): the app's record permission and input mute, for every session
/// of the process.
///
/// The record permission is the system's, as the engine has it: granted, unless `sessionctl
/// simulate permission denied` (or `undetermined`) changed it; read through
/// ``AVAudioSession/sharedInstance()``, undetermined while no engine answers. The input mute is
/// the app's, as on iOS, where it zeroes the app's input samples and is not the hardware's mute
/// (`sessionctl simulate mic-mute`): the engine keeps it for the shared session
/// (`sessionctl input-muted`), so status and transcripts show it.
open class AVAudioApplication: NSObject, @unchecked Sendable {
  /// `AVAudioApplication.recordPermission`.
  public enum recordPermission: Int, Sendable, Hashable {
    case undetermined = 0x756E_6474  // 'undt'
    case denied = 0x6465_6E79  // 'deny'
    case granted = 0x6772_6E74  // 'grnt'
  }

  /// `AVAudioApplication.microphoneInjectionPermission` (iOS 18.2).
  public enum microphoneInjectionPermission: Int, Sendable, Hashable {
    case serviceDisabled = 0x7372_6473  // 'srds'
    case undetermined = 0x756E_6474  // 'undt'
    case denied = 0x6465_6E79  // 'deny'
    case granted = 0x6772_6E74  // 'grnt'
  }

  /// `inputMuteStateChangeNotification`: posted on `NotificationCenter.default` when
  /// ``setInputMuted(_:)`` changes the state, with ``muteStateKey``.
  public static let inputMuteStateChangeNotification = Notification.Name(
    "AVAudioApplicationInputMuteStateChangeNotification")
  /// `muteStateKey`: `NSNumber` of a `Bool`.
  public static let muteStateKey = "AVAudioApplicationMuteStateKey"

  private static let sharedApplication = AVAudioApplication()
  /// `shared`.
  open class var shared: AVAudioApplication { sharedApplication }

  /// `recordPermission`: the engine's.
  open var recordPermission: AVAudioApplication.recordPermission {
    switch AVAudioSession.sharedInstance().read()?.status.recordPermission {
    case .granted?: .granted
    case .denied?: .denied
    case .undetermined?, nil: .undetermined
    }
  }

  /// `requestRecordPermission(completionHandler:)`: answers at once with the permission.
  open class func requestRecordPermission(
    completionHandler response: @escaping @Sendable (Bool) -> Void
  ) {
    response(shared.recordPermission == .granted)
  }

  /// `requestRecordPermission()`, async.
  open class func requestRecordPermission() async -> Bool {
    shared.recordPermission == .granted
  }

  /// `microphoneInjectionPermission` (iOS 18.2): the service is not offered.
  open var microphoneInjectionPermission: AVAudioApplication.microphoneInjectionPermission {
    .serviceDisabled
  }

  /// `requestMicrophoneInjectionPermission(completionHandler:)` (iOS 18.2).
  open class func requestMicrophoneInjectionPermission(
    completionHandler response:
      @escaping @Sendable (AVAudioApplication.microphoneInjectionPermission) -> Void
  ) {
    response(.serviceDisabled)
  }

  /// `isInputMuted`: the engine's, for the shared session; false while no engine answers.
  open var isInputMuted: Bool {
    AVAudioSession.sharedInstance().read()?.status.inputMuted ?? false
  }

  /// `setInputMuted(_:)`: mutes the app's input, in the engine (the shared session's); the
  /// engine's ``inputMuteStateChangeNotification`` is posted on `NotificationCenter.default`
  /// when the state changes.
  open func setInputMuted(_ muted: Bool) throws {
    let session = AVAudioSession.sharedInstance()
    try session.perform(.command(.input(.setInputMuted(session: session.name, muted))))
  }
}
