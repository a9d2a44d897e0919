import AudioSession
import AudioSessionHostTestSupport
import AudioSessionSystem
import AudioSessionTestSupport
import AudioSessionWire
import Foundation
import Synchronization
import Testing

@testable import AudioSessionHost

#if canImport(Glibc)
  import Glibc
#endif

/// The media players the daemon is told of, and the commands it sends them, kept in memory.
final class RecordingPlayers: MediaPlayerControl, @unchecked Sendable {
  struct Sent: Hashable {
    var command: PlayerAction.Command
    var player: String
  }

  let events: AsyncStream<MediaPlayerEvent>
  private let continuation: AsyncStream<MediaPlayerEvent>.Continuation
  let sent = Mutex<[Sent]>([])

  init() {
    (events, continuation) = AsyncStream.makeStream()
  }

  func start() {}
  func send(_ command: PlayerAction.Command, to player: String) {
    sent.withLock { $0.append(Sent(command: command, player: player)) }
  }
  func stop() { continuation.finish() }
}

/// A library client's process serves its own MPRIS player (docs/ios-compat.md "MediaPlayer over
/// MPRIS"); the daemon pauses other programs' players (docs/mpris.md "What the daemon does"),
/// never the client's: its app is told of the interruption and pauses itself.
@Suite struct ClientPlayerHostTests {
  @Test(
    "a call pauses the player of a library client's child program, never the client's own player (docs/mpris.md \"What the daemon does\"; docs/ios-compat.md \"MediaPlayer over MPRIS\")"
  )
  func call_childOfLibraryClient_pausesOnlyTheChildsPlayer() async throws {
    let players = RecordingPlayers()
    let core = try await DaemonCore(
      policy: TestPolicies.policy(), backend: StreamingBackend(), stateFile: nil,
      identity: DaemonCore.Identity(pid: getpid(), profile: "default"), players: players)
    // This test's process is the library client (as an app's is), and plays through a program
    // it started: the program's stream is an app session, and the client is its parent.
    let id = await core.connect(
      RecordingPeer(), credentials: PeerCredentials(pid: getpid(), uid: getuid(), gid: getgid()))
    #expect(
      await core.perform(DaemonRequest(id: 1, .open(session: "radio")), from: id).error == nil)
    let child = try ChildProcess.spawn("/bin/sleep", arguments: ["60"])
    defer { child.end(SIGTERM) }
    #expect(ProcessAncestry.lineage(of: child.pid).contains(getpid()))
    await core.streamsChanged(
      .updated(AppSessionHostTests.stream(5, pid: "\(child.pid)", role: "music")))
    let app = try #require(await core.status().sessions.first { $0.name.hasPrefix("mpv.") })
    #expect(app.active && app.playing)

    let own = "org.mpris.MediaPlayer2.AudioSessionPackageTests.instance\(getpid())"
    let childs = "org.mpris.MediaPlayer2.mpv.instance\(child.pid)"
    await core.playersChanged(
      .snapshot([
        MediaPlayer(bus: own, pid: getpid(), status: .playing),
        MediaPlayer(bus: childs, pid: child.pid, status: .playing),
      ]))
    // status --json lists the app session's players: the child's only.
    let reply = await core.perform(DaemonRequest(id: 2, .command(.status)), from: id).json
    #expect(
      Self.players(of: app.name, in: reply.serialized)
        == #"[{"bus":"\#(childs)","pid":\#(child.pid),"playbackStatus":"Playing"}]"#)

    let call = await core.perform(
      DaemonRequest(id: 3, .command(.simulate(.call(active: true)))), from: id)
    #expect(call.error == nil)
    #expect(
      await core.status().sessions.first { $0.name == app.name }?.interrupted == true)
    #expect(players.sent.withLock { $0 } == [.init(command: .pause, player: childs)])
    await core.shutdown()
  }

  /// A session's `"players"` array in a serialized status.
  static func players(of session: String, in status: String) -> Substring? {
    guard let start = status.range(of: "\"\(session)\":{"),
      let list = status.range(of: #""players":["#, range: start.upperBound..<status.endIndex),
      let end = status.range(of: "]", range: list.upperBound..<status.endIndex)
    else { return nil }
    return status[status.index(before: list.upperBound)..<end.upperBound]
  }
}
