import AudioSession
import AudioSessionHostTestSupport
import AudioSessionSystem
import AudioSessionTestSupport
import AudioSessionWire
import Foundation
import Synchronization
import Testing

@testable import AudioSessionHost

/// The simulated backend, plus other programs' streams fed by the test and the assignments the
/// host makes.
final class StreamingBackend: AudioBackend, @unchecked Sendable {
  let inner = InMemoryAudioBackend()
  let assignments = Mutex<[StreamAssignment]>([])
  var name: String { inner.name }

  func start(catalog: DeviceCatalog, initialDevices: [String]) async throws(SessionError)
    -> [Device]
  {
    try await inner.start(catalog: catalog, initialDevices: initialDevices)
  }
  func perform(_ action: SimulationAction) async throws(SessionError) -> [EngineInput] {
    try await inner.perform(action)
  }
  func apply(_ notifications: [SessionNotification], status: EngineStatus) async {
    await inner.apply(notifications, status: status)
  }
  func stop() async { await inner.stop() }
  func assign(_ assignment: StreamAssignment) async {
    assignments.withLock { $0.append(assignment) }
  }
}

// docs/apps.md: app sessions arbitrated by the daemon like any session. The programs' process
// ids are above Linux's largest (PID_MAX_LIMIT, 4,194,304): the daemon names an app session after
// its process group, read from /proc, and a small made-up id (777) was a real process of a busy
// test run often enough to rename the session.
@Suite struct AppSessionHostTests {
  static func stream(_ index: UInt32, pid: String, role: String?, corked: Bool = false)
    -> ServerStream
  {
    var properties = ["application.process.id": pid, "application.process.binary": "mpv"]
    properties["media.role"] = role
    return ServerStream(
      key: .init(.playback, index), properties: properties, clientIndex: 3, isCorked: corked)
  }

  func core(_ backend: StreamingBackend) async throws -> DaemonCore {
    try await DaemonCore(
      policy: TestPolicies.policy(), backend: backend, stateFile: nil,
      identity: DaemonCore.Identity(pid: getpid(), profile: "default"))
  }

  func run(_ core: DaemonCore, _ command: Command, as id: ConnectionID) async -> DaemonReply {
    await core.perform(DaemonRequest(id: 1, .command(command)), from: id)
  }

