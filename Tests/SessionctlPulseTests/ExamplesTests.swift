import AudioSessionScenario
import AudioSessionTestSupport
import Foundation
import Testing

// examples/: each scenario tells one story; its golden transcript is checked byte for byte
// (`UPDATE_GOLDEN=1 swift test --filter Examples` rewrites them), and each story's key facts are
// asserted against the spec.
@Suite struct ExamplesTests {
  static let names = [
    "music-and-call", "navigation-ducks-music", "podcast-spoken-prompt", "headphones-unplugged",
    "voip-bluetooth", "game-silent-switch", "override-speaker", "media-services-reset", "commute",
    "podcast-background", "long-form-bluetooth", "voip-headset-mic", "short-form-video",
    "morning-alarm", "desktop-chromium-played-again", "desktop-daemon-restart-call",
    "desktop-server-restart-call", "desktop-browser-call", "desktop-user-pause-during-call",
    "desktop-one-binary-two-apps", "desktop-unplug-then-call", "desktop-speech-one-duck",
    "desktop-restart-latest-player",
    "desktop-stall-is-not-a-pause",
  ]

  @Test("every example has a golden and is listed here (docs/contract.md Scenario files)")
  func examples_directory_hasGoldenForEachScenario() throws {
    let files = try FileManager.default.contentsOfDirectory(atPath: CLIFixtures.examples)
    let scenarios = files.filter { $0.hasSuffix(".yaml") }.map { String($0.dropLast(5)) }.sorted()
    #expect(scenarios == Self.names.sorted())
    #expect(scenarios.count >= 8)
    for name in scenarios {
      #expect(files.contains("\(name).jsonl"), "\(name).yaml has no golden \(name).jsonl")
    }
  }

  @Test(
    "the transcript matches the golden byte for byte (docs/contract.md: byte-identical every run)",
    arguments: names)
  func run_example_matchesGolden(name: String) async throws {
    let transcript = try await ExampleTranscript.run(name)
    let actual = transcript.text.map { $0 + "\n" }.joined()
    let path = "\(CLIFixtures.examples)/\(name).jsonl"
    if ProcessInfo.processInfo.environment["UPDATE_GOLDEN"] == "1" {
      try actual.write(toFile: path, atomically: true, encoding: .utf8)
      return
    }
    let golden = try String(contentsOfFile: path, encoding: .utf8)
    #expect(actual == golden, "\(name): run with UPDATE_GOLDEN=1 after checking the difference")
    #expect(transcript.text == (try await ExampleTranscript.run(name)).text)
  }

  @Test(
    "a call interrupts music (began, by call); when it ends music may resume (docs/avaudiosession.md §5.1 A4, §6.1, §12 D6)"
  )
  func musicAndCall_callInterruptsThenResumes() async throws {
    let t = try await ExampleTranscript.run("music-and-call")
    #expect(t.errorSteps == [])
    let begin = try #require(t.step("simulate call begin"))
    #expect(t.events(begin) == ["music interruption began default by call"])
    let during = try #require(t.result(begin + 1)?.status)
    #expect(during.system.call)
    #expect(during.sessions["music"]?.active == false)
    #expect(during.sessions["music"]?.interrupted == true)
    let end = try #require(t.step("simulate call end"))
    // The default profile delivers `ended` with shouldResume after a call (§12 D6).
    #expect(t.events(end) == ["music interruption ended [shouldResume] by call"])
    // After reactivating (§5.1 A11) music plays again.
    let after = try #require(t.lines.last?.status)
    #expect(after.sessions["music"]?.active == true)
    #expect(after.sessions["music"]?.playing == true)
    #expect(after.sessions["music"]?.interrupted == false)
    #expect(t.allEvents.count == 2)
  }

