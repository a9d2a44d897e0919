import Testing

@testable import AudioSession

/// Routes and route changes (docs/avaudiosession.md §7, §6.2).
@Suite struct RouteTests {
  @Test("Default routes per category with nothing attached (docs/avaudiosession.md §7.3)")
  func defaultRoutes_perCategory() throws {
    var h = try EngineHarness()
    h.set("music", .playback)
    h.set("voip", .playAndRecord)
    h.set("speakerphone", .playAndRecord, [.defaultToSpeaker])
    h.set("memo", .record)
    #expect(h.outputs("music") == ["builtInSpeaker"] && h.inputs("music").isEmpty)
    #expect(h.outputs("voip") == ["builtInReceiver"] && h.inputs("voip") == ["builtInMic"])
    #expect(h.outputs("speakerphone") == ["builtInSpeaker"])
    #expect(h.outputs("memo").isEmpty && h.inputs("memo") == ["builtInMic"])
  }

  @Test(
    "Without a receiver (iPad) playAndRecord uses the speaker (docs/avaudiosession.md §0.1, §2)")
  func playAndRecord_withoutReceiver_usesSpeaker() throws {
    var h = try EngineHarness(devices: ["builtInSpeaker", "builtInMic"])
    h.set("voip", .playAndRecord)
    #expect(h.outputs("voip") == ["builtInSpeaker"])
  }

