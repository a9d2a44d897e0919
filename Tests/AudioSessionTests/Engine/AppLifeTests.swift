import Testing

@testable import AudioSession

/// The app's life, the Now Playing app, a ringing call, Siri, the prompt style and the iOS 27
/// notifications (docs/avaudiosession.md §13.1, §13.4, §13.5; policies/interactions.json
/// `background`, `siri`, `promptStyle`).
@Suite("App life and the system around it")
struct AppLifeTests {
  @Test(
    "From the background a non-mixable activation fails with cannotInterruptOthers unless the app is Now Playing (docs/avaudiosession.md §5.1 A7)"
  )
  func background_nonMixableActivation_needsNowPlaying() throws {
    var h = try EngineHarness()
    h.set("music", .playback)
    h.run(.setAppState(session: "music", .background))
    let refused = h.activate("music")
    #expect(refused.error?.code == .cannotInterruptOthers)
    #expect(refused.error?.code.rawValue == 560_557_684)
    #expect(!h.status("music").active)
    h.run(.setNowPlaying(session: "music", true))
    #expect(h.activate("music").error == nil)
    #expect(h.status("music").active)
    // A mixable session may go active from the background.
    h.set("game", .ambient)
    h.run(.setAppState(session: "game", .background))
    #expect(h.activate("game").error == nil)
  }

  @Test(
    "From the background ambient cannot start playing and mixable recording cannot start (docs/avaudiosession.md §5.1 A8)"
  )
  func background_startIO_refusals() throws {
    var h = try EngineHarness()
    h.set("game", .ambient)
    h.activate("game")
    h.set("memo", .playAndRecord, [.mixWithOthers])
    h.activate("memo")
    h.run(.setAppState(session: "game", .background))
    h.run(.setAppState(session: "memo", .background))
    #expect(h.play("game").error?.code == .cannotStartPlaying)
    #expect(h.play("memo").error?.code == .cannotStartRecording)
    #expect(!h.status("game").playing && !h.status("memo").playing)
    // Back in the foreground both may start.
    h.run(.setAppState(session: "game", .foreground))
    #expect(h.play("game").error == nil)
  }

  @Test(
    "Suspension deactivates an idle session silently; the app gets began when it runs again, reason default, or appWasSuspended under ios15 (docs/avaudiosession.md §5.1 A12, §13.4)",
    arguments: [("default", "default"), ("ios15", "appWasSuspended")])
  func suspension_beganWhenRunningAgain(profile: String, reason: String) throws {
    var h = try EngineHarness(profile: profile)
    h.set("podcast", .playback)
    h.activate("podcast")
    let suspended = h.run(.setAppState(session: "podcast", .suspended))
    #expect(suspended.error == nil)
    #expect(suspended.lines == [])
    #expect(!h.status("podcast").active && h.status("podcast").interrupted)
    // A suspended app makes no calls.
    #expect(h.activate("podcast").error?.code == .badParam)
    let back = h.run(.setAppState(session: "podcast", .background))
    #expect(back.lines == ["podcast: interruption began \(reason) by system"])
    #expect(h.status("podcast").appState == .background)
  }

  @Test(
    "An app whose I/O runs is not suspended: refused, nothing changes (docs/avaudiosession.md §13.4)"
  )
  func suspension_whilePlaying_refused() throws {
    var h = try EngineHarness()
    h.start("music", .playback)
    let before = h.engine.status()
    #expect(h.run(.setAppState(session: "music", .suspended)).error?.code == .badParam)
    #expect(h.engine.status() == before)
  }

  @Test(
    "An active Now Playing session is interrupted (routeDisconnected) when a disconnect changes its route, unless it prefers not (docs/avaudiosession.md §13.5)"
  )
  func routeDisconnect_interruptsNowPlaying() throws {
    var h = try EngineHarness()
    h.start("music", .playback)
    h.start("nav", .playback, mode: .voicePrompt, [.mixWithOthers])
    h.run(.setNowPlaying(session: "music", true))
    h.plug("headphones")
    let unplugged = h.unplug("headphones-1")
    #expect(unplugged.lines.last == "music: interruption began routeDisconnected by system")
    #expect(!unplugged.lines.contains { $0.hasPrefix("nav: interruption") })
    #expect(!h.status("music").active)

    var optedOut = try EngineHarness()
    optedOut.start("music", .playback)
    optedOut.run(.setNowPlaying(session: "music", true))
    optedOut.run(.setPreference(session: "music", .interruptionOnRouteDisconnect(false)))
    optedOut.plug("headphones")
    let lines = optedOut.unplug("headphones-1").lines
    #expect(!lines.contains { $0.contains("interruption") })
    #expect(optedOut.status("music").active)
  }

