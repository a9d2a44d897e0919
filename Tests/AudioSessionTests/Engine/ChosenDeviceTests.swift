import Testing

@testable import AudioSession

/// The user's choice of output or input (a default sink or source, a stream moved in a mixer) is
/// a route change with reason `override`, never a device change (docs/engine.md "chosen device";
/// product spec "Apps on the server").
@Suite struct ChosenDeviceTests {
  @Test("Choosing the speaker with headphones plugged reroutes with override and no pause")
  func chooseSpeaker_overHeadphones_isOverride() throws {
    var h = try EngineHarness()
    h.plug("headphones")
    h.start("movie", .playback, mode: .moviePlayback)
    let away = h.choose("builtin-speaker")
    #expect(away.error == nil)
    #expect(away.lines == ["movie: routeChange override out[headphones] -> out[builtInSpeaker]"])
    #expect(h.status("movie").playing && h.outputs("movie") == ["builtInSpeaker"])
    let back = h.choose("headphones-1")
    #expect(back.lines == ["movie: routeChange override out[builtInSpeaker] -> out[headphones]"])
    #expect(h.status("movie").playing)
  }

  @Test("Choosing the device a session already uses posts nothing")
  func chooseCurrentRoute_postsNothing() throws {
    var h = try EngineHarness()
    h.plug("headphones")
    h.start("music", .playback)
    #expect(h.choose("headphones-1").lines.isEmpty)
  }

  @Test("A choice for one session reroutes only that session")
  func chooseForOneSession_onlyThatSession() throws {
    var h = try EngineHarness()
    h.plug("headphones")
    h.start("music", .playback, [.mixWithOthers])
    h.start("video", .playback, mode: .moviePlayback, [.mixWithOthers])
    let outcome = h.choose("builtin-speaker", for: "music")
    #expect(outcome.lines == ["music: routeChange override out[headphones] -> out[builtInSpeaker]"])
    #expect(h.outputs("video") == ["headphones"])
  }

  @Test("A choice for everyone replaces a session's own choice")
  func chooseForEveryone_replacesSessionChoice() throws {
    var h = try EngineHarness()
    h.plug("headphones")
    h.start("music", .playback)
    h.choose("builtin-speaker", for: "music")
    let outcome = h.choose("headphones-1")
    #expect(outcome.lines == ["music: routeChange override out[builtInSpeaker] -> out[headphones]"])
  }

  @Test("A session whose category cannot route to the chosen device keeps its route")
  func chooseIneligibleDevice_keepsRoute() throws {
    var h = try EngineHarness()
    h.plug("headphones")
    h.plug("bluetoothA2DP")
    h.start("voip", .playAndRecord, [.mixWithOthers])
    h.start("music", .playback, [.mixWithOthers])
    #expect(h.outputs("voip") == ["headphones"] && h.outputs("music") == ["bluetoothA2DP"])
    h.choose("headphones-1")
    let outcome = h.choose("bluetoothA2DP-1")
    // playAndRecord does not route to A2DP without allowBluetoothA2DP
    // (docs/avaudiosession.md §7.4).
    #expect(outcome.lines == ["music: routeChange override out[headphones] -> out[bluetoothA2DP]"])
    #expect(h.outputs("voip") == ["headphones"])
  }

  @Test("A device plugged after a choice wins (last in wins); unplugging it falls back as usual")
  func plugAfterChoice_lastInWins() throws {
    var h = try EngineHarness()
    h.plug("headphones")
    h.start("music", .playback)
    h.choose("builtin-speaker")
    let plugged = h.plug("bluetoothA2DP")
    #expect(
      plugged.lines == [
        "music: routeChange newDeviceAvailable out[builtInSpeaker] -> out[bluetoothA2DP]"
      ])
    let unplugged = h.unplug("bluetoothA2DP-1")
    #expect(
      unplugged.lines == [
        "music: routeChange oldDeviceUnavailable out[bluetoothA2DP] -> out[headphones]"
      ])
  }

  @Test("Unplugging the chosen headphones is still an unplug: oldDeviceUnavailable and a pause")
  func unplugChosenHeadphones_pauses() throws {
    var h = try EngineHarness()
    h.plug("headphones")
    h.plug("bluetoothA2DP")
    h.start("music", .playback)
    h.choose("headphones-1")
    let outcome = h.unplug("headphones-1")
    #expect(
      outcome.lines == [
        "music: routeChange oldDeviceUnavailable out[headphones] -> out[bluetoothA2DP]"
      ])
    h.choose("builtin-speaker")
    h.choose("bluetoothA2DP-1")
    #expect(
      h.unplug("bluetoothA2DP-1").lines == [
        "music: routeChange oldDeviceUnavailable out[bluetoothA2DP] -> out[builtInSpeaker]",
        "music: pause oldDeviceUnavailable",
      ])
  }

  @Test("Choosing an input reroutes recording sessions' inputs with override")
  func chooseInput_reroutesRecording() throws {
    var h = try EngineHarness()
    h.plug("headset")
    h.start("memo", .record)
    #expect(h.inputs("memo") == ["headsetMic"])
    let outcome = h.choose("builtin-mic", .input)
    #expect(
      outcome.lines == ["memo: routeChange override in[headsetMic] out[] -> in[builtInMic] out[]"])
  }

  @Test(
    "Choosing an unknown device, or one without a port of that direction, fails and changes nothing"
  )
  func chooseBadDevice_failsAndChangesNothing() throws {
    var h = try EngineHarness()
    h.plug("headphones")
    h.start("music", .playback)
    let unknown = h.choose("nowhere")
    #expect(unknown.error?.code == .badParam && unknown.lines.isEmpty)
    let noInput = h.choose("headphones-1", .input)
    #expect(noInput.error?.code == .badParam && noInput.lines.isEmpty)
    #expect(h.unplug("headphones-1").lines.contains("music: pause oldDeviceUnavailable"))
  }

  @Test("The speaker override of a playAndRecord session outlasts a user's choice (QA1754)")
  func choice_keepsSpeakerOverride() throws {
    var h = try EngineHarness()
    h.start("voip", .playAndRecord)
    h.run(.overrideOutput(session: "voip", .speaker))
    h.plug("headphones")
    h.run(.overrideOutput(session: "voip", .speaker))
    #expect(h.choose("builtin-receiver").lines.isEmpty)
    #expect(h.status("voip").portOverride == .speaker)
  }
}
