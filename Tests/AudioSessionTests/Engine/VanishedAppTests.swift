import AudioSessionTestSupport
import Testing

@testable import AudioSession

/// docs/engine.md "Rules, and where they come from", vanished app: when an app vanishes (its
/// process exits or crashes, or its session is removed) its session is deactivated, and the
/// sessions it interrupted get what the policy's `vanishedApp` says (policies/README.md,
/// interactions.json); its ducking and muting always end.
@Suite struct VanishedAppTests {
  /// The `ended` line a victim gets under each value, if any.
  static func endedLine(_ victim: String, by cause: String, _ ending: VanishedAppEnding)
    -> [String]
  {
    switch ending {
    case .endedShouldResume: ["\(victim): interruption ended [shouldResume] by \(cause)"]
    case .endedNoResume: ["\(victim): interruption ended [] by \(cause)"]
    case .stayInterrupted: []
    }
  }

  @Test(
    "a vanished ducker: its victim gets what vanishedApp says, and the ducked session is unducked (docs/engine.md \"Rules, and where they come from\")",
    arguments: VanishedAppEnding.allCases)
  func remove_duckerThatInterrupted_endsPerPolicyAndUnducks(ending: VanishedAppEnding) throws {
    var h = try EngineHarness(adjust: { $0.vanishedApp = ending })
    // Given mixable music and a spoken-audio podcast, both playing
    h.start("music", .playback, [.mixWithOthers])
    h.start("podcast", .playback, mode: .spokenAudio)
    // and a navigation prompt that interrupts the podcast and ducks the music
    h.set(
      "nav", .playback, mode: .voicePrompt, [.duckOthers, .interruptSpokenAudioAndMixWithOthers])
    #expect(
      h.activate("nav").lines == [
        "podcast: interruption began default by nav", "music: duck by nav", "music: hint end",
      ])
    // When the navigation app vanishes
    let lines = h.run(.removeSession("nav")).lines
    // Then the podcast gets what the policy says, and the music is unducked whatever it says
    #expect(lines == Self.endedLine("podcast", by: "nav", ending) + ["music: unduck"])
    #expect(h.engine.session(named: "nav") == nil)
    #expect(!h.status("music").ducked && h.status("music").active)
    let podcast = h.status("podcast")
    #expect(!podcast.active)
    #expect(podcast.interrupted == (ending == .stayInterrupted))
  }

  @Test(
    "a vanished recorder: its victim gets what vanishedApp says, and the muted session is unmuted (docs/engine.md \"Rules, and where they come from\")",
    arguments: VanishedAppEnding.allCases)
  func remove_recorderThatInterrupted_endsPerPolicyAndUnmutes(ending: VanishedAppEnding) throws {
    var h = try EngineHarness(adjust: { $0.vanishedApp = ending })
    // Given playing music and an active game (ambient)
    h.start("music", .playback)
    h.set("game", .ambient)
    h.activate("game")
    // and a voice memo (record) that interrupts the music and mutes the game
    h.set("memo", .record)
    #expect(
      h.activate("memo").lines == [
        "music: interruption began default by memo", "game: mute recording", "game: hint end",
      ])
    // When the memo app vanishes while recording
    #expect(h.play("memo").lines == ["game: hint begin"])
    let lines = h.run(.removeSession("memo")).lines
    // Then the music gets what the policy says, and the game is unmuted whatever it says (and
    // no longer hears non-mixable audio, §6.3)
    #expect(
      lines == Self.endedLine("music", by: "memo", ending) + ["game: unmute", "game: hint end"])
    #expect(!h.status("game").muted)
    #expect(h.status("music").interrupted == (ending == .stayInterrupted))
  }

  @Test(
    "stayInterrupted: the victim stays interrupted until it reactivates, then is owed nothing (docs/engine.md \"Rules, and where they come from\")"
  )
  func remove_stayInterrupted_victimReactivatesOnItsOwn() throws {
    var h = try EngineHarness(adjust: { $0.vanishedApp = .stayInterrupted })
    h.start("music", .playback)
    h.start("podcast", .playback)
    h.run(.removeSession("podcast"))
    #expect(h.status("music").interrupted)
    // A new session with the vanished app's name is a different session: it owes music nothing.
    h.start("podcast", .playback, [.mixWithOthers])
    h.deactivate("podcast", notifyOthers: true)
    #expect(h.status("music").interrupted)
    // Reactivating on its own ends the wait; no ended is posted, now or later.
    #expect(h.activate("music").error == nil)
    #expect(!h.status("music").interrupted)
    #expect(!h.log.contains { $0.hasPrefix("music: interruption ended") })
  }

  @Test("stayInterrupted ignores endedWithoutNotifyOthers, which is about deactivation (§12 D7)")
  func remove_stayInterruptedWithD7_postsNoEnded() throws {
    var h = try EngineHarness(adjust: {
      $0.vanishedApp = .stayInterrupted
      $0.endedWithoutNotifyOthers = true
    })
    h.start("music", .playback)
    h.start("podcast", .playback)
    #expect(h.run(.removeSession("podcast")).lines.isEmpty)
    #expect(h.status("music").interrupted)
  }

  @Test(
    "the default policy says endedShouldResume; a profile's override wins over the table (docs/engine.md \"Rules, and where they come from\")"
  )
  func policy_vanishedApp_tableValueUnlessProfileOverrides() throws {
    #expect(try TestPolicies.table().interactions.vanishedApp == .endedShouldResume)
    for profile in try TestPolicies.table().profileOrder {
      #expect(try TestPolicies.policy(profile).vanishedApp == .endedShouldResume)
    }
    var table = try TestPolicies.table()
    table.interactions.vanishedApp = .endedNoResume
    #expect(try Policy(table: table).vanishedApp == .endedNoResume)
    table.profiles[table.defaultProfile]?.switches.vanishedApp = .stayInterrupted
    #expect(try Policy(table: table).vanishedApp == .stayInterrupted)
  }

  @Test(
    "interactions.json's vanishedApp and a profile's override load from the files (docs/engine.md \"Rules, and where they come from\")"
  )
  func load_vanishedAppInFiles_isUsed() throws {
    let fixture = try PolicyFixture()
    try fixture.edit(
      "interactions.json", replacing: "\"vanishedApp\": \"endedShouldResume\"",
      with: "\"vanishedApp\": \"endedNoResume\"")
    try fixture.edit(
      "profiles.json", replacing: "\"categoryChangeWhileInactive\": true,",
      with: "\"categoryChangeWhileInactive\": true, \"vanishedApp\": \"stayInterrupted\",")
    let table = try PolicyLoader.load(directory: fixture.directory)
    #expect(table.interactions.vanishedApp == .endedNoResume)
    #expect(try Policy(table: table).vanishedApp == .endedNoResume)
    #expect(try Policy(table: table, profile: "programmingGuide").vanishedApp == .stayInterrupted)
  }
}
