import Testing

@testable import AudioSession

/// Activation and deactivation (docs/avaudiosession.md §5.1, §5.2, §4.4, §6.1).
@Suite struct ActivationTests {
  @Test(
    "Activating a non-mixable session interrupts other non-mixable ones (docs/avaudiosession.md §5.1 A2)"
  )
  func activate_nonMixableWhileNonMixablePlays_interruptsIt() throws {
    var h = try EngineHarness()
    h.start("music", .playback)
    h.set("podcast", .playback)
    let outcome = h.activate("podcast")
    #expect(outcome.error == nil)
    #expect(outcome.lines == ["music: interruption began default by podcast"])
    let music = h.status("music")
    #expect(!music.active && music.interrupted && !music.playing)
    #expect(h.status("podcast").active)
  }

  @Test(
    "Activating a mixable session interrupts nobody (docs/avaudiosession.md §5.1 A3, §6.3 hint)")
  func activate_mixableWhileNonMixablePlays_mixes() throws {
    var h = try EngineHarness()
    h.start("music", .playback)
    h.set("game", .ambient)
    let outcome = h.activate("game")
    // The game hears that primary audio from another app is playing (§6.3).
    #expect(outcome.lines == ["game: hint begin"])
    #expect(h.status("music").active && h.status("music").playing)
  }

  @Test(
    "playback with mixWithOthers is mixable: nobody is interrupted (docs/avaudiosession.md §4.4 mixWithOthers)"
  )
  func activate_playbackMixWithOthers_interruptsNobody() throws {
    var h = try EngineHarness()
    h.start("music", .playback)
    h.set("fx", .playback, [.mixWithOthers])
    #expect(h.activate("fx").lines == ["fx: hint begin"])
    #expect(h.status("music").active)
  }

  @Test(
    "duckOthers ducks others until the ducker deactivates (docs/avaudiosession.md §4.4 duckOthers)")
  func activate_ducker_ducksUntilDeactivated() throws {
    var h = try EngineHarness()
    h.start("music", .playback)
    h.set("nav", .playback, mode: .voicePrompt, [.duckOthers])
    #expect(h.activate("nav").lines == ["music: duck by nav", "nav: hint begin"])
    #expect(h.status("music").ducked)
    #expect(h.status("nav").options == [.mixWithOthers, .duckOthers])
    #expect(h.deactivate("nav").lines == ["music: unduck"])
    #expect(!h.status("music").ducked)
  }

  @Test(
    "record with mode measurement and duckOthers is accepted, as iOS runs it, and ducks others while it records (docs/avaudiosession.md §4.1a, §12 D14)"
  )
  func setCategory_recordMeasurementDuckOthers_ducksWhileRecording() throws {
    var h = try EngineHarness()
    h.start("music", .playback)
    let set = h.set("dictation", .record, mode: .measurement, [.duckOthers])
    #expect(set.error == nil)
    #expect(h.status("dictation").options == [.mixWithOthers, .duckOthers])
    #expect(h.activate("dictation").lines.contains("music: duck by dictation"))
    #expect(h.status("music").ducked && h.status("music").active)
    #expect(h.deactivate("dictation").lines == ["music: unduck"])
    // mixWithOthers alone stays refused for record.
    #expect(h.set("memo", .record, [.mixWithOthers]).error?.code == .badParam)
  }

  @Test(
    "A session activated while a ducker is active is ducked too (docs/avaudiosession.md §4.4: ducked while the ducker is active)"
  )
  func activate_whileDuckerActive_isDucked() throws {
    var h = try EngineHarness()
    h.set("nav", .playback, [.duckOthers])
    h.activate("nav")
    h.set("music", .playback)
    #expect(h.activate("music").lines == ["music: duck by nav"])
  }

