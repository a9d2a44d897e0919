import AudioSession
import AudioSessionMPRIS
import AudioSessionPulse
import AudioSessionSystem
import AudioSessionTestSupport
import AudioSessionWire
import Foundation
import InMemoryLogging
import Logging
import Testing

@testable import AudioSessionHost

#if canImport(Glibc)
  import Glibc
#endif

/// A real media player paused and played over MPRIS by a `sessionctl daemon --backend pulse`
/// (docs/mpris.md): `mpv` with mpv-mpris, playing to a private server, on a private
/// `dbus-daemon`. What is checked is the player's own `PlaybackStatus` (`playerctl`), and the
/// server's view of its stream; the daemon's `player` events are checked in `watch`.
@Suite(.serialized) struct MPRISPulseTests {
  typealias Rig = PulseDaemonServerLossTests.Rig
  typealias Apps = AppStreamsPulseTests
  static let player = "org.mpris.MediaPlayer2.mpv"

  /// A rig on a private bus, with an mpv playing whose app session plays and whose player the
  /// daemon knows.
  struct Setup {
    let bus: PrivateSessionBus
    let rig: Rig
    let mpv: MPVPlayer
    var app: String { "mpv.\(mpv.process.pid)" }

    /// `native`: on PipeWire, mpv plays through PipeWire's own protocol in the server's
    /// runtime dir, as on a desktop; `rolePolicy`: WirePlumber runs its role-based policy.
    static func start(
      _ kind: PulseDaemonServerLossTests.Kind, native: Bool = false, rolePolicy: Bool = false,
      beforePlaying: (Rig) throws -> Void = { _ in }
    ) async throws -> Setup {
      let bus = try PrivateSessionBus()
      // What started is stopped when a later step fails: no bus, server or player outlives a
      // failed test.
      let rig: Rig
      do {
        rig = try await Rig.start(kind, bus: bus.address, rolePolicy: rolePolicy)
      } catch {
        bus.stop()
        throw error
      }
      let mpv: MPVPlayer
      do {
        try beforePlaying(rig)
        let runtime = native ? (rig.server as? PipeWirePrivateServer)?.runtimeDirectory : nil
        mpv = try MPVPlayer.start(pulse: rig.environment, bus: bus.address, pipeWire: runtime)
      } catch {
        rig.stop()
        bus.stop()
        throw error
      }
      let setup = Setup(bus: bus, rig: rig, mpv: mpv)
      do {
        try setup.waitUntilKnown(mpv)
      } catch {
        setup.stop()
        throw error
      }
      return setup
    }

    /// A setup whose mpv plays on headphones (`cans`, the default sink), with the module that
    /// made them, once its session's route is on them.
    static func onHeadphones(_ kind: PulseDaemonServerLossTests.Kind) async throws -> (
      Setup, module: String
    ) {
      let headphones = try Apps.headphones()
      var module = ""
      let setup = try await start(kind) { rig in
        module = try Apps.pactl(rig, ["load-module", "module-null-sink", headphones])
        _ = try Apps.pactl(rig, ["set-default-sink", "cans"])
      }
      do {
        try Apps.waitFor("mpv's session on the headphones") {
          guard case .object(let route)? = try Apps.session(setup.rig, setup.app)?["route"] else {
            return false
          }
          return JSONValue.object(route).serialized.contains("headphones")
        }
      } catch {
        setup.stop()
        throw error
      }
      return (setup, module)
    }

    /// Waits until an mpv's session plays and `status` shows its player playing.
    func waitUntilKnown(_ mpv: MPVPlayer) throws {
      let app = "mpv.\(mpv.process.pid)"
      try Apps.waitUntilPlaying(rig, app)
      try Apps.waitFor("\(app)'s player in status") {
        try MPRISPulseTests.players(rig, app) == [
          #"{"bus":"\#(MPRISPulseTests.player)","pid":\#(mpv.process.pid),"playbackStatus":"Playing"}"#
        ]
      }
    }