  @Test(
    "A Now Playing session a disconnect interrupts hears the interruption, not the secondary-audio hint's end that the headphone pause of another session would send it: it ends the input inactive (docs/avaudiosession.md §6.3, §13.5; found by EnginePropertyTests)"
  )
  func routeDisconnect_victimGetsNoHint() throws {
    var h = try EngineHarness()
    h.plug("headphones")
    h.run(.setCategory(session: "c", category: .ambient, mode: nil, options: []))
    h.run(.setActive(session: "c", active: true, options: []))
    let playing = h.run(.startIO(session: "a"))
    #expect(playing.lines.contains("c: hint begin"))
    h.run(.setNowPlaying(session: "c", true))
    let unplugged = h.unplug("headphones-1")
    #expect(unplugged.lines.contains { $0.hasPrefix("a: pause") })
    #expect(unplugged.lines.last == "c: interruption began routeDisconnected by system")
    #expect(!unplugged.lines.contains { $0.hasPrefix("c: hint") }, "\(unplugged.lines)")
    #expect(!h.status("c").active)
  }

  @Test(
    "A banner call spares sessions that prefer no interruptions from system alerts until answered; a full-screen one does not (docs/avaudiosession.md §13.5)"
  )
  func ring_bannerAndFullScreen() throws {
    var h = try EngineHarness()
    h.start("music", .playback, [.mixWithOthers])
    h.start("voip", .playAndRecord, mode: .voiceChat)
    h.run(.setPreference(session: "music", .noInterruptionsFromSystemAlerts(true)))
    let ring = h.run(.callRing(.banner))
    #expect(ring.lines == ["voip: interruption began default by call", "music: hint end"])
    #expect(h.status("music").active)
    let answer = h.run(.call(active: true))
    #expect(answer.lines == ["music: interruption began default by call"])
    let end = h.run(.call(active: false))
    #expect(
      end.lines == [
        "music: interruption ended [shouldResume] by call",
        "voip: interruption ended [shouldResume] by call",
      ])

