import AudioSession
import AudioSessionDaemon
import AudioSessionDaemonTestSupport
import AudioSessionHost
import AudioSessionSystem
import AudioSessionTestSupport
import AudioSessionWire
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The daemon on a real socket (docs/protocol.md; docs/contract.md "Bad input"): sessions belong to
/// their connection or to the daemon, a vanished client's sessions end as a vanished app's,
/// watchers get what they asked for, and bad messages change nothing.
@Suite struct DaemonServerTests {
  static func set(
    _ session: String, _ category: AudioSession.Category, _ options: CategoryOptions = []
  )
    -> DaemonRequest.Operation
  {
    .command(
      .input(.setCategory(session: session, category: category, mode: nil, options: options)))
  }

  @Test(
    "the socket is 0600 in a 0700 folder, and hello names the daemon (docs/protocol.md The socket)")
  func start_socketAndFolder_arePrivate() async throws {
    let daemon = try await DaemonHarness.start()
    var info = stat()
    #expect(stat(daemon.socketPath, &info) == 0)
    #expect(info.st_mode & 0o777 == 0o600)
    let folder = (daemon.socketPath as NSString).deletingLastPathComponent
    #expect(stat(folder, &info) == 0)
    #expect(info.st_mode & 0o777 == 0o700)
    let client = try daemon.connect()
    let reply = try client.request(.hello(client: "tests"))
    guard case .object(let hello)? = reply["daemon"] else {
      Issue.record("no daemon member: \(reply)")
      return
    }
    #expect(hello["protocol"] == 1)
    #expect(hello["pid"] == .int(Int(getpid())))
    #expect(hello["backend"] == "simulated")
    await daemon.stop()
  }

