import Testing

/// The key facts of the desktop examples (examples/README.md; docs/contract.md "Desktop steps"):
/// what each defect the arbiter fixed left heard, and what the daemon sent instead.
@Suite struct DesktopExamplesTests {
  @Test(
    "Chromium paused by the daemon and played again by the user is heard, and mpv is paused (docs/arbiter.md \"The user's word\")"
  )
  func chromiumPlayedAgain() async throws {
    let t = try await ExampleTranscript.run("desktop-chromium-played-again")
    let mpv = try #require(
      t.step(
        "simulate program mpv start --binary mpv --role music --player org.mpris.MediaPlayer2.mpv"))
    #expect(t.sent(mpv) == ["pause chromium"])
    let user = try #require(t.step("simulate user chromium play"))
    #expect(t.sent(user) == ["pause mpv"])
    #expect(t.heard(user + 1) == ["chromium": 1, "mpv": 0])
  }

  @Test(
    "a daemon restarted during a call, hearing the server or the bus first, keeps the call heard and plays the music only after it (docs/arbiter.md \"What outlives a reset\")"
  )
  func daemonRestartDuringCall() async throws {
    let t = try await ExampleTranscript.run("desktop-daemon-restart-call")
    for restart in ["simulate daemon restart", "simulate daemon restart --bus-first"] {
      let step = try #require(t.step(restart))
      #expect(t.sent(step) == [])
      #expect(t.heard(step + 1) == ["chromium": 0, "call": 1])
    }
    let end = try #require(t.step("simulate program call stop"))
    #expect(t.sent(end) == ["play chromium"])
    #expect(t.heard(end + 1) == ["chromium": 1, "call": 0])
  }

  @Test(
    "a server restart during a call plays the music the call paused, once the call is gone with the server (docs/arbiter.md \"What outlives a reset\")"
  )
  func serverRestartDuringCall() async throws {
    let t = try await ExampleTranscript.run("desktop-server-restart-call")
    let restart = try #require(t.step("simulate server-restart"))
    #expect(t.sent(restart) == ["play mpv"])
    #expect(t.heard(restart + 1) == ["mpv": 1, "call": 0])
  }

  @Test(
    "a browser's call page is the call: call active, the music interrupted by the call (docs/arbiter.md Calls)"
  )
  func browserCall() async throws {
    let t = try await ExampleTranscript.run("desktop-browser-call")
    let page = try #require(
      t.step("simulate program meet start --binary chromium --app-name Chromium --records"))
    #expect(t.events(page).contains("mpv.1000 interruption began default by call"))
    #expect(!t.events(page).contains { $0.hasPrefix("chromium.1001 interruption") })
    #expect(t.result(page + 2)?.status?.system.call == true)
    #expect(t.heard(page + 1) == ["mpv": 0, "meet": 1])
    #expect(t.heard(page + 4) == ["mpv": 1, "meet": 0])
  }

  @Test(
    "a pause the user presses during a call is kept when it ends (docs/arbiter.md \"The user's word\")"
  )
  func userPauseDuringCall() async throws {
    let t = try await ExampleTranscript.run("desktop-user-pause-during-call")
    let end = try #require(t.step("simulate program call stop"))
    #expect(t.sent(end) == [])
    #expect(t.heard(end + 1) == ["mpv": 0, "call": 0])
  }

  @Test(
    "two programs of one binary in one group called differently are two apps, and the call silences the music (docs/apps.md \"Sessions of other programs\")"
  )
  func oneBinaryTwoApps() async throws {
    let t = try await ExampleTranscript.run("desktop-one-binary-two-apps")
    let status = try #require(t.lines.last?.status)
    #expect(Set(status.sessions.keys) == ["pacat.600", "pacat-barphone.600"])
    #expect(status.system.call)
    #expect(t.heard(3) == ["barmusic": 0, "barphone": 1])
  }

  @Test(
    "a player the user plays again right after an unplug pause is paused by the next call (docs/mpris.md \"Which player is whose\")"
  )
  func unplugThenCall() async throws {
    let t = try await ExampleTranscript.run("desktop-unplug-then-call")
    #expect(t.sent(try #require(t.step("simulate unplug headphones"))) == ["pause mpv"])
    let call = try #require(t.step("simulate program call start --binary pacat --role phone"))
    #expect(t.heard(call - 1) == ["mpv": 1])
    #expect(t.sent(call) == ["pause mpv"])
    #expect(t.heard(call + 1) == ["mpv": 0, "call": 1])
  }

  @Test(
    "one utterance of espeak-ng, three streams in a row, ducks the music once and unducks it once, 250 ms after its last stream (docs/apps.md \"Speech\")"
  )
  func speechOneDuck() async throws {
    let t = try await ExampleTranscript.run("desktop-speech-one-duck")
    let ducks = t.lines.filter { $0.event == "duck" }
    let unducks = t.lines.filter { $0.event == "unduck" }
    #expect(ducks.count == 1)
    #expect(unducks.count == 1)
    let wait = try #require(t.step("simulate wait 250ms"))
    #expect(unducks.first?.step == wait)
    #expect(t.heard(wait - 1) == ["mpv": 0.1, "espeak": 0])
    #expect(t.heard(wait + 1) == ["mpv": 1, "espeak": 0])
  }

  @Test(
    "a new daemon plays the player the last interruption paused, alone, and the one paused for it only once it stops (docs/mpris.md \"A daemon that stops\")"
  )
  func restartPlaysLatestPlayer() async throws {
    let t = try await ExampleTranscript.run("desktop-restart-latest-player")
    let end = try #require(t.step("simulate program call stop"))
    #expect(t.sent(end) == ["play firefox"])
    #expect(t.heard(end + 1) == ["mpv": 0, "firefox": 1, "call": 0])
    let stop = try #require(t.step("simulate program firefox stop"))
    #expect(t.sent(stop) == ["play mpv"])
    #expect(t.heard(stop + 1) == ["mpv": 1, "firefox": 0, "call": 0])
  }

  @Test(
    "a stream that corks while its player plays is buffering: the app it paused stays paused, and plays once the user pauses the buffering one (docs/mpris.md \"A cork while the player plays\")"
  )
  func stallIsNotAPause() async throws {
    let t = try await ExampleTranscript.run("desktop-stall-is-not-a-pause")
    let stall = try #require(t.step("simulate program second stall"))
    #expect(t.sent(stall) == [])
    #expect(t.heard(stall + 1) == ["first": 0, "second": 0])
    let play = try #require(t.step("simulate program second play"))
    #expect(t.sent(play) == [])
    #expect(t.heard(play + 1) == ["first": 0, "second": 1])
    let pause = try #require(t.step("simulate user second pause"))
    #expect(t.sent(pause) == ["play first"])
    #expect(t.heard(pause + 1) == ["first": 1, "second": 0])
  }
}
