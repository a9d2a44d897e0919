import AudioSession
import AudioSessionArbiter
import AudioSessionArbiterTestSupport
import Testing

/// The edges of a desktop that only the daemon's own decisions decide, each acted out on the
/// arbiter as the facts a real desktop gives it (docs/arbiter.md).
@Suite struct DesktopEdgesTests {
  static let mpv = "org.mpris.MediaPlayer2.mpv"
  static let chromium = "org.mpris.MediaPlayer2.chromium.instance800"

  @Test(
    "two programs of one binary in one process group that call themselves differently are two apps: the phone one's call interrupts the music one (docs/apps.md \"Sessions of other programs\")"
  )
  func oneBinaryOneGroup_twoApps() async throws {
    var desktop = try await Desktop.start()
    desktop.play(
      Desktop.stream(1, pid: 700, binary: "pacat", name: "barmusic", role: "music"), group: 600)
    desktop.play(
      Desktop.stream(2, pid: 701, binary: "pacat", name: "barphone", role: "phone"), group: 600)
    #expect(desktop.appSessions == ["pacat.600", "pacat-barphone.600"])
    #expect(desktop.session("pacat.600")?.interrupted == true)
    #expect(desktop.session("pacat-barphone.600")?.active == true)
    #expect(desktop.interruptions(of: "pacat.600") == [.call])
  }

  @Test(
    "one program's streams in one group that call themselves the same stay one app, and a stream keeps its app's name when the first one goes (docs/apps.md \"Sessions of other programs\")"
  )
  func oneProgram_staysOneApp() async throws {
    var desktop = try await Desktop.start()
    let first = Desktop.stream(1, pid: 700, binary: "pacat", name: "barmusic", role: "music")
    let other = Desktop.stream(2, pid: 701, binary: "pacat", name: "barphone", role: "music")
    desktop.play(first, group: 600)
    desktop.play(Desktop.stream(3, pid: 702, binary: "pacat", name: "barmusic"), group: 600)
    #expect(desktop.appSessions == ["pacat.600"])
    desktop.play(other, group: 600)
    desktop.remove(first)
    #expect(desktop.appSessions == ["pacat.600", "pacat-barphone.600"])
  }

  @Test(
    "a browser's call page (it plays and records, no role) is the call: status says call active and the music is interrupted by the call (docs/arbiter.md Calls)"
  )
  func browserCall_isTheCall() async throws {
    var desktop = try await Desktop.start()
    desktop.play(Desktop.stream(1, pid: 900, binary: "mpv", role: "music"))
    #expect(desktop.session("mpv.900")?.active == true)
    desktop.play(Desktop.stream(2, pid: 800, binary: "chromium", name: "Chromium"))
    desktop.play(Desktop.stream(3, pid: 800, binary: "chromium", name: "Chromium", record: true))
    #expect(desktop.callActive)
    #expect(desktop.interruptions(of: "mpv.900") == [.call])
    #expect(desktop.session("chromium.800")?.active == true)
    #expect(desktop.session("chromium.800")?.interrupted == false)
    // The call ends when its page stops: the music resumes.
    desktop.remove(Desktop.stream(3, pid: 800, binary: "chromium", record: true))
    desktop.remove(Desktop.stream(2, pid: 800, binary: "chromium"))
    #expect(!desktop.callActive)
    #expect(desktop.session("mpv.900")?.interrupted == false)
  }

  @Test(
    "a player the user plays again while its stream never stopped (Chromium) is heard: its session starts again and interrupts the other media app (docs/arbiter.md \"The user's word\")"
  )
  func userPlaysChromiumAgain() async throws {
    var desktop = try await Desktop.start()
    desktop.feed(
      .players(
        .snapshot([
          MediaPlayer(bus: Self.chromium, pid: 800, status: .playing),
          MediaPlayer(bus: Self.mpv, pid: 900, status: .paused),
        ])))
    desktop.feed(.streams(.snapshot([])))
    desktop.play(Desktop.stream(1, pid: 800, binary: "chromium", name: "Chromium"))
    #expect(desktop.session("chromium.800")?.active == true)
    // mpv starts: Chromium is paused, its stream stays uncorked.
    desktop.player(Self.mpv, pid: 900, .playing)
    desktop.play(Desktop.stream(2, pid: 900, binary: "mpv"))
    #expect(desktop.sent.map(\.bus) == [Self.chromium])
    desktop.player(Self.chromium, pid: 800, .paused)
    #expect(desktop.session("chromium.800")?.interrupted == true)
    // The user presses play on Chromium (playerctl): it is heard, and mpv is paused.
    desktop.player(Self.chromium, pid: 800, .playing)
    #expect(desktop.session("chromium.800")?.active == true)
    #expect(desktop.session("chromium.800")?.interrupted == false)
    #expect(desktop.sent.last?.command == .pause)
    #expect(desktop.sent.last?.bus == Self.mpv)
  }