  @Test(
    "With several duckers, others unduck when the last one deactivates (docs/avaudiosession.md §4.4)"
  )
  func deactivate_oneOfTwoDuckers_keepsDucking() throws {
    var h = try EngineHarness()
    h.start("music", .playback)
    h.set("nav", .playback, [.duckOthers])
    h.set("alert", .playback, [.duckOthers])
    h.activate("nav")
    h.activate("alert")
    #expect(h.status("music").ducked)
    let first = h.deactivate("nav")
    #expect(!first.lines.contains { $0.hasPrefix("music:") })
    #expect(h.status("music").ducked)
    #expect(h.deactivate("alert").lines == ["music: unduck"])
  }

  @Test(
    "interruptSpokenAudioAndMixWithOthers interrupts spokenAudio and notifyOthers resumes it (docs/avaudiosession.md §4.4, §5.1 A10)"
  )
  func spokenPrompt_interruptsPodcast_thenEndsWithShouldResume() throws {
    var h = try EngineHarness()
    h.start("podcast", .playback, mode: .spokenAudio)
    h.set(
      "nav", .playback, mode: .voicePrompt, [.duckOthers, .interruptSpokenAudioAndMixWithOthers])
    #expect(h.activate("nav").lines == ["podcast: interruption began default by nav"])
    let ended = h.deactivate("nav", notifyOthers: true)
    #expect(ended.lines == ["podcast: interruption ended [shouldResume] by nav"])
    #expect(!h.status("podcast").interrupted)
  }

  @Test(
    "interruptSpokenAudioAndMixWithOthers spares a paused spokenAudio session: the prompt's duckOthers ducks it, and it is not interrupted (docs/avaudiosession.md §4.4)"
  )
  func spokenPrompt_pausedPodcast_isDuckedNotInterrupted() throws {
    var h = try EngineHarness()
    h.start("podcast", .playback, mode: .spokenAudio)
    h.stop("podcast")
    h.set(
      "nav", .playback, mode: .voicePrompt, [.duckOthers, .interruptSpokenAudioAndMixWithOthers])
    #expect(h.activate("nav").lines == ["podcast: duck by nav"])
    #expect(!h.status("podcast").interrupted && h.status("podcast").active)
    #expect(h.deactivate("nav", notifyOthers: true).lines == ["podcast: unduck"])
    // Without duckOthers, the paused podcast mixes with the prompt.
    h.set("nav", .playback, mode: .voicePrompt, [.interruptSpokenAudioAndMixWithOthers])
    #expect(h.activate("nav").lines == [])
    #expect(!h.status("podcast").interrupted)
  }

  @Test("A spoken prompt ducks music that is not spokenAudio (docs/avaudiosession.md §4.4)")
  func spokenPrompt_withMusic_ducksInsteadOfInterrupting() throws {
    var h = try EngineHarness()
    h.start("music", .playback)
    h.set(
      "nav", .playback, mode: .voicePrompt, [.duckOthers, .interruptSpokenAudioAndMixWithOthers])
    #expect(h.activate("nav").lines == ["music: duck by nav", "nav: hint begin"])
  }