    func stop() {
      mpv.stop()
      rig.stop()
      bus.stop()
    }
  }

  /// A session's `players` in `status --json`, each serialised.
  static func players(_ rig: Rig, _ session: String) throws -> [String]? {
    guard case .array(let players)? = try Apps.session(rig, session)?["players"] else {
      return nil
    }
    return players.map { $0.serialized }
  }

  /// Whether mpv's stream is muted on the server.
  static func muted(_ setup: Setup) throws -> Bool? {
    try Apps.pacatStream(setup.rig, pid: setup.mpv.process.pid, binary: "mpv")?.muted
  }

  /// `sessionctl watch all --json`, and the `player` events it prints.
  struct Watcher {
    let launched: SessionctlProcess.Launched

    init(_ rig: Rig) throws {
      launched = try SessionctlProcess.launch(["watch", "all", "--json", "--socket", rig.socket])
      #expect(SessionctlProcess.readLine(launched.error)?.contains("watching all") == true)
    }

    /// The next `player` event, skipping the others.
    func nextPlayerEvent() -> String? {
      next { $0.contains(#""event":"player""#) }
    }

    /// The next line that `matches`, skipping the others; nil when none comes in time.
    func next(_ matches: (String) -> Bool) -> String? {
      while let line = SessionctlProcess.readLine(launched.output) {
        if matches(line) { return line }
      }
      return nil
    }

    func stop() {
      launched.process.terminate()
      launched.process.waitUntilExit()
    }
  }

  /// Checks that the player stays `status` for a second.
  static func stays(_ mpv: MPVPlayer, _ status: String) throws {
    for _ in 0..<10 {
      let now = try mpv.status()
      #expect(now == status, "\(mpv.process.pid)")
      usleep(100_000)
    }
  }

  @Test(
    "a call pauses a playing mpv over MPRIS as well as muting it, and plays it again when the call ends (docs/mpris.md)",
    arguments: PulseDaemonServerLossTests.Kind.allCases)
  func callPausesThenPlays(kind: PulseDaemonServerLossTests.Kind) async throws {
    let setup = try await Setup.start(kind)
    defer { setup.stop() }
    let watcher = try Watcher(setup.rig)
    defer { watcher.stop() }

    // The command lists what it caused, the player's pause included.
    let begun = try setup.rig.run(["simulate", "call", "begin"])
    #expect(
      begun.contains("\(setup.app)  player pause \(Self.player) (interruption by call)\n"),
      "\(begun)")
    try Apps.waitFor("mpv to pause") { try setup.mpv.status() == "Paused" }
    #expect(try Self.muted(setup) == true)
    #expect(
      watcher.nextPlayerEvent()
        == #"{"session":"\#(setup.app)","event":"player","action":"pause","player":"\#(Self.player)","cause":"interruption","by":"call"}"#
    )
    try Apps.waitFor("status to show the player paused") {
      try Self.players(setup.rig, setup.app)?.first?.contains(#""playbackStatus":"Paused""#)
        == true
    }
    #expect(
      try setup.rig.run(["status"]).contains(
        "player: \(setup.app) \(Self.player) (Paused)\n"))
    // explain says why: the daemon's MPRIS rule, triggered by the interruption.
    let explained = try setup.rig.run(["explain", "--session", setup.app, "--json"])
    #expect(
      explained.contains(
        #""because":{"policy":null,"path":null,"profile":"default","switch":null,"trigger":"\#(setup.app) interruption began (reason: default, by: call)","spec":"docs/mpris.md \"What the daemon does\""}"#
      ), "\(explained)")