    var full = try EngineHarness()
    full.start("music", .playback)
    full.run(.setPreference(session: "music", .noInterruptionsFromSystemAlerts(true)))
    #expect(full.run(.callRing(.fullScreen)).lines == ["music: interruption began default by call"])
  }

  @Test(
    "A declined call ends the ring's interruptions; no call, nothing to end (docs/avaudiosession.md §13.5)"
  )
  func ring_declined() throws {
    var h = try EngineHarness()
    h.start("music", .playback)
    h.run(.callRing(.fullScreen))
    #expect(h.engine.status().callRinging == .fullScreen)
    #expect(h.run(.callRing(.banner)).error?.code == .badParam)
    let declined = h.run(.call(active: false))
    #expect(declined.lines == ["music: interruption ended [shouldResume] by call"])
    #expect(h.engine.status().callRinging == nil && !h.engine.status().callActive)
    #expect(h.run(.call(active: false)).error?.code == .badParam)
  }

  @Test(
    "Siri interrupts non-mixable sessions, refuses activation with input (siriIsRecording), and ends with shouldResume (docs/avaudiosession.md §1.4, §6.1)"
  )
  func siri_interruptsAndRefuses() throws {
    var h = try EngineHarness()
    h.start("music", .playback)
    h.start("nav", .playback, mode: .voicePrompt, [.mixWithOthers, .duckOthers])
    let begin = h.run(.siri(active: true))
    // music was ducked by nav: interrupted, it is no longer ducked, and nav's hint ends.
    #expect(
      begin.lines == [
        "music: interruption began default by siri", "music: unduck", "nav: hint end",
        "nav: promptStyle none",
      ])
    h.set("memo", .record)
    let refused = h.activate("memo")
    #expect(refused.error?.code == .siriIsRecording)
    #expect(refused.error?.code.rawValue == 1_936_290_409)
    let end = h.run(.siri(active: false))
    #expect(
      end.lines == ["music: interruption ended [shouldResume] by siri", "nav: promptStyle normal"])
    #expect(h.activate("memo").error == nil)
  }

  @Test(
    "promptStyle is short during a call and its ring, for voicePrompt sessions only (docs/avaudiosession.md §13.5)"
  )
  func promptStyle_followsCalls() throws {
    var h = try EngineHarness()
    h.set("nav", .playback, mode: .voicePrompt, [.mixWithOthers])
    h.set("music", .playback)
    #expect(h.run(.callRing(.banner)).lines == ["nav: promptStyle short"])
    #expect(h.status("nav").promptStyle == .short && h.status("music").promptStyle == .normal)
    #expect(h.run(.call(active: true)).lines == [])
    #expect(h.run(.call(active: false)).lines == ["nav: promptStyle normal"])
  }

  @Test(
    "Under ios27 every began is followed by didBecomeInactive, every ended by resumptionRecommendation, and the app's own deactivation posts didBecomeInactive(app) (docs/avaudiosession.md §13.1)"
  )
  func ios27_lifecycleNotifications() throws {
    var h = try EngineHarness(profile: "ios27")
    h.start("music", .playback)
    h.set("nav", .playback)
    #expect(
      h.activate("nav").lines == [
        "music: interruption began default by nav", "music: didBecomeInactive system default",
        "nav: didBecomeActive",
      ])
    #expect(
      h.deactivate("nav", notifyOthers: true).lines == [
        "nav: didBecomeInactive app",
        "music: interruption ended [shouldResume] by nav",
        "music: resumptionRecommendation shouldResume",
      ])
    h.activate("nav")
    #expect(
      h.deactivate("nav").lines == ["nav: didBecomeInactive app"],
      "without notifyOthers, music hears nothing (§12 D7)")

    var classic = try EngineHarness()
    classic.start("music", .playback)
    classic.set("nav", .playback)
    #expect(classic.activate("nav").lines == ["music: interruption began default by nav"])
    #expect(
      classic.deactivate("nav", notifyOthers: true).lines == [
        "music: interruption ended [shouldResume] by nav"
      ])
  }

  @Test(
    "Under ios27 a successful activation posts didBecomeActive once; a refused one, or activating again, posts none (docs/avaudiosession.md §13.1)"
  )
  func ios27_didBecomeActive_onlyOnSuccess() throws {
    var h = try EngineHarness(profile: "ios27")
    h.set("memo", .record)
    #expect(h.activate("memo").lines == ["memo: didBecomeActive"])
    #expect(h.activate("memo").lines == [])
    h.deactivate("memo")
    h.run(.call(active: true))
    let refused = h.activate("memo")
    #expect(refused.error?.code == .insufficientPriority && refused.lines == [])
    var classic = try EngineHarness()
    classic.set("music", .playback)
    #expect(classic.activate("music").lines == [], "iOS 26 has no didBecomeActive")
  }

  @Test(
    "iOS 26 (default) deactivates with running I/O without isBusy; ios18 reports isBusy (docs/avaudiosession.md §13.1, §5.1 A9)"
  )
  func deactivate_runningIO_byProfile() throws {
    var current = try EngineHarness()
    current.start("music", .playback)
    #expect(current.deactivate("music").error == nil)
    #expect(!current.status("music").active && !current.status("music").playing)
    var older = try EngineHarness(profile: "ios18")
    older.start("music", .playback)
    #expect(older.deactivate("music").error?.code == .isBusy)
  }

  @Test("One app at a time is Now Playing (docs/contract.md \"More of AVAudioSession\")")
  func nowPlaying_oneAtATime() throws {
    var h = try EngineHarness()
    h.run(.setNowPlaying(session: "music", true))
    h.run(.setNowPlaying(session: "podcast", true))
    #expect(!h.status("music").nowPlaying && h.status("podcast").nowPlaying)
    h.run(.setNowPlaying(session: "music", false))
    #expect(h.status("podcast").nowPlaying)
    h.run(.removeSession("podcast"))
    h.run(.setNowPlaying(session: "music", false))
    #expect(!h.status("music").nowPlaying)
  }
}
