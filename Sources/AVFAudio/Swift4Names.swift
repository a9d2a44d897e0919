public import AudioSessionClient
public import Foundation

// The names Swift 4.0 gave AVAudioSession's constants and types, which older iOS code still
// uses: `AVAudioSessionCategoryPlayback`, `.AVAudioSessionInterruption`,
// `AVAudioSessionInterruptionType(rawValue:)`. The constants are typed as today's structs, so
// that `setCategory(AVAudioSessionCategoryPlayback)` and
// `session.category == AVAudioSessionCategoryAmbient` both compile.

public let AVAudioSessionCategoryAmbient = AVAudioSession.Category.ambient
public let AVAudioSessionCategorySoloAmbient = AVAudioSession.Category.soloAmbient
public let AVAudioSessionCategoryPlayback = AVAudioSession.Category.playback
public let AVAudioSessionCategoryRecord = AVAudioSession.Category.record
public let AVAudioSessionCategoryPlayAndRecord = AVAudioSession.Category.playAndRecord
public let AVAudioSessionCategoryAudioProcessing = AVAudioSession.Category.audioProcessing
public let AVAudioSessionCategoryMultiRoute = AVAudioSession.Category.multiRoute

public let AVAudioSessionModeDefault = AVAudioSession.Mode.default
public let AVAudioSessionModeVoiceChat = AVAudioSession.Mode.voiceChat
public let AVAudioSessionModeGameChat = AVAudioSession.Mode.gameChat
public let AVAudioSessionModeVideoRecording = AVAudioSession.Mode.videoRecording
public let AVAudioSessionModeMeasurement = AVAudioSession.Mode.measurement
public let AVAudioSessionModeMoviePlayback = AVAudioSession.Mode.moviePlayback
public let AVAudioSessionModeVideoChat = AVAudioSession.Mode.videoChat
public let AVAudioSessionModeSpokenAudio = AVAudioSession.Mode.spokenAudio
public let AVAudioSessionModeVoicePrompt = AVAudioSession.Mode.voicePrompt

public let AVAudioSessionPortLineIn = AVAudioSession.Port.lineIn
public let AVAudioSessionPortBuiltInMic = AVAudioSession.Port.builtInMic
public let AVAudioSessionPortHeadsetMic = AVAudioSession.Port.headsetMic
public let AVAudioSessionPortLineOut = AVAudioSession.Port.lineOut
public let AVAudioSessionPortHeadphones = AVAudioSession.Port.headphones
public let AVAudioSessionPortBluetoothA2DP = AVAudioSession.Port.bluetoothA2DP
public let AVAudioSessionPortBuiltInReceiver = AVAudioSession.Port.builtInReceiver
public let AVAudioSessionPortBuiltInSpeaker = AVAudioSession.Port.builtInSpeaker
public let AVAudioSessionPortHDMI = AVAudioSession.Port.HDMI
public let AVAudioSessionPortAirPlay = AVAudioSession.Port.airPlay
public let AVAudioSessionPortBluetoothLE = AVAudioSession.Port.bluetoothLE
public let AVAudioSessionPortBluetoothHFP = AVAudioSession.Port.bluetoothHFP
public let AVAudioSessionPortUSBAudio = AVAudioSession.Port.usbAudio
public let AVAudioSessionPortCarAudio = AVAudioSession.Port.carAudio

public typealias AVAudioSessionCategoryOptions = AVAudioSession.CategoryOptions
public typealias AVAudioSessionSetActiveOptions = AVAudioSession.SetActiveOptions
public typealias AVAudioSessionPortOverride = AVAudioSession.PortOverride
public typealias AVAudioSessionInterruptionType = AVAudioSession.InterruptionType
public typealias AVAudioSessionInterruptionOptions = AVAudioSession.InterruptionOptions
public typealias AVAudioSessionInterruptionReason = AVAudioSession.InterruptionReason
public typealias AVAudioSessionRouteChangeReason = AVAudioSession.RouteChangeReason
public typealias AVAudioSessionSilenceSecondaryAudioHintType =
  AVAudioSession.SilenceSecondaryAudioHintType
public typealias AVAudioSessionRecordPermission = AVAudioSession.RecordPermission
public typealias AVAudioSessionErrorCode = AVAudioSession.ErrorCode
public typealias AVAudioSessionRouteSharingPolicy = AVAudioSession.RouteSharingPolicy
public typealias AVAudioSessionPromptStyle = AVAudioSession.PromptStyle
public typealias AVAudioSessionIOType = AVAudioSession.IOType

/// The Objective-C names of the notifications.
public let AVAudioSessionInterruptionNotification = AVAudioSession.interruptionNotification
public let AVAudioSessionRouteChangeNotification = AVAudioSession.routeChangeNotification
public let AVAudioSessionMediaServicesWereLostNotification =
  AVAudioSession.mediaServicesWereLostNotification
public let AVAudioSessionMediaServicesWereResetNotification =
  AVAudioSession.mediaServicesWereResetNotification
public let AVAudioSessionSilenceSecondaryAudioHintNotification =
  AVAudioSession.silenceSecondaryAudioHintNotification

extension NSNotification.Name {
  /// Swift 4's `.AVAudioSessionInterruption`.
  public static let AVAudioSessionInterruption = AVAudioSession.interruptionNotification
  public static let AVAudioSessionRouteChange = AVAudioSession.routeChangeNotification
  public static let AVAudioSessionMediaServicesWereLost =
    AVAudioSession.mediaServicesWereLostNotification
  public static let AVAudioSessionMediaServicesWereReset =
    AVAudioSession.mediaServicesWereResetNotification
  public static let AVAudioSessionSilenceSecondaryAudioHint =
    AVAudioSession.silenceSecondaryAudioHintNotification
}