    try setup.rig.run(["simulate", "call", "end"])
    try Apps.waitFor("mpv to play again") { try setup.mpv.status() == "Playing" }
    #expect(
      watcher.nextPlayerEvent()
        == #"{"session":"\#(setup.app)","event":"player","action":"play","player":"\#(Self.player)","cause":"interruptionEnded","by":"call"}"#
    )
    try Apps.waitFor("mpv's stream to be unmuted") { try Self.muted(setup) == false }
    try Apps.waitUntilPlaying(setup.rig, setup.app)
  }

  @Test(
    "a pause the user presses during a call on the player the call paused (playerctl) is seen on the bus and kept: the call's end does not play it (docs/mpris.md \"What the daemon does\")",
    arguments: PulseDaemonServerLossTests.Kind.allCases)
  func userPauseDuringCallIsKept(kind: PulseDaemonServerLossTests.Kind) async throws {
    let setup = try await Setup.start(kind)
    defer { setup.stop() }
    try setup.rig.run(["simulate", "call", "begin"])
    try Apps.waitFor("mpv to pause") { try setup.mpv.status() == "Paused" }
    try setup.mpv.control("pause")
    var seen = false
    var lines: [String] = []
    while !seen, let line = SessionctlProcess.readLine(setup.rig.log, timeout: 30) {
      lines.append(line)
      seen = line.contains("the user's pause of \(Self.player), seen on the bus")
    }
    #expect(seen, "the daemon never logged the user's pause: \(lines)")
    try setup.rig.run(["simulate", "call", "end"])
    try Apps.waitFor("the call to end") {
      try Apps.session(setup.rig, setup.app)?["interrupted"] == .bool(false)
    }
    try Self.stays(setup.mpv, "Paused")
  }

  @Test(
    "a non-mixable session that starts pauses mpv; ended without shouldResume leaves it paused (docs/mpris.md)",
    arguments: [PulseDaemonServerLossTests.Kind.pulseaudio])
  func nonMixableSessionPauses(kind: PulseDaemonServerLossTests.Kind) async throws {
    let setup = try await Setup.start(kind)
    defer { setup.stop() }
    try Apps.play(setup.rig, "podcast", ["playback", "--mode", "spokenAudio"])
    try Apps.waitFor("mpv to pause") { try setup.mpv.status() == "Paused" }
    // The podcast ends without notifying others: no shouldResume, so mpv stays paused.
    try setup.rig.run(["stop", "--session", "podcast"])
    try setup.rig.run(["deactivate", "--session", "podcast"])
    try Self.stays(setup.mpv, "Paused")
  }

  @Test(
    "a player the user paused before a call is neither paused nor played by the daemon, while another, playing, is paused and played again (docs/mpris.md)",
    arguments: PulseDaemonServerLossTests.Kind.allCases)
  func userPausedBeforeCall(kind: PulseDaemonServerLossTests.Kind) async throws {
    let setup = try await Setup.start(kind)
    defer { setup.stop() }
    // A game (ambient: it mixes, so it does not interrupt the first player).
    let other = try MPVPlayer.start(
      pulse: setup.rig.environment, bus: setup.bus.address, role: "game")
    defer { other.stop() }
    let otherName = "mpv.instance\(other.process.pid)"
    try Apps.waitUntilPlaying(setup.rig, "mpv.\(other.process.pid)")
    try Apps.waitFor("the second mpv's player") { try other.status(player: otherName) == "Playing" }
    try setup.mpv.control("pause")
    try Apps.waitFor("the first app session to stop playing") {
      try Apps.session(setup.rig, setup.app)?["playing"] == .bool(false)
    }
    let watcher = try Watcher(setup.rig)
    defer { watcher.stop() }

    try setup.rig.run(["simulate", "call", "begin"])
    try Apps.waitFor("the second mpv to pause") { try other.status(player: otherName) == "Paused" }
    try setup.rig.run(["simulate", "call", "end"])
    try Apps.waitFor("the second mpv to play again") {
      try other.status(player: otherName) == "Playing"
    }
    // Only the second player got commands; the first, paused by the user, stays paused.
    let events = [watcher.nextPlayerEvent(), watcher.nextPlayerEvent()]
    #expect(
      events.allSatisfy {
        $0?.contains(#""player":"org.mpris.MediaPlayer2.\#(otherName)""#) == true
      },
      "\(events)")
    try Self.stays(setup.mpv, "Paused")
  }

  @Test(
    "a player paused for a call by a daemon that is killed is played again by the next daemon once the call is over, not before (docs/mpris.md \"A daemon that stops\")",
    arguments: PulseDaemonServerLossTests.Kind.allCases)
  func pausedByAKilledDaemon(kind: PulseDaemonServerLossTests.Kind) async throws {
    let setup = try await Setup.start(kind)
    defer { setup.stop() }
    let rig = setup.rig
    let call = try Apps.pacat(rig, ["--property=media.role=phone", "--latency-msec=20"])
    defer { Apps.stop(call) }
    try Apps.waitFor("mpv to be paused by the call") { try setup.mpv.status() == "Paused" }
    let journal = PausedPlayersJournal.path(besideStateFile: rig.statePath)
    try Apps.waitFor("the paused player to be kept") { access(journal, F_OK) == 0 }
    // Killed during the call; the next daemon starts while the call goes on: mpv stays paused.
    kill(rig.daemon.processIdentifier, SIGKILL)
    rig.daemon.waitUntilExit()
    var environment = rig.environment
    environment["DBUS_SESSION_BUS_ADDRESS"] = setup.bus.address
    let launched = try SessionctlProcess.launch(
      ["daemon", "--backend", "pulse", "--socket", rig.socket], environment: environment)
    defer {
      launched.process.terminate()
      launched.process.waitUntilExit()
    }
    var listening = false
    while !listening, let line = SessionctlProcess.readLine(launched.error) {
      listening = line.contains("listening on")
    }
    #expect(listening)
    usleep(1_000_000)
    #expect(try setup.mpv.status() == "Paused")
    // The call ends: the next daemon plays it again, and keeps nothing more.
    Apps.stop(call)
    try Apps.waitFor("mpv to play again after the call") { try setup.mpv.status() == "Playing" }
    try Apps.waitFor("the journal to be removed") { access(journal, F_OK) != 0 }
  }

  @Test(
    "a native PipeWire mpv, whose stream says no process, is matched to its player through its client: a call pauses it and plays it again (docs/apps.md \"On the server\", docs/mpris.md)"
  )
  func nativePipeWirePlayer() async throws {
    let bus = try PrivateSessionBus()
    defer { bus.stop() }
    let rig = try await Rig.start(.pipewire, bus: bus.address)
    defer { rig.stop() }
    let server = try #require(rig.server as? PipeWirePrivateServer)
    let mpv = try MPVPlayer.start(
      pulse: rig.environment, bus: bus.address, pipeWire: server.runtimeDirectory)
    defer { mpv.stop() }
    // The stream is mpv's own (its node lists application.id, no process id): the daemon finds
    // the process through the client, so the session is named after it and owns the player.
    let app = "mpv.\(mpv.process.pid)"
    try Apps.waitUntilPlaying(rig, app)
    try Apps.waitFor("\(app)'s player in status") {
      try Self.players(rig, app)?.first?.contains(#""playbackStatus":"Playing""#) == true
    }
    let call = try Apps.pacat(rig, ["--property=media.role=phone", "--latency-msec=20"])
    defer { Apps.stop(call) }
    try Apps.waitFor("mpv to be paused by the call") { try mpv.status() == "Paused" }
    Apps.stop(call)
    try Apps.waitFor("mpv to play again after the call") { try mpv.status() == "Playing" }
  }

  @Test(
    "headphones unplugged pause mpv, which stays paused when they come back (docs/mpris.md)",
    arguments: PulseDaemonServerLossTests.Kind.allCases)
  func unplugPauses(kind: PulseDaemonServerLossTests.Kind) async throws {
    let (setup, module) = try await Setup.onHeadphones(kind)
    defer { setup.stop() }
    let watcher = try Watcher(setup.rig)
    defer { watcher.stop() }

    _ = try Apps.pactl(setup.rig, ["unload-module", module])
    try Apps.waitFor("mpv to pause") { try setup.mpv.status() == "Paused" }
    #expect(
      watcher.nextPlayerEvent()
        == #"{"session":"\#(setup.app)","event":"player","action":"pause","player":"\#(Self.player)","cause":"pause","reason":"oldDeviceUnavailable"}"#
    )
    _ = try Apps.pactl(setup.rig, ["load-module", "module-null-sink", Apps.headphones()])
    try Self.stays(setup.mpv, "Paused")
  }

  // The user plays the player again 50 ms after the unplug, before or while
  // the daemon's Pause lands; the daemon's view must follow the player, and the next call
  // must pause it (a cached "Paused" would send no Pause and leave it playing on muted).
  @Test(
    "a player the user plays again right after an unplug is seen playing, and the next call pauses it (docs/mpris.md \"Which player is whose\")",
    arguments: PulseDaemonServerLossTests.Kind.allCases)
  func userPlaysRightAfterUnplug(kind: PulseDaemonServerLossTests.Kind) async throws {
    let (setup, module) = try await Setup.onHeadphones(kind)
    defer { setup.stop() }

    _ = try Apps.pactl(setup.rig, ["unload-module", module])
    usleep(50_000)
    try setup.mpv.control("play")
    // Whichever came last, the user's play or the daemon's pause, the player is playing once
    // the user's play is its last command; give the daemon's Pause time to land first.
    usleep(300_000)
    if try setup.mpv.status() != "Playing" { try setup.mpv.control("play") }
    try Apps.waitFor("mpv to play") { try setup.mpv.status() == "Playing" }
    try Apps.waitFor("status to show the player playing, as the player says") {
      try Self.players(setup.rig, setup.app)?.first?.contains(#""playbackStatus":"Playing""#)
        == true
    }

    // A call now: the player is paused, not left playing on muted.
    let phone = try Apps.pacat(setup.rig, ["--property=media.role=phone", "--latency-msec=20"])
    defer { Apps.stop(phone) }
    try Apps.waitFor("mpv to pause for the call") { try setup.mpv.status() == "Paused" }
    try Self.stays(setup.mpv, "Paused")
  }

  @Test(
    "a player that starts playing makes its session's app the Now Playing app; the next one takes it (docs/mpris.md Now Playing)",
    arguments: PulseDaemonServerLossTests.Kind.allCases)
  func playingPlayerIsNowPlaying(kind: PulseDaemonServerLossTests.Kind) async throws {
    let setup = try await Setup.start(kind)
    defer { setup.stop() }
    let nowPlaying = { (session: String) throws -> Bool in
      try Apps.session(setup.rig, session)?["nowPlaying"] == .bool(true)
    }
    try Apps.waitFor("\(setup.app) Now Playing") { try nowPlaying(setup.app) }
    // A second mpv (its bus name gets an instance suffix) starts playing: it interrupts the
    // first, and takes Now Playing.
    let second = try MPVPlayer.start(pulse: setup.rig.environment, bus: setup.bus.address)
    defer { second.stop() }
    let secondApp = "mpv.\(second.process.pid)"
    try Apps.waitUntilPlaying(setup.rig, secondApp)
    try Apps.waitFor("\(secondApp) Now Playing") { try nowPlaying(secondApp) }
    #expect(try !nowPlaying(setup.app), "one app at a time is Now Playing")
  }

  @Test(
    "a player that quits while interrupted is forgotten; one started after is paused by the next call (docs/mpris.md)",
    arguments: [PulseDaemonServerLossTests.Kind.pulseaudio])
  func playerQuitsMidInterruption(kind: PulseDaemonServerLossTests.Kind) async throws {
    let setup = try await Setup.start(kind)
    defer { setup.stop() }
    try setup.rig.run(["simulate", "call", "begin"])
    try Apps.waitFor("mpv to pause") { try setup.mpv.status() == "Paused" }
    setup.mpv.stop()
    try Apps.waitFor("its session to go") {
      try !Apps.sessionNames(setup.rig).contains(setup.app)
    }
    try setup.rig.run(["simulate", "call", "end"])

    let second = try MPVPlayer.start(pulse: setup.rig.environment, bus: setup.bus.address)
    defer { second.stop() }
    try setup.waitUntilKnown(second)
    try setup.rig.run(["simulate", "call", "begin"])
    try Apps.waitFor("the second mpv to pause") { try second.status() == "Paused" }
    try setup.rig.run(["simulate", "call", "end"])
    try Apps.waitFor("the second mpv to play again") { try second.status() == "Playing" }
  }

  @Test(
    "the session bus restarts: the daemon finds the new bus and pauses a player on it (docs/mpris.md)",
    arguments: [PulseDaemonServerLossTests.Kind.pulseaudio])
  func busRestarts(kind: PulseDaemonServerLossTests.Kind) async throws {
    let setup = try await Setup.start(kind)
    defer { setup.stop() }
    setup.mpv.stop()
    try setup.bus.restart()
    let second = try MPVPlayer.start(pulse: setup.rig.environment, bus: setup.bus.address)
    defer { second.stop() }
    try setup.waitUntilKnown(second)
    try setup.rig.run(["simulate", "call", "begin"])
    try Apps.waitFor("the mpv on the new bus to pause") { try second.status() == "Paused" }
  }

  @Test("without a session bus the MPRIS watcher says so once and reports nothing (docs/mpris.md)")
  func noBus() async throws {
    let handler = InMemoryLogHandler()
    var logger = Logger(label: "test") { _ in handler }
    logger.logLevel = .trace
    let players = MPRISPlayers(address: nil, logger: logger)
    #expect(handler.entries.isEmpty)
    players.start()
    players.start()
    var events: [MediaPlayerEvent] = []
    for await event in players.events { events.append(event) }
    #expect(events.isEmpty)
    #expect(handler.entries.count == 1)
    #expect(handler.entries.first?.message.description.hasPrefix("no D-Bus session bus") == true)
    #expect(MPRISPlayers.sessionBusAddress(environment: [:]) == nil)
    #expect(
      MPRISPlayers.sessionBusAddress(environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/x"])
        == "unix:path=/x")
  }

  @Test("a bus that does not answer is reported once, then found when it comes (docs/mpris.md)")
  func busComesLater() async throws {
    let folder = try TemporaryFolder.make()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let handler = InMemoryLogHandler()
    var logger = Logger(label: "test") { _ in handler }
    logger.logLevel = .info
    let players = MPRISPlayers(address: "unix:path=\(folder)/bus", logger: logger)
    players.start()
    defer { players.stop() }
    usleep(400_000)
    let warnings = handler.entries.filter { $0.level == .warning }
    #expect(warnings.count == 1)
    #expect(warnings.first?.message.description.contains("cannot reach the session bus") == true)
    let child = try ChildProcess.spawn(
      "/usr/bin/dbus-daemon",
      arguments: ["--session", "--nofork", "--nopidfile", "--address=unix:path=\(folder)/bus"])
    defer { child.end(SIGTERM) }
    // The first report once it connects; the watch is bounded (10 s) so a failure cannot hang.
    let first = await withTaskGroup(of: MediaPlayerEvent?.self) { group in
      group.addTask {
        var iterator = players.events.makeAsyncIterator()
        return await iterator.next()
      }
      group.addTask {
        try? await Task.sleep(for: .seconds(10))
        players.stop()
        return nil
      }
      let first = await group.next() ?? nil
      group.cancelAll()
      return first
    }
    #expect(first == .snapshot([]))
    #expect(handler.entries.filter { $0.level == .warning }.count == 1)
  }
}
