import AudioSession
import PropertyBased
import Testing

@testable import AudioSessionClient

/// The client's own integer-valued types (docs/modules.md: the client re-exports none of the
/// engine's modules) carry Apple's raw values, the same as the engine's types they convert to
/// and from (docs/avaudiosession.md §1.2–§1.4, §13): a value that crosses between an app and the
/// engine keeps its meaning, and the `NSNumber`s in notifications are Apple's.
@Suite struct ClientValueTypesTests {
  // docs/avaudiosession.md §1.3, §1.4, §13.1, §13.3, §13.5
  @Test("every case of the engine's enums becomes the client's case of the same raw value")
  func enums_keepRawValues() {
    for value in AudioSession.InterruptionType.allCases {
      #expect(AVAudioSession.InterruptionType(value).rawValue == value.rawValue)
    }
    for value in AudioSession.InterruptionReason.allCases {
      #expect(AVAudioSession.InterruptionReason(value).rawValue == value.rawValue)
    }
    for value in AudioSession.RouteChangeReason.allCases {
      #expect(AVAudioSession.RouteChangeReason(value).rawValue == value.rawValue)
    }
    for value in AudioSession.SilenceSecondaryAudioHintType.allCases {
      #expect(AVAudioSession.SilenceSecondaryAudioHintType(value).rawValue == value.rawValue)
    }
    for value in SessionErrorCode.allCases {
      #expect(AVAudioSession.ErrorCode(value).rawValue == value.rawValue)
    }
    for value in AudioSession.PromptStyle.allCases {
      #expect(AVAudioSession.PromptStyle(value).rawValue == value.rawValue)
    }
    for value in AudioSession.DeactivationSource.allCases {
      #expect(AVAudioSession.DeactivationSource(value).rawValue == value.rawValue)
    }
    for value in AudioSession.ResumptionRecommendation.allCases {
      #expect(AVAudioSession.ResumptionRecommendation(value).rawValue == value.rawValue)
    }
    for value in AudioSession.RouteSharingPolicy.allCases {
      let client = AVAudioSession.RouteSharingPolicy(value)
      #expect(client.rawValue == value.rawValue && client.model == value)
    }
    for value in AudioSession.PortOverride.allCases {
      #expect(AVAudioSession.PortOverride(rawValue: value.rawValue)?.model == value)
    }
  }

  // docs/avaudiosession.md §1.2: the option bits are Apple's, whatever the combination
  @Test(
    "any category options, and any set-active or interruption options, keep their bits both ways")
  func optionSets_keepBits() async {
    let bits = Gen<UInt>.uint(in: 0...UInt(UInt32.max))
    await propertyCheck(count: 300, input: bits) { raw in
      let engine = AudioSession.CategoryOptions(rawValue: raw)
      #expect(AVAudioSession.CategoryOptions(engine).model == engine)
      #expect(AVAudioSession.CategoryOptions(engine).rawValue == raw)
      #expect(AVAudioSession.SetActiveOptions(rawValue: raw).model.rawValue == raw)
      #expect(
        AVAudioSession.InterruptionOptions(AudioSession.InterruptionOptions(rawValue: raw))
          .rawValue == raw)
    }
    // The named options are the engine's bits.
    #expect(AVAudioSession.CategoryOptions.mixWithOthers.model == .mixWithOthers)
    #expect(AVAudioSession.CategoryOptions.duckOthers.model == .duckOthers)
    #expect(AVAudioSession.CategoryOptions.allowBluetooth.model == .allowBluetooth)
    #expect(AVAudioSession.CategoryOptions.allowBluetoothHFP.model == .allowBluetoothHFP)
    #expect(AVAudioSession.CategoryOptions.defaultToSpeaker.model == .defaultToSpeaker)
    #expect(
      AVAudioSession.CategoryOptions.interruptSpokenAudioAndMixWithOthers.model
        == .interruptSpokenAudioAndMixWithOthers)
    #expect(AVAudioSession.CategoryOptions.allowBluetoothA2DP.model == .allowBluetoothA2DP)
    #expect(AVAudioSession.CategoryOptions.allowAirPlay.model == .allowAirPlay)
    #expect(
      AVAudioSession.CategoryOptions.overrideMutedMicrophoneInterruption.model
        == .overrideMutedMicrophoneInterruption)
    #expect(AVAudioSession.CategoryOptions.farFieldInput.model == .farFieldInput)
    #expect(
      AVAudioSession.CategoryOptions.bluetoothHighQualityRecording.model
        == .bluetoothHighQualityRecording)
    #expect(
      AVAudioSession.SetActiveOptions.notifyOthersOnDeactivation.model
        == .notifyOthersOnDeactivation)
    #expect(AVAudioSession.InterruptionOptions.shouldResume.rawValue == 1)
  }
}