  @Test(
    "Plugging headphones is a newDeviceAvailable route change with the previous route (docs/avaudiosession.md §6.2, §7.3)"
  )
  func plugHeadphones_postsNewDeviceAvailable() throws {
    var h = try EngineHarness()
    h.start("music", .playback)
    let outcome = h.plug("headphones")
    #expect(
      outcome.lines == [
        "music: routeChange newDeviceAvailable out[builtInSpeaker] -> out[headphones]"
      ])
    #expect(h.status("music").playing)
  }

  @Test("Unplugging headphones mid-song pauses playback (docs/avaudiosession.md §7.7)")
  func unplugHeadphones_whilePlaying_pauses() throws {
    var h = try EngineHarness()
    h.plug("headphones")
    h.start("music", .playback)
    let outcome = h.unplug("headphones-1")
    #expect(
      outcome.lines == [
        "music: routeChange oldDeviceUnavailable out[headphones] -> out[builtInSpeaker]",
        "music: pause oldDeviceUnavailable",
      ])
    #expect(!h.status("music").playing && h.status("music").active)
  }

  @Test("Unplugging headphones while not playing does not pause (docs/avaudiosession.md §7.7)")
  func unplugHeadphones_notPlaying_noPause() throws {
    var h = try EngineHarness()
    h.plug("headphones")
    h.set("music", .playback)
    h.activate("music")
    #expect(h.unplug("headphones-1").lines.count == 1)
  }

  @Test(
    "Unplugging wired headphones falls back to a connected Bluetooth device without pausing (docs/avaudiosession.md §7.7)"
  )
  func unplugHeadphones_withBluetoothConnected_movesWithoutPause() throws {
    var h = try EngineHarness()
    h.plug("bluetoothA2DP")
    h.plug("headphones")
    h.start("music", .playback)
    #expect(h.outputs("music") == ["headphones"])
    let outcome = h.unplug("headphones-1")
    #expect(
      outcome.lines == [
        "music: routeChange oldDeviceUnavailable out[headphones] -> out[bluetoothA2DP]"
      ])
    #expect(h.status("music").playing)
  }

  @Test(
    "Last in wins; unplugging it returns to the previous device (docs/avaudiosession.md §7.3 QA1754)"
  )
  func lastInWins() throws {
    var h = try EngineHarness()
    h.set("music", .playback)
    h.plug("headphones")
    h.plug("bluetoothA2DP")
    #expect(h.outputs("music") == ["bluetoothA2DP"])
    h.unplug("bluetoothA2DP-1")
    #expect(h.outputs("music") == ["headphones"])
  }

  @Test("A session only hears about route changes of its own route (docs/contract.md transcript)")
  func plugA2DP_playAndRecordWithoutOption_noRouteChange() throws {
    var h = try EngineHarness()
    h.set("voip", .playAndRecord)
    h.set("music", .playback)
    let outcome = h.plug("bluetoothA2DP")
    #expect(
      outcome.lines == [
        "music: routeChange newDeviceAvailable out[builtInSpeaker] -> out[bluetoothA2DP]"
      ])
    #expect(h.outputs("voip") == ["builtInReceiver"])
  }

  @Test(
    "HFP wins over A2DP on one device for voice; playback uses A2DP (docs/avaudiosession.md §4.4, §7.3)"
  )
  func bluetoothHeadset_voiceUsesHFP_playbackUsesA2DP() throws {
    var h = try EngineHarness()
    h.set("voip", .playAndRecord, mode: .voiceChat, [.allowBluetoothA2DP])
    h.set("music", .playback)
    h.plug("bluetoothHeadset")
    #expect(h.outputs("voip") == ["bluetoothHFP"] && h.inputs("voip") == ["bluetoothHFP"])
    #expect(h.outputs("music") == ["bluetoothA2DP"])
  }

  @Test(
    "A VoIP call moves to a Bluetooth HFP headset (docs/avaudiosession.md §3 voiceChat implies HFP, §7.3)"
  )
  func voiceChat_plugHFP_movesBothDirections() throws {
    var h = try EngineHarness()
    h.start("voip", .playAndRecord, mode: .voiceChat)
    let outcome = h.plug("bluetoothHFP")
    #expect(
      outcome.lines == [
        "voip: routeChange newDeviceAvailable in[builtInMic] out[builtInReceiver] -> in[bluetoothHFP] out[bluetoothHFP]",
        // The headset's mic is a new input (§6.5).
        "voip: availableInputsChange",
      ])
  }

  @Test("defaultToSpeaker: headphones still win by default (docs/avaudiosession.md §7.4, §12 D1)")
  func defaultToSpeaker_headphonesWin_D1() throws {
    var h = try EngineHarness()
    h.set("voip", .playAndRecord, [.defaultToSpeaker])
    h.plug("headset")
    #expect(h.outputs("voip") == ["headphones"] && h.inputs("voip") == ["headsetMic"])

    var docc = try EngineHarness(adjust: { $0.defaultToSpeakerOverridesHeadphones = true })
    docc.set("voip", .playAndRecord, [.defaultToSpeaker])
    docc.plug("headset")
    #expect(docc.outputs("voip") == ["builtInSpeaker"] && docc.inputs("voip") == ["builtInMic"])
  }

  @Test("Override to speaker and back posts override route changes (docs/avaudiosession.md §7.5)")
  func overrideSpeaker_andNone() throws {
    var h = try EngineHarness()
    h.plug("headset")
    h.start("voip", .playAndRecord)
    let on = h.run(.overrideOutput(session: "voip", .speaker))
    #expect(
      on.lines == [
        "voip: routeChange override in[headsetMic] out[headphones] -> in[builtInMic] out[builtInSpeaker]"
      ])
    let off = h.run(.overrideOutput(session: "voip", .none))
    #expect(
      off.lines == [
        "voip: routeChange override in[builtInMic] out[builtInSpeaker] -> in[headsetMic] out[headphones]"
      ])
  }

  @Test("Override is only valid for playAndRecord: badParam (docs/avaudiosession.md §7.5)")
  func overrideSpeaker_onPlayback_isBadParam() throws {
    var h = try EngineHarness()
    h.set("music", .playback)
    let outcome = h.run(.overrideOutput(session: "music", .speaker))
    #expect(outcome.error?.code == .badParam)
    #expect(
      outcome.error?.message
        == "overrideOutputAudioPort is only valid with category 'playAndRecord'; 'music' has category 'playback'"
    )
    #expect(h.status("music").portOverride == .none)
  }

  @Test("A device change ends the speaker override (docs/avaudiosession.md §7.5: transient)")
  func override_endedByPlug() throws {
    var h = try EngineHarness()
    h.start("voip", .playAndRecord)
    h.run(.overrideOutput(session: "voip", .speaker))
    let outcome = h.plug("headphones")
    #expect(
      outcome.lines == [
        "voip: routeChange newDeviceAvailable in[builtInMic] out[builtInSpeaker] -> in[builtInMic] out[headphones]"
      ])
    #expect(h.status("voip").portOverride == .none)
  }

  @Test("An interruption ends the speaker override (docs/avaudiosession.md §7.5)")
  func override_endedByInterruption() throws {
    var h = try EngineHarness()
    h.start("voip", .playAndRecord)
    h.run(.overrideOutput(session: "voip", .speaker))
    let outcome = h.run(.call(active: true))
    #expect(
      outcome.lines == [
        "voip: interruption began default by call",
        "voip: routeChange override in[builtInMic] out[builtInSpeaker] -> in[builtInMic] out[builtInReceiver]",
      ])
  }

  @Test(
    "Changing the category of an active session posts categoryChange (docs/avaudiosession.md §6.2)")
  func setCategory_whileActive_postsCategoryChange() throws {
    var h = try EngineHarness()
    h.set("app", .playAndRecord)
    h.activate("app")
    #expect(
      h.set("app", .playback).lines == [
        "app: routeChange categoryChange in[builtInMic] out[builtInReceiver] -> out[builtInSpeaker]"
      ])
    // Inactive: no notification by default (§6.2, configurable).
    h.deactivate("app")
    #expect(h.set("app", .playAndRecord).lines == [])
  }

  @Test(
    "Losing the only input of a record session: noSuitableRouteForCategory (docs/avaudiosession.md §6.2)"
  )
  func unplugOnlyMic_postsNoSuitableRoute() throws {
    var h = try EngineHarness(devices: ["builtInSpeaker"])
    h.plug("headset")
    h.set("memo", .record)
    h.activate("memo")
    #expect(
      h.unplug("headset-1").lines == [
        "memo: routeChange noSuitableRouteForCategory in[headsetMic] out[] -> out[]",
        "memo: availableInputsChange",
      ])
  }

  @Test("multiRoute uses every eligible output at once (docs/avaudiosession.md §2 multiRoute)")
  func multiRoute_usesAllEligibleOutputs() throws {
    var h = try EngineHarness()
    h.set("dj", .multiRoute)
    #expect(h.outputs("dj") == ["builtInSpeaker"])
    h.plug("headphones")
    h.plug("HDMI")
    #expect(h.outputs("dj") == ["headphones", "HDMI"])
  }

  @Test(
    "dualRoute keeps the built-in speaker and mic as its primary route and adds the last connected device with both an input and an output as a second; output-only devices are ignored (docs/avaudiosession.md §3 dualRoute)"
  )
  func dualRoute_keepsBuiltInAndAddsADuplexDevice() throws {
    var h = try EngineHarness()
    h.set("dj", .multiRoute, mode: .dualRoute, .allowBluetoothHFP)
    h.activate("dj")
    #expect(h.outputs("dj") == ["builtInSpeaker"] && h.inputs("dj") == ["builtInMic"])
    // Headphones alone have no microphone: no second route, no route change.
    #expect(h.plug("headphones").lines == [])
    #expect(h.outputs("dj") == ["builtInSpeaker"])
    // A wired headset is the second route; the built-in ports stay.
    #expect(
      h.plug("headset").lines == [
        "dj: routeChange newDeviceAvailable in[builtInMic] out[builtInSpeaker]"
          + " -> in[builtInMic,headsetMic] out[builtInSpeaker,headphones]",
        "dj: availableInputsChange",
      ])
    // A Bluetooth headset connected later is the second route instead (last in), by HFP.
    h.plug("bluetoothHeadset")
    #expect(h.outputs("dj") == ["builtInSpeaker", "bluetoothHFP"])
    #expect(h.inputs("dj") == ["builtInMic", "bluetoothHFP"])
    // In mode default the same category uses its own rules: every eligible output at once.
    h.set("mixer", .multiRoute)
    #expect(h.outputs("mixer") == ["headphones", "headphones"])
  }

  @Test("A preferred input must be available and moves the input (docs/avaudiosession.md §7.6)")
  func preferredInput_mustBeAvailable() throws {
    var h = try EngineHarness()
    h.plug("usbAudio")
    h.set("memo", .record)
    #expect(h.inputs("memo") == ["usbAudio"])
    #expect(h.run(.setPreferredInput(session: "memo", uid: "builtin-mic")).error == nil)
    #expect(h.inputs("memo") == ["builtInMic"])
    let bad = h.run(.setPreferredInput(session: "memo", uid: "nope"))
    #expect(bad.error?.code == .badParam)
    #expect(h.inputs("memo") == ["builtInMic"])
  }
}

extension RouteTests {
  @Test(
    "A call losing its Bluetooth headset moves to the receiver without a pause (docs/avaudiosession.md §7.7 pauseCategories)"
  )
  func unplugHFP_duringCall_noPause() throws {
    var h = try EngineHarness()
    h.plug("bluetoothHFP")
    h.start("voip", .playAndRecord, mode: .voiceChat)
    #expect(
      h.unplug("bluetoothHFP-1").lines == [
        "voip: routeChange oldDeviceUnavailable in[bluetoothHFP] out[bluetoothHFP] -> in[builtInMic] out[builtInReceiver]",
        "voip: availableInputsChange",
      ])
    #expect(h.status("voip").playing)
  }
}
