import Testing

@testable import AudioSession

/// The app's own mutes (iOS 26 `setOutputMuted(_:)`): engine state, notifications and the
/// shortFormVideo unmute on the user's intent (docs/avaudiosession.md §1.5, §3; docs/engine.md
/// "Rules").
@Suite struct OwnMuteTests {
  @Test(
    "setOutputMuted mutes the session's output and tells it once per change (docs/avaudiosession.md §1.5)"
  )
  func setOutputMuted_changesState_andPostsOncePerChange() throws {
    var h = try EngineHarness()
    h.start("music", .playback)
    #expect(
      h.run(.setOutputMuted(session: "music", true)).lines == [
        "music: outputMuteStateChange true"
      ])
    #expect(h.status("music").outputMuted)
    // The same state again changes nothing and says nothing.
    #expect(h.run(.setOutputMuted(session: "music", true)).lines == [])
    #expect(
      h.run(.setOutputMuted(session: "music", false)).lines == [
        "music: outputMuteStateChange false"
      ])
    #expect(!h.status("music").outputMuted)
  }

  @Test(
    "An inactive session may mute its output too, and no other session is told (docs/avaudiosession.md §1.5)"
  )
  func setOutputMuted_inactive_touchesOnlyItsSession() throws {
    var h = try EngineHarness()
    h.start("music", .playback)
    h.set("game", .ambient)
    let outcome = h.run(.setOutputMuted(session: "game", true))
    #expect(outcome.lines == ["game: outputMuteStateChange true"])
    #expect(h.status("game").outputMuted && !h.status("music").outputMuted)
    // The system's mute is another thing: the status's muted stays false.
    #expect(!h.status("game").muted)
  }

  @Test(
    "playAndRecord outside mode default cannot mute its output: incompatibleCategory, nothing changes (docs/avaudiosession.md §1.5, docs/contract.md Bad input)"
  )
  func setOutputMuted_playAndRecordVoiceChat_isRefused() throws {
    var h = try EngineHarness()
    h.set("voip", .playAndRecord, mode: .voiceChat)
    let before = h.engine.status()
    let outcome = h.run(.setOutputMuted(session: "voip", true))
    #expect(outcome.error?.code == .incompatibleCategory)
    #expect(outcome.error?.message.contains("only in mode default") == true)
    #expect(outcome.lines == [])
    #expect(h.engine.status() == before)
    // Unmuting is always allowed; in mode default muting is too.
    #expect(h.run(.setOutputMuted(session: "voip", false)).error == nil)
    h.set("memo", .playAndRecord)
    #expect(h.run(.setOutputMuted(session: "memo", true)).error == nil)
  }

  @Test(
    "shortFormVideo: the volume going up tells the muted session of the user's intent, then unmutes it (docs/avaudiosession.md §3)"
  )
  func volumeUp_shortFormVideo_unmutesWithIntent() throws {
    var h = try EngineHarness()
    h.start("clip", .playback, mode: .shortFormVideo)
    h.start("movie", .playback, mode: .moviePlayback, [.mixWithOthers])
    h.run(.setOutputMuted(session: "clip", true))
    h.run(.setOutputMuted(session: "movie", true))
    // Down is no intent to hear.
    #expect(h.run(.systemVolume(0.5)).lines == [])
    #expect(h.status("clip").outputMuted)
    #expect(
      h.run(.systemVolume(0.75)).lines == [
        "clip: userIntentToUnmuteOutput",
        "clip: outputMuteStateChange false",
      ])
    #expect(!h.status("clip").outputMuted)
    // Other modes stay muted: the app decides.
    #expect(h.status("movie").outputMuted)
    // Unmuted already: nothing more.
    #expect(h.run(.systemVolume(1)).lines == [])
  }

  @Test(
    "shortFormVideo in the background: the volume buttons are not its, it stays muted (docs/avaudiosession.md §3, §13.4)"
  )
  func volumeUp_backgroundShortFormVideo_staysMuted() throws {
    var h = try EngineHarness()
    h.set("clip", .playback, mode: .shortFormVideo)
    h.run(.setOutputMuted(session: "clip", true))
    h.run(.setAppState(session: "clip", .background))
    h.run(.systemVolume(0.5))
    #expect(h.run(.systemVolume(0.9)).lines == [])
    #expect(h.status("clip").outputMuted)
  }

  @Test(
    "Media services reset forget the output mute without a word; a removed session leaves no muted index behind (docs/avaudiosession.md §6.4)"
  )
  func reset_forgetsOutputMute() throws {
    var h = try EngineHarness()
    h.set("clip", .playback, mode: .shortFormVideo)
    h.run(.setOutputMuted(session: "clip", true))
    h.run(.mediaServicesLost)
    #expect(
      h.run(.setOutputMuted(session: "clip", false)).error?.code == .mediaServicesFailed)
    #expect(h.run(.mediaServicesReset).lines == ["clip: mediaServicesWereReset"])
    #expect(!h.status("clip").outputMuted)
    h.run(.setOutputMuted(session: "clip", true))
    h.run(.removeSession("clip"))
    #expect(h.engine.outputMutedSessions.isEmpty)
  }
}