  @Test(
    "a commute: a prompt ducks music, a call interrupts it and it resumes, headphones pulled out pause it (docs/avaudiosession.md §4.4, §5.1 A4, §7.7)"
  )
  func commute_duckCallUnplug() async throws {
    let t = try await ExampleTranscript.run("commute")
    #expect(t.errorSteps == [])
    #expect(t.events(try #require(t.step("nav activate"))).contains("music duck by nav"))
    #expect(t.events(try #require(t.step("nav deactivate"))) == ["music unduck"])
    // nav speaks voice prompts: during the call its promptStyle is short (§13.5).
    #expect(
      t.events(try #require(t.step("simulate call begin")))
        == ["music interruption began default by call", "nav promptStyle short"])
    #expect(
      t.events(try #require(t.step("simulate call end")))
        == ["music interruption ended [shouldResume] by call", "nav promptStyle normal"])
    let unplug = try #require(t.step("simulate unplug headphones"))
    #expect(t.events(unplug).contains("music pause oldDeviceUnavailable"))
    let after = try #require(t.lines.last?.status)
    #expect(after.sessions["music"]?.playing == false)
    #expect(after.sessions["music"]?.route.summary == "out builtInSpeaker")
  }

  @Test(
    "a duckOthers prompt ducks music without interrupting it, and unducks on deactivation; the transcript shows what each reads of the other (docs/avaudiosession.md §4.4, §5.1 A3, §6.3, §8)"
  )
  func navigationDucksMusic_duckThenUnduck() async throws {
    let t = try await ExampleTranscript.run("navigation-ducks-music")
    #expect(t.errorSteps == [])
    let activate = try #require(t.step("nav activate"))
    #expect(t.events(activate).contains("music duck by nav"))
    #expect(!t.allEvents.contains { $0.contains("interruption") })
    let ducked = try #require(t.result(activate + 2)?.status)
    #expect(ducked.sessions["music"]?.ducked == true)
    #expect(ducked.sessions["music"]?.playing == true)
    // duckOthers implies mixWithOthers (§4.2), read back in raw-bit order.
    #expect(ducked.sessions["nav"]?.options == ["mixWithOthers", "duckOthers"])
    // What each app reads of the other (§6.3, §8): both hear other audio; only nav is hinted
    // to silence, music's audio being non-mixable and nav's mixable.
    #expect(ducked.sessions["music"]?.otherAudioPlaying == true)
    #expect(ducked.sessions["nav"]?.otherAudioPlaying == true)
    #expect(ducked.sessions["music"]?.secondaryAudioShouldBeSilencedHint == false)
    #expect(ducked.sessions["nav"]?.secondaryAudioShouldBeSilencedHint == true)
    let deactivate = try #require(t.step("nav deactivate"))
    #expect(t.events(deactivate) == ["music unduck"])
    #expect(t.lines.last?.status?.sessions["music"]?.ducked == false)
    #expect(t.lines.last?.status?.sessions["music"]?.otherAudioPlaying == false)
  }

  @Test(
    "a spoken prompt interrupts spokenAudio instead of ducking it; notifyOthers lets it resume (docs/avaudiosession.md §4.4, §5.1 A10)"
  )
  func podcastSpokenPrompt_interruptedThenResumes() async throws {
    let t = try await ExampleTranscript.run("podcast-spoken-prompt")
    #expect(t.errorSteps == [])
    let activate = try #require(t.step("nav activate"))
    #expect(t.events(activate) == ["podcast interruption began default by nav"])
    #expect(!t.allEvents.contains { $0.contains("duck") })
    let deactivate = try #require(t.step("nav deactivate --notify-others"))
    #expect(t.events(deactivate) == ["podcast interruption ended [shouldResume] by nav"])
    let last = try #require(t.lines.last?.status?.sessions["podcast"])
    #expect(last.active && last.playing && !last.interrupted)
    #expect(last.mode == "spokenAudio")
  }

