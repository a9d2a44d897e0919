import Testing

@testable import AudioSession

/// Apple's names and raw values (docs/avaudiosession.md §1), checked against the spec's tables;
/// FourCC codes are computed here from their four characters, independently of the model's hex
/// literals.
@Suite struct RawValueTests {
  static func fourCC(_ code: String) -> Int {
    code.unicodeScalars.reduce(0) { $0 << 8 | Int($1.value) }
  }

  @Test("Error codes are AVAudioSession.ErrorCode's FourCCs and -50 (docs/avaudiosession.md §1.4)")
  func errorCodes_matchHeader() {
    let expected: [SessionErrorCode: Int] = [
      .none: 0, .mediaServicesFailed: Self.fourCC("msrv"), .isBusy: Self.fourCC("!act"),
      .incompatibleCategory: Self.fourCC("!cat"), .cannotInterruptOthers: Self.fourCC("!int"),
      .missingEntitlement: Self.fourCC("ent?"), .siriIsRecording: Self.fourCC("siri"),
      .cannotStartPlaying: Self.fourCC("!pla"), .cannotStartRecording: Self.fourCC("!rec"),
      .badParam: -50, .insufficientPriority: Self.fourCC("!pri"),
      .resourceNotAvailable: Self.fourCC("!res"), .unspecified: Self.fourCC("what"),
      .expiredSession: Self.fourCC("!ses"), .sessionNotActive: Self.fourCC("inac"),
    ]
    #expect(expected.count == SessionErrorCode.allCases.count)
    for (code, value) in expected { #expect(code.rawValue == value, "\(code.name)") }
    // Decimal values quoted by the spec's table.
    #expect(SessionErrorCode.insufficientPriority.rawValue == 561_017_449)
    #expect(SessionErrorCode.unspecified.rawValue == 2_003_329_396)
  }

  @Test("Category option bits (docs/avaudiosession.md §1.2)")
  func optionBits_matchHeader() {
    let expected: [CategoryOption: UInt] = [
      .mixWithOthers: 0x1, .duckOthers: 0x2, .allowBluetoothHFP: 0x4, .defaultToSpeaker: 0x8,
      .interruptSpokenAudioAndMixWithOthers: 0x11, .allowBluetoothA2DP: 0x20, .allowAirPlay: 0x40,
      .overrideMutedMicrophoneInterruption: 0x80, .farFieldInput: 0x40000,
      .bluetoothHighQualityRecording: 0x80000,
    ]
    #expect(expected.count == CategoryOption.allCases.count)
    for (option, bits) in expected { #expect(option.bits.rawValue == bits, "\(option.name)") }
    #expect(CategoryOptions.allowBluetooth == .allowBluetoothHFP)
    #expect(CategoryOption(name: "allowBluetooth") == .allowBluetoothHFP)
  }

  @Test(
    "Option lists are in raw-bit order and 0x11 names the spoken-audio option (docs/avaudiosession.md §1.2, docs/contract.md)"
  )
  func optionNames_inBitOrder() {
    let options: CategoryOptions = [.allowAirPlay, .duckOthers, .mixWithOthers]
    #expect(options.names == ["mixWithOthers", "duckOthers", "allowAirPlay"])
    let spoken = Policy.explicitNames(.interruptSpokenAudioAndMixWithOthers)
    #expect(spoken.named == [.interruptSpokenAudioAndMixWithOthers] && spoken.unknown == 0)
    #expect(Policy.explicitNames(CategoryOptions(rawValue: 0x100)).unknown == 0x100)
  }

  @Test("Enumerations' raw values (docs/avaudiosession.md §1.3)")
  func enumerations_matchHeader() {
    #expect(InterruptionType.began.rawValue == 1 && InterruptionType.ended.rawValue == 0)
    #expect(InterruptionOptions.shouldResume.rawValue == 1)
    #expect(
      InterruptionReason.allCases.map(\.rawValue) == [0, 1, 2, 3, 4, 5]
        && InterruptionReason.builtInMicMuted.name == "builtInMicMuted")
    #expect(RouteChangeReason.allCases.map(\.rawValue) == [0, 1, 2, 3, 4, 6, 7, 8])
    #expect(SetActiveOptions.notifyOthersOnDeactivation.rawValue == 1)
    #expect(PortOverride.speaker.rawValue == UInt(Self.fourCC("spkr")))
    #expect(PortOverride.speaker.rawValue == 1_936_747_378)
    #expect(SilenceSecondaryAudioHintType.begin.rawValue == 1)
  }

  @Test("Category and mode constants equal their symbol names (docs/avaudiosession.md §1.1)")
  func categoryAndModeStrings() {
    for category in Category.allCases {
      let capitalised = category.name.prefix(1).uppercased() + category.name.dropFirst()
      #expect(category.rawValue == "AVAudioSessionCategory" + capitalised)
    }
    #expect(Mode.allCases.count == 11)
    #expect(
      Mode.voiceChat.rawValue == "AVAudioSessionModeVoiceChat" && Mode.voiceChat.name == "voiceChat"
    )
    #expect(Mode(name: "default") == .default && Mode(name: "Default") == nil)
  }

  @Test("Port raw strings as observed on iOS (docs/avaudiosession.md §7.2)")
  func portStrings() {
    #expect(PortType.builtInMic.rawValue == "MicrophoneBuiltIn")
    #expect(PortType.headsetMic.rawValue == "MicrophoneWired")
    #expect(PortType.bluetoothA2DP.rawValue == "BluetoothA2DPOutput")
    #expect(PortType.HDMI.rawValue == "HDMIOutput")
    #expect(PortType.builtInReceiver.rawValue == "Receiver")
    #expect(PortType.allCases.count == 21)
  }

  @Test("Unknown names list the valid ones (docs/contract.md bad input)")
  func parse_unknownName_listsValid() {
    #expect(throws: SessionError.self) {
      try Category.parse("musik", kind: "category", plural: "categories")
    }
    do {
      _ = try Category.parse("musik", kind: "category", plural: "categories")
    } catch {
      #expect(
        error.message
          == "unknown category 'musik'; valid categories are: ambient, soloAmbient, playback, record, playAndRecord, audioProcessing, multiRoute"
      )
      #expect(error.code == .badParam)
    }
  }
}