  @Test(
    "a daemon started again during a call plays what the last one paused only when the call is over, whether the bus or the server speaks first (docs/arbiter.md \"What outlives a reset\")"
  )
  func restartedDuringCall_waitsForTheCall() async throws {
    for busFirst in [true, false] {
      var desktop = try await Desktop.start(paused: [PausedPlayer(bus: Self.mpv, pid: 900)])
      let call = Desktop.stream(1, pid: 700, binary: "pacat", role: "phone")
      let music = Desktop.stream(2, pid: 900, binary: "mpv", role: "music", corked: true)
      let players = ArbiterEvent.players(
        .snapshot([MediaPlayer(bus: Self.mpv, pid: 900, status: .paused)]))
      let streams = ArbiterEvent.streams(
        .snapshot([call, music]),
        processes: [700: ProcessFacts(lineage: [700]), 900: ProcessFacts(lineage: [900])])
      desktop.feed(busFirst ? players : streams)
      desktop.feed(busFirst ? streams : players)
      #expect(desktop.sent.isEmpty, "bus first: \(busFirst)")
      #expect(desktop.callActive)
      #expect(desktop.session("pacat.700")?.interrupted == false)
      desktop.remove(call)
      #expect(desktop.sent.map(\.command) == [.play], "bus first: \(busFirst)")
      #expect(desktop.journal.isEmpty)
    }
  }

  @Test(
    "a server restart during a call plays the music the call paused, once the call is gone with the server (docs/arbiter.md \"What outlives a reset\")"
  )
  func serverRestartDuringCall_playsTheMusic() async throws {
    var desktop = try await Desktop.start()
    desktop.feed(.players(.snapshot([MediaPlayer(bus: Self.mpv, pid: 900, status: .playing)])))
    desktop.feed(.streams(.snapshot([])))
    desktop.play(Desktop.stream(2, pid: 900, binary: "mpv", role: "music"))
    desktop.play(Desktop.stream(1, pid: 700, binary: "pacat", role: "phone"))
    #expect(desktop.sent.map(\.command) == [.pause])
    desktop.player(Self.mpv, pid: 900, .paused)
    desktop.play(Desktop.stream(2, pid: 900, binary: "mpv", role: "music", corked: true))
    // The server dies with the call, and comes back without it.
    desktop.feed(.backend(.mediaServicesLost))
    desktop.feed(.streams(.snapshot([])))
    desktop.feed(.backend(.mediaServicesReset))
    #expect(!desktop.callActive)
    #expect(desktop.sent.map(\.command) == [.pause, .play])
    #expect(desktop.sent.last?.bus == Self.mpv)
  }

  static let pacatCall = Desktop.stream(3, pid: 700, binary: "pacat", role: "phone")
  static let firefoxCall = [
    Desktop.stream(4, pid: 810, binary: "firefox-esr", name: "Firefox"),
    Desktop.stream(5, pid: 810, binary: "firefox-esr", name: "Firefox", record: true),
  ]

  @Test(
    "of two calls the newest holds the first, and the first comes back when the newest ends, though music started in between (docs/arbiter.md Calls)"
  )
  func twoCalls_heldCallComesBack() async throws {
    var desktop = try await Desktop.start()
    for stream in Self.firefoxCall { desktop.play(stream) }
    desktop.play(Self.pacatCall)
    #expect(desktop.session("firefox-esr.810")?.interrupted == true)
    desktop.play(Desktop.stream(1, pid: 900, binary: "mpv", role: "music"))
    desktop.remove(Self.pacatCall)
    #expect(desktop.callActive)
    #expect(desktop.session("firefox-esr.810")?.interrupted == false)
    #expect(desktop.session("firefox-esr.810")?.active == true)
  }