/// A playAndRecord session's output mute and its mode: "Changing the mode to non-default mode
/// with PlayAndRecord category will cause the session to unmute" (docs/avaudiosession.md §13.6).
@Suite struct OutputMuteModeTests {
  @Test(
    "a muted playAndRecord session given a non-default mode is unmuted and told (docs/avaudiosession.md §13.6)"
  )
  func setMode_nonDefaultWithPlayAndRecord_unmutes() throws {
    var h = try EngineHarness()
    h.set("voip", .playAndRecord)
    h.run(.setOutputMuted(session: "voip", true))
    #expect(
      h.set("voip", .playAndRecord, mode: .voiceChat).lines == [
        "voip: outputMuteStateChange false"
      ])
    #expect(!h.status("voip").outputMuted)
    // Through setMode too, active or not.
    h.set("chat", .playAndRecord)
    h.activate("chat")
    h.run(.setOutputMuted(session: "chat", true))
    #expect(h.status("chat").outputMuted)
    #expect(
      h.run(.setMode(session: "chat", mode: .videoChat)).lines.contains(
        "chat: outputMuteStateChange false"))
    #expect(!h.status("chat").outputMuted)
  }

  @Test(
    "other categories, and playAndRecord staying in mode default, stay muted (docs/avaudiosession.md §13.6)"
  )
  func setMode_otherCases_stayMuted() throws {
    var h = try EngineHarness()
    h.set("movie", .playback)
    h.run(.setOutputMuted(session: "movie", true))
    #expect(h.set("movie", .playback, mode: .moviePlayback).lines == [])
    #expect(h.status("movie").outputMuted)
    h.set("voip", .playAndRecord)
    h.run(.setOutputMuted(session: "voip", true))
    #expect(h.set("voip", .playAndRecord, .defaultToSpeaker).lines == [])
    #expect(h.status("voip").outputMuted)
  }
}

/// The app's input mute (iOS 17 `AVAudioApplication.setInputMuted(_:)`), kept by the engine per
/// session (docs/avaudiosession.md §1.5; docs/contract.md "More of AVAudioSession").
@Suite struct InputMuteTests {
  @Test(
    "setInputMuted mutes the app's input and tells the session once per change; not the built-in mic's mute (docs/avaudiosession.md §1.5, §4.4)"
  )
  func setInputMuted_changesState_andPostsOncePerChange() throws {
    var h = try EngineHarness()
    h.start("memo", .record)
    #expect(
      h.run(.setInputMuted(session: "memo", true)).lines == ["memo: inputMuteStateChange true"])
    #expect(h.status("memo").inputMuted)
    #expect(h.run(.setInputMuted(session: "memo", true)).lines == [])
    // Not the hardware's mute: nothing is interrupted, the system's status is unchanged.
    #expect(!h.engine.status().builtInMicMuted && h.status("memo").active)
    #expect(
      h.run(.setInputMuted(session: "memo", false)).lines == ["memo: inputMuteStateChange false"])
    #expect(!h.status("memo").inputMuted)
  }

  @Test(
    "any category may mute its input, only its own session is told, and only while it records (docs/avaudiosession.md §1.5, §13.6)",
    arguments: [Category.playback, .playAndRecord, .ambient])
  func setInputMuted_anyCategory_touchesOnlyItsSession(category: Category) throws {
    var h = try EngineHarness()
    h.start("other", .record, .mixWithOthers)
    h.set("app", category, category == .playAndRecord ? .mixWithOthers : [])
    h.activate("app")
    #expect(
      h.run(.setInputMuted(session: "app", true)).lines
        == (category == .playAndRecord ? ["app: inputMuteStateChange true"] : []))
    #expect(h.status("app").inputMuted && !h.status("other").inputMuted)
  }

  @Test(
    "setInputMuted with no active recording session is stored and says nothing; the session is told the latest state when it goes active (docs/avaudiosession.md §13.6)"
  )
  func setInputMuted_whileInactive_isToldOnActivation() throws {
    var h = try EngineHarness()
    h.set("memo", .record)
    #expect(h.run(.setInputMuted(session: "memo", true)).lines == [])
    #expect(h.status("memo").inputMuted)
    #expect(h.activate("memo").lines == ["memo: inputMuteStateChange true"])
    // Once told, activating again says nothing more.
    h.deactivate("memo")
    #expect(h.activate("memo").lines == [])
    // Changed twice while inactive: the latest state, once.
    h.deactivate("memo")
    #expect(h.run(.setInputMuted(session: "memo", false)).lines == [])
    #expect(h.run(.setInputMuted(session: "memo", true)).lines == [])
    #expect(h.run(.setInputMuted(session: "memo", false)).lines == [])
    #expect(h.activate("memo").lines == ["memo: inputMuteStateChange false"])
    // Active without input: stored until its category records.
    h.set("app", .playback)
    h.activate("app")
    #expect(h.run(.setInputMuted(session: "app", true)).lines == [])
    #expect(
      h.set("app", .playAndRecord).lines.filter { $0.contains("inputMute") } == [
        "app: inputMuteStateChange true"
      ])
  }

  @Test(
    "a refused activation tells nothing of the stored input mute (docs/avaudiosession.md §13.6)")
  func setInputMuted_refusedActivation_staysStored() throws {
    var h = try EngineHarness()
    h.set("memo", .record)
    h.run(.setInputMuted(session: "memo", true))
    h.run(.call(active: true))
    #expect(h.activate("memo").error != nil)
    h.run(.call(active: false))
    #expect(h.activate("memo").lines == ["memo: inputMuteStateChange true"])
  }

  @Test(
    "a suspended app makes no call: setInputMuted is badParam and changes nothing (docs/avaudiosession.md §13.4, docs/contract.md Bad input)"
  )
  func setInputMuted_suspended_isRefused() throws {
    var h = try EngineHarness()
    h.set("memo", .record)
    h.run(.setAppState(session: "memo", .suspended))
    let outcome = h.run(.setInputMuted(session: "memo", true))
    #expect(outcome.error?.code == .badParam && outcome.lines == [])
    #expect(!h.status("memo").inputMuted)
  }
}