  @Test(
    "a playing app interrupts a non-mixable session, is owned by no client, and its end lets it resume (docs/apps.md)"
  )
  func appInterruptsAndEnds() async throws {
    let backend = StreamingBackend()
    let core = try await core(backend)
    let peer = RecordingPeer()
    let id = await core.connect(peer)
    for command: Command in [
      .input(
        .setCategory(session: "podcast", category: .playback, mode: .spokenAudio, options: [])),
      .input(.setActive(session: "podcast", active: true, options: [])),
      .input(.startIO(session: "podcast")),
    ] {
      #expect(await run(core, command, as: id).error == nil)
    }
    _ = await core.perform(DaemonRequest(id: 2, .watch(.all)), from: id)

    await core.streamsChanged(.updated(Self.stream(5, pid: "5004242", role: "music")))
    var status = await core.status()
    let app = try #require(status.sessions.first { $0.name == "mpv.5004242" })
    #expect(app.active && app.playing && app.configuration.category == .playback)
    #expect(status.sessions.first { $0.name == "podcast" }?.interrupted == true)
    #expect(await core.owner(of: "mpv.5004242") == .app(pid: 5004242))
    // status --json says whose each session is and what its app reads of the others.
    let reply = await run(core, .status, as: id).json.serialized
    #expect(
      reply.contains(
        #""owner":"cli","otherAudioPlaying":true,"secondaryAudioShouldBeSilencedHint":true"#),
      "\(reply)")
    #expect(
      reply.contains(
        #""owner":"app","pid":5004242,"application":null,"players":[],"otherAudioPlaying":false,"secondaryAudioShouldBeSilencedHint":false"#
      ), "\(reply)")
    #expect(
      backend.assignments.withLock { $0.last }
        == StreamAssignment([.init(.playback, 5): "mpv.5004242"]))
    // A client may not drive a program's session.
    let refused = await run(core, .input(.stopIO(session: "mpv.5004242")), as: id)
    #expect(
      refused.error.map { "\($0)" }?.contains("belongs to a program on the media server") == true)

    // The program pauses: its session deactivates with notifyOthers, and the podcast may resume.
    await core.streamsChanged(.updated(Self.stream(5, pid: "5004242", role: "music", corked: true)))
    status = await core.status()
    #expect(status.sessions.first { $0.name == "mpv.5004242" }?.active == false)
    let told = peer.lines.withLock { $0 }.filter { $0.contains("\"podcast\"") }
    #expect(
      told.contains { $0.contains("\"type\":\"ended\"") && $0.contains("shouldResume") }, "\(told)")
    // It quits: the session goes.
    await core.streamsChanged(.removed(.init(.playback, 5)))
    #expect(await core.status().sessions.map(\.name) == ["podcast"])
    #expect(backend.assignments.withLock { $0.last } == StreamAssignment())
    await core.shutdown()
  }

  @Test(
    "a followed session (sessionctl run's) is owner run and lives with its tagged streams (docs/apps.md)"
  )
  func followedSession() async throws {
    let backend = StreamingBackend()
    let core = try await core(backend)
    let id = await core.connect(
      RecordingPeer(), credentials: PeerCredentials(pid: 5000555, uid: getuid(), gid: getgid()))
    _ = await core.perform(DaemonRequest(id: 1, .hello(client: "mpv")), from: id)
    #expect(
      await core.perform(DaemonRequest(id: 2, .follow(session: "film")), from: id).error == nil)
    #expect(
      await run(
        core,
        .input(
          .setCategory(session: "film", category: .playback, mode: .moviePlayback, options: [])),
        as: id
      ).error == nil)
    var tagged = ServerStream(
      key: .init(.playback, 4), properties: ["audiosession.session": "film"], isCorked: false)
    await core.streamsChanged(.updated(tagged))
    var film = try #require(await core.status().sessions.first { $0.name == "film" })
    #expect(film.active && film.playing)
    let reply = await run(core, .status, as: id).json.serialized
    #expect(reply.contains(#""owner":"run","pid":5000555,"application":"mpv""#), "\(reply)")
    tagged.isCorked = true
    await core.streamsChanged(.updated(tagged))
    film = try #require(await core.status().sessions.first { $0.name == "film" })
    #expect(!film.active)
    await core.disconnect(id)
    #expect(await core.status().sessions.isEmpty)
    await core.shutdown()
  }

  @Test("a library client's own streams join its session, not an app session (docs/apps.md)")
  func clientOwnsItsStreams() async throws {
    let backend = StreamingBackend()
    let core = try await core(backend)
    let id = await core.connect(
      RecordingPeer(), credentials: PeerCredentials(pid: 5000777, uid: getuid(), gid: getgid()))
    await core.streamsChanged(.updated(Self.stream(9, pid: "5000777", role: nil)))
    #expect(await core.status().sessions.map(\.name) == ["mpv.5000777"])
    _ = await core.perform(DaemonRequest(id: 3, .open(session: "player")), from: id)
    #expect(await core.status().sessions.map(\.name) == ["player"])
    let reply = await core.perform(DaemonRequest(id: 4, .command(.status)), from: id).json
    #expect(reply.serialized.contains(#""owner":"client","pid":5000777,"application":null"#))
    #expect(
      backend.assignments.withLock { $0.last } == StreamAssignment([.init(.playback, 9): "player"]))
    await core.shutdown()
  }

  @Test(
    "an app session whose interruption ends resumes, and the next call interrupts it again (docs/apps.md)"
  )
  func appResumesAfterInterruption() async throws {
    let backend = StreamingBackend()
    let core = try await core(backend)
    await core.streamsChanged(.updated(Self.stream(5, pid: "5004242", role: "music")))
    for round in 0..<2 {
      await core.streamsChanged(.updated(Self.stream(6, pid: "5151", role: "phone")))
      var status = await core.status()
      #expect(
        status.sessions.first { $0.name == "mpv.5004242" }?.interrupted == true, "round \(round)")
      await core.streamsChanged(.removed(.init(.playback, 6)))
      // The program never stopped: its session is active and playing again, so that the next
      // call is arbitrated against it.
      var resumed = false
      for _ in 0..<200 where !resumed {
        status = await core.status()
        let app = status.sessions.first { $0.name == "mpv.5004242" }
        resumed = app?.active == true && app?.playing == true && app?.interrupted == false
        if !resumed { try await Task.sleep(for: .milliseconds(10)) }
      }
      #expect(resumed, "round \(round): \(status.sessions)")
    }
    await core.shutdown()
  }

  /// A core on the test policies, with `adjust` applied to the default profile's switches.
  func core(
    _ backend: StreamingBackend, adjust: (inout ProfileSwitches) -> Void
  ) async throws -> DaemonCore {
    var table = try TestPolicies.table()
    if var chosen = table.profiles[table.defaultProfile] {
      adjust(&chosen.switches)
      table.profiles[table.defaultProfile] = chosen
    }
    return try await DaemonCore(
      policy: Policy(table: table), backend: backend, stateFile: nil,
      identity: DaemonCore.Identity(pid: getpid(), profile: "default"))
  }

  @Test(
    "an app session left interrupted, or whose interruption ends without shouldResume, stays paused until its program plays again (docs/apps.md; docs/avaudiosession.md §12 endedWithoutNotifyOthers)",
    arguments: [false, true])
  func appStaysPausedWithoutShouldResume(endedWithoutNotifyOthers: Bool) async throws {
    let backend = StreamingBackend()
    let core = try await core(backend) { $0.endedWithoutNotifyOthers = endedWithoutNotifyOthers }
    let id = await core.connect(RecordingPeer())
    await core.streamsChanged(.updated(Self.stream(5, pid: "5004242", role: "music")))
    for command: Command in [
      .input(
        .setCategory(session: "podcast", category: .playback, mode: .spokenAudio, options: [])),
      .input(.setActive(session: "podcast", active: true, options: [])),
      .input(.startIO(session: "podcast")), .input(.stopIO(session: "podcast")),
      .input(.setActive(session: "podcast", active: false, options: [])),
    ] {
      #expect(await run(core, command, as: id).error == nil, "\(command)")
    }
    try await Task.sleep(for: .milliseconds(100))
    var app = try #require(await core.status().sessions.first { $0.name == "mpv.5004242" })
    // Without notifyOthers: no `ended` (it stays interrupted), or, with the switch, `ended`
    // without shouldResume; either way it is not resumed.
    #expect(app.interrupted == !endedWithoutNotifyOthers && !app.active && !app.playing, "\(app)")
    // The user pauses the player and plays it again: it starts anew.
    await core.streamsChanged(.updated(Self.stream(5, pid: "5004242", role: "music", corked: true)))
    await core.streamsChanged(.updated(Self.stream(5, pid: "5004242", role: "music")))
    app = try #require(await core.status().sessions.first { $0.name == "mpv.5004242" })
    #expect(app.active && app.playing && !app.interrupted, "\(app)")
    await core.shutdown()
  }
}