  @Test(
    "The focus goes back only when it is free: a session interrupted by one that is itself interrupted is not resumed while the second interrupter plays (docs/avaudiosession.md §5.1 A10; docs/apps.md \"Focus\")"
  )
  func notifyOthers_whileAnotherInterrupterPlays_waitsForIt() throws {
    var h = try EngineHarness()
    // mpv B paused by mpv A, then a third program (espeak) interrupts A.
    h.start("b", .playback)
    h.start("a", .playback)
    h.start("speech", .playback)
    #expect(h.status("a").interrupted && h.status("b").interrupted)
    // A's program pauses (its interruption's pause) and its stream corks: A deactivates with
    // notifyOthers. That is no deactivation of a focus A holds: B must not resume.
    h.stop("a")
    #expect(h.deactivate("a", notifyOthers: true).lines == [])
    #expect(h.status("b").interrupted && h.status("speech").active)
    // Speech ends: A, its victim, may resume; B still waits for A.
    #expect(
      h.deactivate("speech", notifyOthers: true).lines == [
        "a: interruption ended [shouldResume] by speech"
      ])
    #expect(h.status("b").interrupted)
    h.activate("a")
    h.play("a")
    h.stop("a")
    #expect(
      h.deactivate("a", notifyOthers: true).lines == ["b: interruption ended [shouldResume] by a"])
  }

  @Test(
    "A session whose interrupter is handed back the focus while another session would interrupt it waits for that one (docs/avaudiosession.md §5.1 A10)"
  )
  func endedWhileBlocked_waitsForTheBlocker() throws {
    var h = try EngineHarness()
    // A program's own call session is active when the system's call ends: the podcast the
    // call interrupted waits for that session, not for nothing.
    h.start("podcast", .playback)
    h.set("phone", .playAndRecord, mode: .voiceChat)
    h.run(.ownCall(session: "phone"))
    h.run(.call(active: true))
    h.activate("phone")
    #expect(h.status("podcast").interrupted && h.status("phone").active)
    #expect(h.run(.call(active: false)).lines.filter { $0.hasPrefix("podcast") } == [])
    #expect(h.status("podcast").interrupted)
    #expect(
      h.deactivate("phone", notifyOthers: true).lines == [
        "podcast: interruption ended [shouldResume] by phone"
      ])
  }

  @Test(
    "An active session configured as non-mixable and activated again interrupts whom its new category interrupts, and keeps those it interrupted (docs/avaudiosession.md §5.1 A2; docs/apps.md Rules)"
  )
  func reactivate_afterCategoryChange_interruptsAnew() throws {
    var h = try EngineHarness()
    h.start("music", .playback)
    h.start("app", .playback, [.mixWithOthers])
    #expect(h.status("music").active)
    h.set("app", .playAndRecord, mode: .voiceChat)
    #expect(
      h.activate("app").lines == ["music: interruption began default by app", "app: hint end"])
    // Activating it once more changes nothing; its victim waits for its deactivation.
    #expect(h.activate("app").lines == [])
    h.stop("app")
    #expect(
      h.deactivate("app", notifyOthers: true).lines == [
        "music: interruption ended [shouldResume] by app"
      ])
  }

  @Test(
    "A call in progress holds a session whose interrupter leaves: it is ended when the call ends (docs/avaudiosession.md §5.1 A4, A10)"
  )
  func notifyOthers_duringACall_waitsForTheCall() throws {
    var h = try EngineHarness()
    // The program that makes the call interrupted the music as it started; it stops its own
    // session while the system's call goes on.
    h.start("music", .playback)
    h.set("phone", .playAndRecord, mode: .voiceChat)
    h.run(.ownCall(session: "phone"))
    h.activate("phone")
    h.run(.call(active: true))
    #expect(h.deactivate("phone", notifyOthers: true).lines == [])
    #expect(h.status("music").interrupted)
    #expect(
      h.run(.call(active: false)).lines.contains(
        "music: interruption ended [shouldResume] by call"))
  }

  @Test(
    "Deactivating without notifyOthers sends no ended (docs/avaudiosession.md §5.2 A16, §12 D7 default)"
  )
  func deactivate_withoutNotifyOthers_sendsNoEnded() throws {
    var h = try EngineHarness()
    h.start("music", .playback)
    h.set("podcast", .playback)
    h.activate("podcast")
    #expect(h.deactivate("podcast").lines == [])
    #expect(h.status("music").interrupted)
    // The interrupter's later deactivation does not resurrect the ended.
    h.activate("podcast")
    #expect(h.deactivate("podcast", notifyOthers: true).lines == [])
  }

  @Test("The D7 switch delivers ended without shouldResume (docs/avaudiosession.md §12 D7)")
  func deactivate_withoutNotifyOthers_D7Switch_sendsEndedWithoutResume() throws {
    var h = try EngineHarness(adjust: { $0.endedWithoutNotifyOthers = true })
    h.start("music", .playback)
    h.set("podcast", .playback)
    h.activate("podcast")
    #expect(h.deactivate("podcast").lines == ["music: interruption ended [] by podcast"])
  }

  @Test(
    "Before iOS 26 (ios18), deactivating with running I/O fails with isBusy but deactivates (docs/avaudiosession.md §5.1 A9)"
  )
  func deactivate_whilePlaying_isBusyButInactive() throws {
    var h = try EngineHarness(profile: "ios18")
    h.start("music", .playback)
    let outcome = h.deactivate("music")
    #expect(outcome.error?.code == .isBusy)
    #expect(outcome.error?.code.rawValue == 560_030_580)
    let music = h.status("music")
    #expect(!music.active && !music.playing)
  }

  @Test(
    "An interrupted session that reactivates interrupts its interrupter and never gets ended (docs/avaudiosession.md §5.1 A2, A11)"
  )
  func reactivate_interruptedSession_clearsInterruption() throws {
    var h = try EngineHarness()
    h.start("music", .playback)
    h.set("podcast", .playback)
    h.activate("podcast")
    #expect(h.activate("music").lines == ["podcast: interruption began default by music"])
    #expect(!h.status("music").interrupted)
    #expect(h.deactivate("podcast", notifyOthers: true).lines == [])
  }

  @Test("Activating an active session changes nothing (docs/avaudiosession.md §5.1)")
  func activate_twice_isNoOp() throws {
    var h = try EngineHarness()
    h.start("music", .playback)
    let outcome = h.activate("music")
    #expect(outcome.error == nil && outcome.lines.isEmpty)
  }

  @Test(
    "Starting I/O on an inactive session activates it first, with the activation's effects and refusals (docs/avaudiosession.md §5.1)"
  )
  func play_inactive_activatesFirst() throws {
    var h = try EngineHarness()
    h.start("podcast", .playback, mode: .spokenAudio)
    h.set("music", .playback)
    let outcome = h.play("music")
    #expect(outcome.error == nil)
    #expect(outcome.lines == ["podcast: interruption began default by music"])
    #expect(h.status("music").active && h.status("music").playing)
    // During a call, playing a record session is refused as its activation is, and changes
    // nothing.
    h.set("memo", .record)
    h.run(.call(active: true))
    let refused = h.play("memo")
    #expect(refused.error?.code == .insufficientPriority)
    #expect(!h.status("memo").active && !h.status("memo").playing)
  }

  @Test(
    "Recording with no input device connected fails with resourceNotAvailable; another program's recording (observed) is a fact and never refused (docs/avaudiosession.md §11)"
  )
  func play_recordWithoutInput_failsResourceNotAvailable() throws {
    var h = try EngineHarness()
    #expect(h.unplug("builtin-mic").error == nil)
    h.set("memo", .record)
    let outcome = h.play("memo")
    #expect(outcome.error?.code == .resourceNotAvailable)
    #expect(!h.status("memo").active && !h.status("memo").playing)
    // Playback still starts.
    h.set("music", .playback)
    #expect(h.play("music").error == nil)
    // Another program that records (a monitor, a device the engine does not list) plays on.
    h.run(.observed(session: "pacat.7"))
    h.set("pacat.7", .record)
    #expect(h.play("pacat.7").error == nil)
    #expect(h.status("pacat.7").playing)
    // With a microphone connected again, the memo records.
    h.plug("builtInMic")
    #expect(h.play("memo").error == nil)
  }

  @Test("A record session silences mixable output while active (docs/avaudiosession.md §2 record)")
  func activate_record_mutesAmbientAndInterruptsMusic() throws {
    var h = try EngineHarness()
    h.start("music", .playback)
    h.set("game", .ambient)
    h.activate("game")
    h.set("memo", .record)
    let outcome = h.activate("memo")
    #expect(
      outcome.lines == [
        "music: interruption began default by memo",
        "game: mute recording",
        // Nothing non-mixable plays any more (§6.3).
        "game: hint end",
      ])
    #expect(h.deactivate("memo").lines == ["game: unmute"])
  }

  @Test("Removing an interrupter ends its interruptions with shouldResume (vanished app default)")
  func remove_interrupter_endsInterruptions() throws {
    var h = try EngineHarness()
    h.start("music", .playback)
    h.set("podcast", .playback)
    h.activate("podcast")
    #expect(
      h.run(.removeSession("podcast")).lines == [
        "music: interruption ended [shouldResume] by podcast"
      ])
    #expect(h.engine.session(named: "podcast") == nil)
  }
}
