import AudioSession
import PropertyBased
import Testing

@testable import AudioSessionClient

/// The client's own integer-valued types (docs/modules.md: the client re-exports none of the
/// engine's modules) carry Apple's raw values, the same as the engine's types they convert to
/// and from (docs/avaudiosession.md §1.2–§1.4, §13): a value that crosses between an app and the
/// engine keeps its meaning, and the `NSNumber`s in notifications are Apple's.
@Suite struct ClientValueTypesTests {
  /// What is wrong with the client's copy of an engine enum: each engine case must have the
  /// client case of the same raw value and the same name.
  static func mismatches<Engine: NamedCase & RawRepresentable, Client: RawRepresentable>(
    _ engine: Engine.Type, _ client: Client.Type
  ) -> [String] where Client.RawValue == Engine.RawValue {
    Engine.allCases.compactMap { value in
      guard let copy = Client(rawValue: value.rawValue) else {
        return "\(Engine.self).\(value.name) has no client case of raw value \(value.rawValue)"
      }
      return "\(copy)" == value.name ? nil : "\(Engine.self).\(value.name) is the client's \(copy)"
    }
  }

  // docs/avaudiosession.md §1.3, §1.4, §13.1, §13.3, §13.5
  @Test(
    "every case of the engine's enums has the client's case of the same raw value and name, and the conversions the client uses agree"
  )
  func enums_keepRawValuesAndNames() {
    var wrong: [String] = []
    wrong += Self.mismatches(
      AudioSession.InterruptionType.self, AVAudioSession.InterruptionType.self)
    wrong += Self.mismatches(
      AudioSession.InterruptionReason.self, AVAudioSession.InterruptionReason.self)
    wrong += Self.mismatches(
      AudioSession.RouteChangeReason.self, AVAudioSession.RouteChangeReason.self)
    wrong += Self.mismatches(
      AudioSession.SilenceSecondaryAudioHintType.self,
      AVAudioSession.SilenceSecondaryAudioHintType.self)
    wrong += Self.mismatches(SessionErrorCode.self, AVAudioSession.ErrorCode.self)
    wrong += Self.mismatches(AudioSession.PromptStyle.self, AVAudioSession.PromptStyle.self)
    wrong += Self.mismatches(
      AudioSession.DeactivationSource.self, AVAudioSession.DeactivationSource.self)
    wrong += Self.mismatches(
      AudioSession.ResumptionRecommendation.self, AVAudioSession.ResumptionRecommendation.self)
    wrong += Self.mismatches(
      AudioSession.RouteSharingPolicy.self, AVAudioSession.RouteSharingPolicy.self)
    wrong += Self.mismatches(AudioSession.PortOverride.self, AVAudioSession.PortOverride.self)
    #expect(wrong.isEmpty, "\(wrong)")
    // The conversions the client uses where it talks to the engine.
    for value in AudioSession.InterruptionReason.allCases {
      #expect(AVAudioSession.InterruptionReason(value).rawValue == value.rawValue)
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
      #expect(AVAudioSession.RouteSharingPolicy(value).model == value)
    }
    for value in AudioSession.PortOverride.allCases {
      #expect(AVAudioSession.PortOverride(rawValue: value.rawValue)?.model == value)
    }
  }

  // docs/avaudiosession.md §1.2: the option bits are Apple's, whatever the combination
  @Test(
    "any category options keep their bits both ways; set-active and interruption options have the engine's bits"
  )
  func optionSets_keepBits() async {
    let bits = Gen<UInt>.uint(in: 0...UInt(UInt32.max))
    await propertyCheck(count: 300, input: bits) { raw in
      let engine = AudioSession.CategoryOptions(rawValue: raw)
      #expect(AVAudioSession.CategoryOptions(engine).model == engine)
      #expect(AVAudioSession.CategoryOptions(engine).rawValue == raw)
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
      AVAudioSession.SetActiveOptions.notifyOthersOnDeactivation.rawValue
        == AudioSession.SetActiveOptions.notifyOthersOnDeactivation.rawValue)
    #expect(
      AVAudioSession.InterruptionOptions.shouldResume.rawValue
        == AudioSession.InterruptionOptions.shouldResume.rawValue)
  }
}
