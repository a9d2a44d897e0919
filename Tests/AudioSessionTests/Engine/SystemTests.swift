import Testing

@testable import AudioSession

/// What the system does: calls, switches, the mic mute, media services (docs/avaudiosession.md §2,
/// §4.4, §5.1, §6).
@Suite struct SystemTests {
  @Test(
    "A call interrupts every active session and ends with shouldResume (docs/avaudiosession.md §5.1 A4, §6.1, §12 D6)"
  )
  func call_interruptsEveryone_andEndsWithShouldResume() throws {
    var h = try EngineHarness()
    h.start("music", .playback)
    h.set("game", .ambient)
    h.activate("game")
    let began = h.run(.call(active: true))
    #expect(
      began.lines == [
        "music: interruption began default by call",
        "game: interruption began default by call",
      ])
    let ended = h.run(.call(active: false))
    #expect(
      ended.lines == [
        "music: interruption ended [shouldResume] by call",
        "game: interruption ended [shouldResume] by call",
      ])
  }

  @Test("D6 switch off: no ended after a call (docs/avaudiosession.md §12 D6)")
  func callEnd_D6Off_sendsNoEnded() throws {
    var h = try EngineHarness(adjust: { $0.endedAfterCall = false })
    h.start("music", .playback)
    h.run(.call(active: true))
    #expect(h.run(.call(active: false)).lines == [])
  }

  @Test(
    "During a call record and playAndRecord activation fail with insufficientPriority (docs/avaudiosession.md §5.1 A5)",
    arguments: [Category.record, .playAndRecord])
  func activate_inputCategoryDuringCall_isRejected(category: Category) throws {
    var h = try EngineHarness()
    h.set("voip", category)
    h.run(.call(active: true))
    let outcome = h.activate("voip")
    #expect(outcome.error?.code == .insufficientPriority)
    #expect(outcome.error?.code.rawValue == 561_017_449)
    #expect(
      outcome.error?.message
        == "Cannot activate 'voip' (\(category.name)): a phone call is in progress")
    #expect(!h.status("voip").active)
  }

  @Test(
    "During a call playback may activate unless D9 says otherwise (docs/avaudiosession.md §5.1 A5, §12 D9)"
  )
  func activate_playbackDuringCall_dependsOnD9() throws {
    var allowed = try EngineHarness()
    allowed.set("music", .playback)
    allowed.run(.call(active: true))
    #expect(allowed.activate("music").error == nil)

    var strict = try EngineHarness(adjust: { $0.callBlocksPlaybackActivation = true })
    strict.set("music", .playback)
    strict.run(.call(active: true))
    #expect(strict.activate("music").error?.code == .insufficientPriority)
  }

  @Test(
    "The session whose app makes the call sets playAndRecord and activates during it, and the call interrupts every session but it, whichever came first (docs/apps.md Calls)"
  )
  func callOwner_isNeitherRefusedNorInterrupted() throws {
    // The call first, then its program's session (the server showed the call stream first).
    var h = try EngineHarness()
    h.start("music", .playback)
    #expect(h.run(.call(active: true)).lines == ["music: interruption began default by call"])
    h.run(.createSession("phone.42"))
    #expect(h.run(.ownCall(session: "phone.42")).error == nil)
    #expect(h.set("phone.42", .playAndRecord, mode: .voiceChat).error == nil)
    #expect(h.activate("phone.42").error == nil)
    #expect(h.status("phone.42").active)
    // Another program still cannot record during the call.
    #expect(h.set("voip", .record).error?.code == .insufficientPriority)

    // Its session first, then the call: it is not interrupted, the music is.
    var g = try EngineHarness()
    g.start("music", .playback, [.mixWithOthers])
    g.run(.createSession("phone.42"))
    g.run(.ownCall(session: "phone.42"))
    g.start("phone.42", .playAndRecord, mode: .voiceChat)
    #expect(g.run(.call(active: true)).lines == ["music: interruption began default by call"])
    #expect(g.status("phone.42").active && !g.status("phone.42").interrupted)
    #expect(
      g.run(.call(active: false)).lines == ["music: interruption ended [shouldResume] by call"])
  }

  @Test(
    "During a call setCategory to playAndRecord fails with insufficientPriority (docs/avaudiosession.md §5.1 A6, §10)"
  )
  func setCategory_playAndRecordDuringCall_isRejected() throws {
    var h = try EngineHarness()
    h.run(.call(active: true))
    let outcome = h.set("voip", .playAndRecord)
    #expect(outcome.error?.code == .insufficientPriority)
    #expect(h.status("voip").configuration == .initial)
  }

  @Test(
    "Muting the built-in mic interrupts input sessions on it (docs/avaudiosession.md §4.4, §6.1 builtInMicMuted)"
  )
  func micMute_interruptsRecorder_andUnmuteEndsIt() throws {
    var h = try EngineHarness()
    h.start("memo", .record)
    #expect(
      h.run(.builtInMicMute(on: true)).lines == [
        "memo: interruption began builtInMicMuted by system"
      ])
    #expect(
      h.run(.builtInMicMute(on: false)).lines == [
        "memo: interruption ended [shouldResume] by system"
      ])
  }

  @Test(
    "overrideMutedMicrophoneInterruption keeps the session active (docs/avaudiosession.md §4.4)")
  func micMute_withOverrideOption_doesNotInterrupt() throws {
    var h = try EngineHarness()
    h.start("voip", .playAndRecord, [.overrideMutedMicrophoneInterruption])
    #expect(h.run(.builtInMicMute(on: true)).lines == [])
    #expect(h.status("voip").active)
  }

  @Test(
    "The mic mute spares sessions recording from another mic, and output-only sessions (docs/avaudiosession.md §4.4)"
  )
  func micMute_headsetMicOrPlayback_notInterrupted() throws {
    var h = try EngineHarness()
    h.plug("headset")
    h.start("memo", .record)
    h.start("fx", .playback, [.mixWithOthers])
    #expect(h.inputs("memo") == ["headsetMic"])
    #expect(h.run(.builtInMicMute(on: true)).lines == [])
  }

  @Test(
    "The mic mute interrupts only sessions running input: an active recorder whose I/O is stopped is spared, and cannot start it until the unmute (docs/avaudiosession.md §4.4, §6.1 builtInMicMuted)"
  )
  func micMute_idleRecorder_spared_andCannotStart() throws {
    var h = try EngineHarness()
    h.set("memo", .playAndRecord)
    h.activate("memo")
    h.start("voip", .playAndRecord, [.mixWithOthers])
    #expect(
      h.run(.builtInMicMute(on: true)).lines == [
        "voip: interruption began builtInMicMuted by system"
      ])
    #expect(h.status("memo").active && !h.status("memo").interrupted)
    let refused = h.play("memo")
    #expect(refused.error?.code == .cannotStartRecording)
    #expect(!h.status("memo").playing && refused.lines.isEmpty)
    #expect(
      h.run(.builtInMicMute(on: false)).lines == [
        "voip: interruption ended [shouldResume] by system"
      ])
    #expect(h.play("memo").error == nil)
  }

  @Test(
    "Activating an input session on a muted built-in mic fails (docs/avaudiosession.md §4.4: starting input while muted fails)"
  )
  func activate_recorderWhileMicMuted_fails() throws {
    var h = try EngineHarness()
    h.run(.builtInMicMute(on: true))
    h.set("memo", .record)
    #expect(h.activate("memo").error?.code == .resourceNotAvailable)
  }

  @Test("The silent switch mutes ambient and soloAmbient, not playback (docs/avaudiosession.md §2)")
  func silentSwitch_mutesAmbientOnly() throws {
    var h = try EngineHarness()
    h.set("game", .ambient)
    h.activate("game")
    h.set("music", .playback)
    h.activate("music")
    #expect(h.run(.silentSwitch(on: true)).lines == ["game: mute silentSwitch"])
    #expect(h.status("game").muted && !h.status("music").muted)
    #expect(h.run(.silentSwitch(on: false)).lines == ["game: unmute"])
  }

  @Test(
    "Lock and silent switch together mute once and unmute when both are off (docs/avaudiosession.md §2)"
  )
  func lockAndSilent_muteOnce() throws {
    var h = try EngineHarness()
    h.set("solo", .soloAmbient)
    h.activate("solo")
    #expect(h.run(.screenLock(on: true)).lines == ["solo: mute screenLock"])
    #expect(h.run(.silentSwitch(on: true)).lines == [])
    #expect(h.run(.screenLock(on: false)).lines == [])
    #expect(h.run(.silentSwitch(on: false)).lines == ["solo: unmute"])
  }

  @Test("A session activated with the switch on is muted at once (docs/avaudiosession.md §2)")
  func activate_withSilentSwitchOn_isMuted() throws {
    var h = try EngineHarness()
    h.run(.silentSwitch(on: true))
    h.set("game", .ambient)
    #expect(h.activate("game").lines == ["game: mute silentSwitch"])
  }

  @Test("The secondary-audio hint follows non-mixable playback (docs/avaudiosession.md §6.3, §8)")
  func hint_followsNonMixablePlayback() throws {
    var h = try EngineHarness()
    h.set("game", .ambient)
    h.activate("game")
    h.set("music", .playback)
    h.activate("music")
    #expect(!h.status("game").secondaryAudioShouldBeSilencedHint)
    #expect(h.play("music").lines == ["game: hint begin"])
    #expect(h.status("game").secondaryAudioShouldBeSilencedHint)
    #expect(h.status("game").isOtherAudioPlaying)
    #expect(h.stop("music").lines == ["game: hint end"])
  }

  @Test(
    "The secondary-audio hint notification goes only to apps in the foreground; a background app reads the property (docs/avaudiosession.md §6.3)"
  )
  func hint_onlyToForegroundApps() throws {
    var h = try EngineHarness()
    h.set("game", .ambient)
    h.activate("game")
    h.set("fx", .ambient)
    h.activate("fx")
    h.run(.setAppState(session: "fx", .background))
    h.set("music", .playback)
    h.activate("music")
    #expect(h.play("music").lines == ["game: hint begin"])
    #expect(h.status("fx").secondaryAudioShouldBeSilencedHint)
    // Back in the foreground, fx is told of the next change.
    h.run(.setAppState(session: "fx", .foreground))
    #expect(h.stop("music").lines == ["game: hint end", "fx: hint end"])
    h.run(.setAppState(session: "game", .background))
    #expect(h.play("music").lines == ["fx: hint begin"])
  }

  @Test(
    "Media services lost and reset: notifications, msrv meanwhile, configuration reset (docs/avaudiosession.md §6.4)"
  )
  func mediaServices_lostThenReset() throws {
    var h = try EngineHarness()
    h.start("music", .playback)
    h.set("nav", .playback, [.duckOthers])
    h.activate("nav")
    #expect(
      h.run(.mediaServicesLost).lines == [
        "music: mediaServicesWereLost", "nav: mediaServicesWereLost",
      ])
    let failed = h.activate("music")
    #expect(failed.error?.code == .mediaServicesFailed)
    #expect(failed.error?.code.rawValue == 1_836_282_486)
    #expect(!h.status("music").active && !h.status("music").ducked)
    #expect(
      h.run(.mediaServicesReset).lines == [
        "music: mediaServicesWereReset", "nav: mediaServicesWereReset",
      ])
    #expect(h.status("music").configuration == .initial)
    #expect(h.activate("music").error == nil)
  }
}