  @Test(
    "a client cannot change a session another client owns, but may read it (docs/engine.md \"Rules, and where they come from\")"
  )
  func perform_otherClientsSession_isRefused() async throws {
    let daemon = try await DaemonHarness.start()
    // Given a session owned by one client
    let owner = try daemon.connect()
    _ = try owner.request(.hello(client: "player"))
    #expect(try owner.request(.open(session: "music")).error == nil)
    // When another client tries to change it
    let other = try daemon.connect()
    let reply = try other.request(Self.set("music", .playback))
    // Then it is refused with a sentence naming the owner, and nothing changed
    guard case .protocolError(let error)? = reply.error else {
      Issue.record("not refused: \(reply)")
      return
    }
    #expect(error.code == .notOwner)
    #expect(error.message.hasPrefix("session 'music' belongs to another client ('player', pid "))
    #expect(
      try other.request(.command(.input(.setActive(session: "music", active: true, options: []))))
        .error != nil)
    #expect(try other.request(.command(.input(.removeSession("music")))).error != nil)
    #expect(try other.request(.session("music")).error == nil)
    #expect(try other.request(.command(.route(session: "music"))).error == nil)
    let status = await daemon.server.core.status()
    #expect(status.sessions.map(\.name) == ["music"])
    #expect(status.sessions.first?.configuration == .initial)
    #expect(try other.request(.open(session: "music")).error?.code == "sessionExists")
    await daemon.stop()
  }

  @Test(
    "when a client vanishes, its session is deactivated and the one it interrupted is told to resume (docs/engine.md \"Rules, and where they come from\")"
  )
  func disconnect_interrupter_endsInterruptionWithShouldResume() async throws {
    let daemon = try await DaemonHarness.start()
    // Given music (one client) interrupted by nav (another client)
    let musicEvents = NotificationRecorder()
    let music = try daemon.connect(musicEvents)
    #expect(try music.request(.open(session: "music")).error == nil)
    #expect(try music.request(Self.set("music", .playback)).error == nil)
    #expect(
      try music.request(.command(.input(.setActive(session: "music", active: true, options: []))))
        .error == nil)
    let nav = try daemon.connect()
    #expect(try nav.request(.open(session: "nav")).error == nil)
    #expect(try nav.request(Self.set("nav", .playback)).error == nil)
    #expect(
      try nav.request(.command(.input(.setActive(session: "nav", active: true, options: [])))).error
        == nil)
    musicEvents.wait(for: 1)
    // When nav's process goes away
    nav.close()
    // Then music is told the interruption ended, with shouldResume, and nav is gone
    let events = musicEvents.wait(for: 2).map(\.event)
    #expect(
      events == [
        .interruptionBegan(reason: .default, by: .session("nav")),
        .interruptionEnded(options: .shouldResume, by: .session("nav")),
      ])
    #expect(await daemon.server.core.status().sessions.map(\.name) == ["music"])
    await daemon.stop()
  }

  @Test(
    "when a client vanishes under vanishedApp endedNoResume, the one it interrupted gets ended without shouldResume and the one it ducked is unducked (docs/engine.md \"Rules, and where they come from\")"
  )
  func disconnect_interrupterWithEndedNoResume_endsWithoutShouldResume() async throws {
    var table = try TestPolicies.table()
    table.profiles[table.defaultProfile]?.switches.vanishedApp = .endedNoResume
    let daemon = try await DaemonHarness.start(policy: try Policy(table: table))
    // Given a podcast (one client) interrupted, and music (a second client) ducked, by nav
    let podcastEvents = NotificationRecorder()
    let podcast = try daemon.connect(podcastEvents)
    #expect(try podcast.request(.open(session: "podcast")).error == nil)
    #expect(
      try podcast.request(
        .command(
          .input(
            .setCategory(session: "podcast", category: .playback, mode: .spokenAudio, options: [])))
      ).error == nil)
    #expect(
      try podcast.request(
        .command(.input(.setActive(session: "podcast", active: true, options: [])))
      ).error == nil)
    // Playing: a paused spokenAudio session would be spared (docs/avaudiosession.md §4.4).
    #expect(try podcast.request(.command(.input(.startIO(session: "podcast")))).error == nil)
    let musicEvents = NotificationRecorder()
    let music = try daemon.connect(musicEvents)
    #expect(try music.request(.open(session: "music")).error == nil)
    #expect(try music.request(Self.set("music", .playback, .mixWithOthers)).error == nil)
    #expect(
      try music.request(.command(.input(.setActive(session: "music", active: true, options: []))))
        .error == nil)
    let nav = try daemon.connect()
    #expect(try nav.request(.open(session: "nav")).error == nil)
    #expect(
      try nav.request(
        .command(
          .input(
            .setCategory(
              session: "nav", category: .playback, mode: .voicePrompt,
              options: [.duckOthers, .interruptSpokenAudioAndMixWithOthers])))
      ).error == nil)
    #expect(
      try nav.request(.command(.input(.setActive(session: "nav", active: true, options: [])))).error
        == nil)
    podcastEvents.wait(for: 1)
    musicEvents.wait(for: 1)
    // When nav's process goes away
    nav.close()
    // Then the podcast is told the interruption ended, without shouldResume, and music unducked
    #expect(
      podcastEvents.wait(for: 2).map(\.event) == [
        .interruptionBegan(reason: .default, by: .session("nav")),
        .interruptionEnded(options: [], by: .session("nav")),
      ])
    // (The secondary-audio hint begins and ends around the playing podcast's interruption.)
    #expect(
      musicEvents.wait(for: 4).map(\.event).filter {
        if case .silenceSecondaryAudioHint = $0 { false } else { true }
      } == [.duck(by: .session("nav")), .unduck])
    let sessions = await daemon.server.core.status().sessions
    #expect(sessions.map(\.name) == ["podcast", "music"])
    #expect(sessions.allSatisfy { !$0.interrupted && !$0.ducked })
    await daemon.stop()
  }

  @Test(
    "sessions named on the command line outlive their connection and anyone may change them (docs/engine.md \"Rules, and where they come from\")"
  )
  func command_namedSession_isHeldUntilRemoved() async throws {
    let daemon = try await DaemonHarness.start()
    let first = try daemon.connect()
    #expect(try first.request(Self.set("podcast", .playback)).error == nil)
    first.close()
    let second = try daemon.connect()
    #expect(
      try second.request(
        .command(.input(.setActive(session: "podcast", active: true, options: [])))
      ).error == nil)
    #expect(await daemon.server.core.owner(of: "podcast") == .daemon)
    let status = try second.request(.command(.status))
    guard case .object(let object)? = status["status"] else {
      Issue.record("no status: \(status)")
      return
    }
    let sessions = try WireDecoding.status(object).sessions
    #expect(sessions.map(\.name) == ["podcast"] && sessions[0].active)
    #expect(try second.request(.command(.input(.removeSession("podcast")))).error == nil)
    #expect(await daemon.server.core.owner(of: "podcast") == nil)
    await daemon.stop()
  }

  @Test(
    "watch routes, interruptions and all get exactly their notifications (docs/contract.md watch)")
  func watch_filters_deliverMatchingNotifications() async throws {
    let daemon = try await DaemonHarness.start()
    var recorders: [DaemonRequest.WatchFilter: NotificationRecorder] = [:]
    var watchers: [DaemonConnection] = []
    for filter in [DaemonRequest.WatchFilter.routes, .interruptions, .all] {
      let recorder = NotificationRecorder()
      let watcher = try daemon.connect(recorder)
      #expect(try watcher.request(.watch(filter)).error == nil)
      recorders[filter] = recorder
      watchers.append(watcher)
    }
    // When music is interrupted by a call and headphones are plugged in
    let actor = try daemon.connect()
    for operation: DaemonRequest.Operation in [
      Self.set("music", .playback),
      .command(.input(.setActive(session: "music", active: true, options: []))),
      .command(.simulate(.plug(preset: "headphones"))), .command(.simulate(.call(active: true))),
    ] {
      #expect(try actor.request(operation).error == nil)
    }
    // Then each watcher saw its kind only, in order
    let all = try #require(recorders[.all]).wait(for: 2).map(\.event)
    #expect(all.count == 2)
    #expect(all.first.map { if case .routeChange = $0 { true } else { false } } == true)
    #expect(all.last == .interruptionBegan(reason: .default, by: .call))
    #expect(try #require(recorders[.interruptions]).wait(for: 1).map(\.event) == [all[1]])
    #expect(try #require(recorders[.routes]).wait(for: 1).map(\.event) == [all[0]])
    await daemon.stop()
  }

  @Test(
    "an oversized message gets messageTooLarge and the connection carries on unchanged (docs/protocol.md Framing)"
  )
  func receive_oversizedMessage_isRefusedAndConnectionContinues() async throws {
    let daemon = try await DaemonHarness.start()
    let client = try RawSocketClient(path: daemon.socketPath)
    let huge =
      #"{"v":1,"id":1,"op":"open","session":""#
      + String(repeating: "x", count: 70_000) + #""}"#
    try client.write(line: huge)
    let refused = try #require(client.readLine())
    #expect(
      refused
        == #"{"v":1,"id":null,"result":"error","error":{"code":"messageTooLarge","message":"the message is longer than 65536 bytes and was discarded"}}"#
    )
    let reply = try client.exchange(#"{"v":1,"id":2,"op":"status"}"#)
    #expect(reply["id"] == 2 && reply["result"] == "ok")
    #expect(await daemon.server.core.status().sessions.isEmpty)
    await daemon.stop()
  }

  @Test(
    "a malformed message gets an error reply with its id when it has one (docs/contract.md Bad input)"
  )
  func receive_malformedMessage_repliesWithError() async throws {
    let daemon = try await DaemonHarness.start()
    let client = try RawSocketClient(path: daemon.socketPath)
    let notJSON = try client.exchange("hello there")
    #expect(notJSON["result"] == "error" && notJSON["id"] == .null)
    let unknown = try client.exchange(#"{"v":1,"id":9,"op":"explode"}"#)
    #expect(unknown["id"] == 9)
    guard case .object(let error)? = unknown["error"] else {
      Issue.record("no error: \(unknown)")
      return
    }
    #expect(error["code"] == "unknownOperation")
    let badParam = try client.exchange(
      #"{"v":1,"id":10,"op":"set","session":"m","category":"loud"}"#)
    guard case .object(let paramError)? = badParam["error"] else {
      Issue.record("no error: \(badParam)")
      return
    }
    #expect(paramError["code"] == "badParam" && paramError["rawValue"] == -50)
    #expect(await daemon.server.core.status().sessions.isEmpty)
    await daemon.stop()
  }

  @Test(
    "a second daemon on a live socket refuses; a stale socket is replaced (docs/protocol.md The socket)"
  )
  func start_liveOrStaleSocket_refusesOrReplaces() async throws {
    let daemon = try await DaemonHarness.start()
    let core = try await DaemonCore(
      policy: TestPolicies.policy(), backend: InMemoryAudioBackend(), stateFile: nil,
      identity: DaemonCore.Identity(pid: getpid(), profile: "default"))
    await #expect(throws: DaemonServerError.alreadyRunning(path: daemon.socketPath, pid: getpid()))
    {
      _ = try await DaemonServer.start(core: core, socketPath: daemon.socketPath)
    }
    // A socket file nobody listens on (a daemon that was killed) is replaced.
    let stale = daemon.folder + "/stale.sock"
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    #expect(try UnixSocketAddress(path: stale).bind(fd) == 0)
    close(fd)
    let replacement = try await DaemonServer.start(core: core, socketPath: stale)
    let client = try DaemonConnection(socketPath: stale)
    #expect(try client.request(.command(.status)).error == nil)
    await replacement.stop()
    await daemon.stop()
  }

  @Test(
    "the daemon's sessions come back, configured and inactive, after a restart (docs/protocol.md The state file)"
  )
  func restart_heldSessions_keepTheirConfiguration() async throws {
    let daemon = try await DaemonHarness.start()
    let client = try daemon.connect()
    for operation: DaemonRequest.Operation in [
      .command(
        .input(
          .setCategory(session: "podcast", category: .playback, mode: .spokenAudio, options: []))),
      .command(.input(.setActive(session: "podcast", active: true, options: []))),
      Self.set("nav", .playback, [.duckOthers]), Self.set("gone", .ambient),
      .command(.input(.removeSession("gone"))), .open(session: "app"), Self.set("app", .record),
    ] {
      #expect(try client.request(operation).error == nil)
    }
    await daemon.stop(keepFolder: true)
    let restarted = try await DaemonHarness.start(folder: daemon.folder)
    let sessions = await restarted.server.core.status().sessions
    #expect(sessions.map(\.name) == ["podcast", "nav"])
    #expect(
      sessions.map(\.configuration) == [
        SessionConfiguration(category: .playback, mode: .spokenAudio),
        SessionConfiguration(category: .playback, options: .duckOthers),
      ])
    #expect(sessions.allSatisfy { !$0.active })
    await restarted.stop()
  }
}