  @Test(
    "unplugging headphones mid-song falls back to the speaker and pauses (docs/avaudiosession.md §6.2, §7.7)"
  )
  func headphonesUnplugged_routeFallsBackAndPauses() async throws {
    let t = try await ExampleTranscript.run("headphones-unplugged")
    #expect(t.errorSteps == [])
    let plug = try #require(t.step("simulate plug headphones"))
    #expect(
      t.events(plug) == [
        "music routeChange newDeviceAvailable (out builtInSpeaker -> out headphones)"
      ])
    let unplug = try #require(t.step("simulate unplug headphones"))
    // The route change comes first, then the pause (docs/avaudiosession.md §7.7: decided from the
    // change).
    #expect(
      t.events(unplug) == [
        "music routeChange oldDeviceUnavailable (out headphones -> out builtInSpeaker)",
        "music pause oldDeviceUnavailable",
      ])
    let music = try #require(t.lines.last?.status?.sessions["music"])
    #expect(music.active && !music.playing)
    #expect(music.route.summary == "out builtInSpeaker")
  }

  @Test(
    "voiceChat moves a VoIP call to the HFP headset, in and out, and back to the receiver; its available inputs change with it (docs/avaudiosession.md §3, §6.5, §7.3)"
  )
  func voipBluetooth_movesToHFPAndBack() async throws {
    let t = try await ExampleTranscript.run("voip-bluetooth")
    #expect(t.errorSteps == [])
    // playAndRecord with nothing attached: receiver and built-in mic (§7.3).
    #expect(t.result(4)?.route?.summary == "out builtInReceiver; in builtInMic")
    let plug = try #require(t.step("simulate plug bluetoothHFP"))
    #expect(
      t.events(plug) == [
        "voip routeChange newDeviceAvailable (out builtInReceiver; in builtInMic -> out bluetoothHFP; in bluetoothHFP)",
        // iOS 26: the headset's mic is a new available input (§6.5).
        "voip availableInputsChange",
      ])
    #expect(t.result(plug + 1)?.route?.summary == "out bluetoothHFP; in bluetoothHFP")
    let unplug = try #require(t.step("simulate unplug bluetoothHFP"))
    #expect(
      t.events(unplug).first
        == "voip routeChange oldDeviceUnavailable (out bluetoothHFP; in bluetoothHFP -> out builtInReceiver; in builtInMic)"
    )
    // A call is not a player: the system does not pause it, it moves to the receiver (§7.7
    // pauseCategories); its available inputs lose the headset's mic (§6.5).
    #expect(t.events(unplug).dropFirst() == ["voip availableInputsChange"])
  }

  @Test(
    "the silent switch mutes an ambient game; non-mixable music hints it to silence (docs/avaudiosession.md §2, §6.3)"
  )
  func gameSilentSwitch_muteUnmuteAndHint() async throws {
    let t = try await ExampleTranscript.run("game-silent-switch")
    #expect(t.errorSteps == [])
    #expect(t.events(try #require(t.step("simulate silent on"))) == ["game mute silentSwitch"])
    #expect(t.result(5)?.status?.sessions["game"]?.muted == true)
    #expect(t.events(try #require(t.step("simulate silent off"))) == ["game unmute"])
    // Ambient mixes: music's activation does not interrupt the game (§2).
    #expect(t.events(try #require(t.step("music activate"))) == [])
    #expect(
      t.events(try #require(t.step("music play"))) == ["game silenceSecondaryAudioHint begin"])
    #expect(t.events(try #require(t.step("music stop"))) == ["game silenceSecondaryAudioHint end"])
    let game = try #require(t.lines.last?.status?.sessions["game"])
    #expect(game.active && game.playing && !game.muted && game.options == ["mixWithOthers"])
  }

  @Test(
    "override speaker moves playAndRecord to speaker and built-in mic, even with a headset (docs/avaudiosession.md §7.5)"
  )
  func overrideSpeaker_routesToSpeakerAndBack() async throws {
    let t = try await ExampleTranscript.run("override-speaker")
    #expect(t.result(3)?.route?.summary == "out builtInReceiver; in builtInMic")
    #expect(
      t.events(4) == [
        "facetime routeChange override (out builtInReceiver; in builtInMic -> out builtInSpeaker; in builtInMic)"
      ])
    #expect(
      t.events(6) == [
        "facetime routeChange override (out builtInSpeaker; in builtInMic -> out builtInReceiver; in builtInMic)"
      ])
    #expect(t.result(8)?.route?.summary == "out headphones; in headsetMic")
    #expect(
      t.events(9) == [
        "facetime routeChange override (out headphones; in headsetMic -> out builtInSpeaker; in builtInMic)"
      ])
    // Only playAndRecord may override: badParam (-50) otherwise.
    #expect(t.errorSteps == [12])
    #expect(t.result(12)?.error?.code == "badParam")
    #expect(t.result(12)?.error?.rawValue == -50)
  }

  @Test(
    "a media server restart posts lost, then reset, and the session must be set up again (docs/avaudiosession.md §6.4)"
  )
  func mediaServicesReset_lostThenResetThenReconfigure() async throws {
    let t = try await ExampleTranscript.run("media-services-reset")
    #expect(t.errorSteps == [])
    let restart = try #require(t.step("simulate server-restart"))
    #expect(t.events(restart) == ["music mediaServicesWereLost", "music mediaServicesWereReset"])
    let reset = try #require(t.result(restart + 1)?.status?.sessions["music"])
    #expect(reset.category == "soloAmbient")
    #expect(!reset.active && !reset.playing)
    let rebuilt = try #require(t.lines.last?.status?.sessions["music"])
    #expect(rebuilt.category == "playback" && rebuilt.active && rebuilt.playing)
  }

  @Test(
    "an alarm interrupts the non-mixable music, not the mixable game, and ends with shouldResume when dismissed (docs/avaudiosession.md §6.1)"
  )
  func morningAlarm_interruptsAndEnds() async throws {
    let t = try await ExampleTranscript.run("morning-alarm")
    #expect(t.errorSteps == [])
    let begin = try #require(t.step("simulate alarm begin"))
    #expect(
      t.events(begin) == [
        "music interruption began default by alarm", "game silenceSecondaryAudioHint end",
      ])
    let during = try #require(t.result(begin + 1)?.status)
    #expect(during.sessions["music"]?.interrupted == true)
    #expect(during.sessions["game"]?.active == true && during.sessions["game"]?.playing == true)
    #expect(
      t.events(try #require(t.step("simulate alarm end")))
        == ["music interruption ended [shouldResume] by alarm"])
    let after = try #require(t.lines.last?.status)
    #expect(after.sessions["music"]?.active == true && after.sessions["music"]?.playing == true)
  }

  @Test(
    "a podcast in the background: a game is refused, a banner call and Siri interrupt and end, suspension is told late (docs/avaudiosession.md §5.1 A7, A12, §13.4, §13.5)"
  )
  func podcastBackground_callSiriSuspension() async throws {
    let t = try await ExampleTranscript.run("podcast-background")
    let game = try #require(t.step("game activate"))
    #expect(t.errorSteps == [game])
    #expect(t.result(game)?.error?.code == "cannotInterruptOthers")
    #expect(t.result(game)?.error?.rawValue == 560_557_684)
    #expect(
      t.events(try #require(t.step("simulate call ring --style banner")))
        == ["podcast interruption began default by call"])
    #expect(
      t.events(try #require(t.step("simulate call end")))
        == ["podcast interruption ended [shouldResume] by call"])
    #expect(
      t.events(try #require(t.step("simulate siri begin")))
        == ["podcast interruption began default by siri"])
    #expect(
      t.events(try #require(t.step("simulate siri end")))
        == ["podcast interruption ended [shouldResume] by siri"])
    let suspended = try #require(t.step("podcast app-state suspended"))
    #expect(t.events(suspended) == [])
    #expect(t.result(suspended + 1)?.status?.sessions["podcast"]?.active == false)
    #expect(
      t.events(try #require(t.lines.last { $0.command == "podcast app-state background" }?.step))
        == ["podcast interruption began default by system"])
  }

  @Test(
    "a long-form session on Bluetooth: options refused, and the Now Playing app is interrupted (routeDisconnected) after the pause unless it opts out (docs/avaudiosession.md §7.7, §13.3, §13.5)"
  )
  func longFormBluetooth_routeDisconnected() async throws {
    let t = try await ExampleTranscript.run("long-form-bluetooth")
    #expect(t.errorSteps == [1])
    #expect(t.result(1)?.error?.code == "badParam")
    #expect(t.result(7)?.route?.summary == "out bluetoothA2DP")
    #expect(
      t.events(8) == [
        "books routeChange oldDeviceUnavailable (out bluetoothA2DP -> out builtInSpeaker)",
        "books pause oldDeviceUnavailable",
        "books interruption began routeDisconnected by system",
      ])
    let unplug = try #require(t.lines.last { $0.command == "simulate unplug bluetoothA2DP" }?.step)
    #expect(!t.events(unplug).contains { $0.hasPrefix("radio interruption") })
    #expect(t.events(unplug).contains("radio pause oldDeviceUnavailable"))
  }

  @Test(
    "a VoIP app prefers the wired headset's mic over a later Bluetooth headset, by port type; the preference goes with the device (docs/avaudiosession.md §7.6, §13.5)"
  )
  func voipHeadsetMic_preferredInput() async throws {
    let t = try await ExampleTranscript.run("voip-headset-mic")
    let prefer = try #require(t.step("voip prefer input headsetMic"))
    #expect(
      t.events(prefer) == [
        "voip routeChange override (out bluetoothHFP; in bluetoothHFP -> out headphones; in headsetMic)"
      ])
    #expect(t.result(prefer + 1)?.route?.summary == "out headphones; in headsetMic")
    let unplug = try #require(t.step("simulate unplug headset"))
    #expect(t.result(unplug + 1)?.route?.summary == "out bluetoothHFP; in bluetoothHFP")
    #expect(t.errorSteps == [unplug + 2])
    #expect(
      t.events(try #require(t.step("voip data-source Front")))
        == [
          "voip routeChange routeConfigurationChange (out builtInReceiver; in builtInMic -> out builtInReceiver; in builtInMic)"
        ])
  }

  @Test(
    "a muted shortFormVideo session is unmuted by the system when the volume goes up, told of the intent first; other modes stay muted; playAndRecord voiceChat cannot mute its output but mutes its input (docs/avaudiosession.md §1.5, §3)"
  )
  func shortFormVideo_mutedThenUnmutedByVolume() async throws {
    let t = try await ExampleTranscript.run("short-form-video")
    #expect(
      t.events(try #require(t.step("feed output-muted on"))) == ["feed outputMuteStateChange muted"]
    )
    let muted = try #require(t.result(7)?.status)
    #expect(muted.sessions["feed"]?.outputMuted == true)
    #expect(muted.sessions["movie"]?.outputMuted == true)
    // The system's mute is another thing.
    #expect(muted.sessions["feed"]?.muted == false)
    #expect(t.events(try #require(t.step("simulate volume 0.5"))) == [])
    #expect(
      t.events(try #require(t.step("simulate volume 0.75"))) == [
        "feed userIntentToUnmuteOutput", "feed outputMuteStateChange unmuted",
      ])
    let after = try #require(t.result(10)?.status)
    #expect(after.sessions["feed"]?.outputMuted == false)
    #expect(after.sessions["movie"]?.outputMuted == true)
    #expect(t.errorSteps == [12])
    #expect(t.result(12)?.error?.code == "incompatibleCategory")
    // The app's input mute (AVAudioApplication, iOS 17): stored while the call is inactive,
    // told when it goes active (docs/avaudiosession.md §13.6), shown, not the hardware's.
    #expect(t.events(13) == [])
    #expect(t.events(14).contains("voip inputMuteStateChange muted"))
    let last = try #require(t.lines.last?.status)
    #expect(
      last.sessions["voip"]?.inputMuted == true && last.sessions["voip"]?.outputMuted == false)
    #expect(last.system.micMuted == false)
  }
}