  @Test(
    "a new daemon that finds two calls and music at once makes one call heard and the music interrupted, and the other call is heard when that one ends (docs/arbiter.md Calls)"
  )
  func twoCallsFoundAtOnce() async throws {
    var desktop = try await Desktop.start()
    let music = Desktop.stream(1, pid: 900, binary: "mpv", role: "music")
    let streams = [music, Self.pacatCall] + Self.firefoxCall
    var processes: [Int32: ProcessFacts] = [:]
    for pid: Int32 in [900, 700, 810] { processes[pid] = ProcessFacts(lineage: [pid]) }
    desktop.feed(.streams(.snapshot(streams), processes: processes))
    #expect(desktop.callActive)
    #expect(desktop.session("mpv.900")?.interrupted == true)
    let calls = ["pacat.700", "firefox-esr.810"]
    let heard = calls.filter { desktop.session($0)?.interrupted == false }
    #expect(heard.count == 1)
    let other = calls.first { !heard.contains($0) }
    if heard == ["pacat.700"] {
      desktop.remove(Self.pacatCall)
    } else {
      for stream in Self.firefoxCall { desktop.remove(stream) }
    }
    #expect(desktop.callActive)
    #expect(other.flatMap { desktop.session($0)?.interrupted } == false)
  }

  @Test(
    "a player the user pauses during a call is not played when the call ends, and the player it had interrupted before the call is played again (docs/arbiter.md \"The user's word\")"
  )
  func userPauseDuringCall_releasesTheOther() async throws {
    var desktop = try await Desktop.start()
    desktop.feed(
      .players(
        .snapshot([
          MediaPlayer(bus: Self.chromium, pid: 800, status: .playing),
          MediaPlayer(bus: Self.mpv, pid: 900, status: .playing),
        ])))
    desktop.feed(.streams(.snapshot([])))
    desktop.play(Desktop.stream(2, pid: 800, binary: "chromium", name: "Chromium"))
    desktop.play(Desktop.stream(1, pid: 900, binary: "mpv", role: "music"))
    #expect(desktop.sent.map(\.bus) == [Self.chromium])
    desktop.player(Self.chromium, pid: 800, .paused)
    desktop.play(Self.pacatCall)
    #expect(desktop.sent.last?.bus == Self.mpv)
    desktop.player(Self.mpv, pid: 900, .paused)
    desktop.play(Desktop.stream(1, pid: 900, binary: "mpv", role: "music", corked: true))
    // The user presses pause on mpv, already paused: only the bus's word says so.
    desktop.feed(.players(.commanded(bus: Self.mpv, .pause)))
    desktop.remove(Self.pacatCall)
    #expect(desktop.sent.filter { $0.bus == Self.mpv }.map(\.command) == [.pause])
    #expect(desktop.sent.last?.bus == Self.chromium)
    #expect(desktop.sent.last?.command == .play)
  }

  @Test(
    "after a server restart, a stream that plays on while its player is paused by the user (Chromium) does not take the focus from the music (docs/arbiter.md \"What outlives a reset\")"
  )
  func serverRestart_pausedChromiumStaysOut() async throws {
    var desktop = try await Desktop.start()
    desktop.feed(
      .players(
        .snapshot([
          MediaPlayer(bus: Self.mpv, pid: 900, status: .playing),
          MediaPlayer(bus: Self.chromium, pid: 800, status: .playing),
        ])))
    desktop.feed(.streams(.snapshot([])))
    let chromium = Desktop.stream(2, pid: 800, binary: "chromium", name: "Chromium")
    desktop.play(chromium)
    #expect(desktop.session("chromium.800")?.active == true)
    // The user pauses Chromium; its stream plays on.
    desktop.feed(.players(.commanded(bus: Self.chromium, .pause)))
    desktop.player(Self.chromium, pid: 800, .paused)
    desktop.play(Desktop.stream(1, pid: 900, binary: "mpv", role: "music"))
    #expect(desktop.session("mpv.900")?.active == true)
    let sentBefore = desktop.sent.count
    desktop.feed(.backend(.mediaServicesLost))
    desktop.feed(.streams(.snapshot([])))
    desktop.feed(.backend(.mediaServicesReset))
    desktop.play(Desktop.stream(1, pid: 900, binary: "mpv", role: "music"))
    desktop.play(chromium)
    #expect(desktop.sent.count == sentBefore, "sent \(desktop.sent[sentBefore...].map(\.bus))")
    #expect(desktop.session("chromium.800")?.active != true)
    #expect(desktop.session("mpv.900")?.active == true)
  }
}
