import Testing

@testable import AudioSession

/// `setPrefersEchoCancelledInput(_:)`, `isEchoCancelledInputAvailable`,
/// `isEchoCancelledInputEnabled` (iOS 18.2; docs/avaudiosession.md §13.5; policies/devices.json
/// `hardware.echoCancelledInput`).
@Suite("Echo-cancelled input")
struct EchoCancelledInputTests {
  @Test(
    "preferring echo-cancelled input outside playAndRecord/default (or multiRoute/dualRoute) is incompatibleCategory, says why, and changes nothing (docs/avaudiosession.md §13.5)"
  )
  func prefer_wrongCategory_isIncompatibleCategory() throws {
    var h = try EngineHarness()
    for (category, mode) in [
      (Category.playback, Mode.default), (.playAndRecord, .voiceChat), (.record, .default),
      (.multiRoute, .default),
    ] {
      h.set("app", category, mode: mode)
      let before = h.engine.status()
      let refused = h.run(.setPreference(session: "app", .echoCancelledInput(true)))
      #expect(refused.error?.code == .incompatibleCategory, "\(category.name) \(mode.name)")
      #expect(
        refused.error?.message.hasPrefix(
          "setPrefersEchoCancelledInput(true) needs playAndRecord with mode default, or "
            + "multiRoute with mode dualRoute; 'app'") == true)
      #expect(h.engine.status() == before && refused.lines.isEmpty)
      // Turning it off is always accepted.
      #expect(h.run(.setPreference(session: "app", .echoCancelledInput(false))).error == nil)
    }
    h.set("app", .multiRoute, mode: .dualRoute, [.allowBluetoothHFP])
    #expect(h.run(.setPreference(session: "app", .echoCancelledInput(true))).error == nil)
  }

  @Test(
    "echo-cancelled input is enabled only when preferred, available (built-in mic) and active (docs/avaudiosession.md §13.5)"
  )
  func enabled_needsPreferenceAvailabilityAndActivation() throws {
    var h = try EngineHarness()
    h.set("voip", .playAndRecord)
    #expect(h.status("voip").echoCancelledInputAvailable)
    #expect(!h.status("voip").echoCancelledInputEnabled)
    #expect(h.run(.setPreference(session: "voip", .echoCancelledInput(true))).error == nil)
    #expect(h.status("voip").prefersEchoCancelledInput)
    #expect(!h.status("voip").echoCancelledInputEnabled)  // not active yet
    h.activate("voip")
    #expect(h.status("voip").echoCancelledInputEnabled)
    h.run(.setPreference(session: "voip", .echoCancelledInput(false)))
    #expect(!h.status("voip").echoCancelledInputEnabled)
    // A category without input has nothing to echo-cancel.
    h.set("music", .playback)
    #expect(!h.status("music").echoCancelledInputAvailable)
  }

  @Test(
    "a route change to a headset mic turns echo-cancelled input off, and back on with the built-in mic (docs/avaudiosession.md §13.5)"
  )
  func routeChange_turnsItOff() throws {
    var h = try EngineHarness()
    h.set("voip", .playAndRecord)
    h.run(.setPreference(session: "voip", .echoCancelledInput(true)))
    h.activate("voip")
    #expect(h.status("voip").echoCancelledInputEnabled)
    h.plug("headset")
    #expect(h.inputs("voip") == ["headsetMic"])
    #expect(!h.status("voip").echoCancelledInputAvailable)
    #expect(!h.status("voip").echoCancelledInputEnabled)
    #expect(h.status("voip").prefersEchoCancelledInput)
    h.unplug("headset-1")
    #expect(h.status("voip").echoCancelledInputEnabled)
  }

  @Test(
    "media services reset forget the preference, as every preference (docs/avaudiosession.md §6.4)"
  )
  func reset_forgetsIt() throws {
    var h = try EngineHarness()
    h.set("voip", .playAndRecord)
    h.run(.setPreference(session: "voip", .echoCancelledInput(true)))
    h.run(.mediaServicesLost)
    h.run(.mediaServicesReset)
    #expect(!h.status("voip").prefersEchoCancelledInput)
  }

  @Test("prefer echoCancelledInput takes on or off (docs/contract.md More of AVAudioSession)")
  func parse_takesOnOff() throws {
    #expect(
      try SessionPreference.parse(key: "echoCancelledInput", value: "on")
        == .echoCancelledInput(true))
    #expect(throws: SessionError.self) {
      try SessionPreference.parse(key: "echoCancelledInput", value: "maybe")
    }
    #expect(
      SessionPreference.echoCancelledInput(true).setterText == "setPrefersEchoCancelledInput(true)")
  }
}
