import AudioSession
import AudioSessionHost
import AudioSessionHostTestSupport
import AudioSessionTestSupport
import AudioSessionWire
import Foundation
import Testing

/// `explain` on the live daemon (docs/contract.md "Seeing why", docs/protocol.md "Operations"):
/// each session's last decisions, with the rule behind each, bounded per session and forgotten
/// with the session.
@Suite struct ExplainDaemonTests {
  static func core() async throws -> DaemonCore {
    try await DaemonCore(
      policy: TestPolicies.policy(), backend: InMemoryAudioBackend(), stateFile: nil,
      identity: DaemonCore.Identity(pid: getpid(), profile: "default"))
  }

  @discardableResult
  static func run(_ core: DaemonCore, _ command: Command, as id: ConnectionID) async
    -> DaemonReply
  {
    await core.perform(DaemonRequest(id: 1, .command(command)), from: id)
  }

  /// Music playback, active; a navigation prompt that ducks others, configured, inactive.
  static func musicAndNav(_ core: DaemonCore, as id: ConnectionID) async {
    await run(
      core, .input(.setCategory(session: "music", category: .playback, mode: nil, options: [])),
      as: id)
    await run(core, .input(.setActive(session: "music", active: true, options: [])), as: id)
    await run(
      core,
      .input(
        .setCategory(session: "nav", category: .playback, mode: .voicePrompt, options: .duckOthers)),
      as: id)
  }

  /// The `explain` reply's decisions, serialised.
  static func explain(_ core: DaemonCore, _ session: String?, as id: ConnectionID) async throws
    -> [String]
  {
    let reply = await core.perform(DaemonRequest(id: 2, .explain(session: session)), from: id)
    #expect(reply.error == nil, "\(String(describing: reply.error))")
    guard case .array(let items)? = reply.body.first(where: { $0.key == "decisions" })?.value
    else { return [] }
    return items.map(\.serialized)
  }

  @Test(
    "a session's last decisions, oldest first, each with its rule and trigger; every session's without --session (docs/contract.md Seeing why)"
  )
  func decisions() async throws {
    let core = try await Self.core()
    let id = await core.connect(RecordingPeer())
    await Self.run(
      core, .input(.setCategory(session: "voip", category: .playAndRecord, mode: nil, options: [])),
      as: id)
    await Self.musicAndNav(core, as: id)
    await Self.run(core, .input(.setActive(session: "nav", active: true, options: [])), as: id)
    await Self.run(core, .simulate(.call(active: true)), as: id)
    #expect(
      try await Self.explain(core, "music", as: id) == [
        #"{"session":"music","event":"duck","by":"nav","because":{"policy":"interactions.json","path":"rules[2]","profile":"default","switch":null,"trigger":"nav activate"}}"#,
        #"{"session":"music","event":"interruption","type":"began","reason":"default","by":"call","because":{"policy":null,"path":null,"profile":"default","switch":null,"trigger":"simulate call begin","spec":"docs/avaudiosession.md §5.1 A4"}}"#,
        #"{"session":"music","event":"unduck","because":{"policy":"interactions.json","path":"rules[2]","profile":"default","switch":null,"trigger":"simulate call begin"}}"#,
      ])
    let all = try await Self.explain(core, nil, as: id)
    #expect(all.count == 5)
    // nav speaks voice prompts: the call makes its promptStyle short (§13.5).
    #expect(all.filter { $0.contains(#""session":"nav""#) }.count == 2)
    #expect(
      all.last?.hasPrefix(
        #"{"session":"nav","event":"promptStyle","style":"short","because":{"policy":"interactions.json","path":"promptStyle""#
      ) == true, "\(all)")

    // A refused call is a decision too.
    #expect(try await Self.explain(core, "voip", as: id).isEmpty)
    await Self.run(core, .input(.setActive(session: "voip", active: true, options: [])), as: id)
    #expect(
      try await Self.explain(core, "voip", as: id).last?.hasPrefix(
        #"{"session":"voip","error":{"code":"insufficientPriority""#) == true)
    #expect(
      try await Self.explain(core, "voip", as: id).last?.contains(
        #""because":{"policy":"interactions.json","path":"call.blocksActivation","profile":"default","switch":null,"trigger":"voip activate"}"#
      )
        == true)
    await core.shutdown()
  }

  @Test(
    "the history keeps the last 16 decisions per session and forgets a removed session (docs/contract.md Seeing why)"
  )
  func bounded() async throws {
    let core = try await Self.core()
    let id = await core.connect(RecordingPeer())
    await Self.musicAndNav(core, as: id)
    for _ in 0..<20 {
      await Self.run(core, .input(.setActive(session: "nav", active: true, options: [])), as: id)
      await Self.run(core, .input(.setActive(session: "nav", active: false, options: [])), as: id)
    }
    let music = try await Self.explain(core, "music", as: id)
    #expect(music.count == DaemonCore.historyLimit)
    #expect(music.last?.contains(#""event":"unduck""#) == true)
    #expect(music.last?.contains(#""trigger":"nav deactivate""#) == true)
    await Self.run(core, .input(.removeSession("music")), as: id)
    let reply = await core.perform(DaemonRequest(id: 3, .explain(session: "music")), from: id)
    #expect(reply.error?.description.contains("no session named 'music'") == true)
    #expect(
      try await Self.explain(core, nil, as: id).allSatisfy { !$0.contains(#""session":"music""#) })
    await core.shutdown()
  }

  @Test(
    "explain on the wire: with and without a session, read back the same; a bad session name is refused (docs/protocol.md)"
  )
  func wire() throws {
    for operation in [DaemonRequest.Operation.explain(session: "music"), .explain(session: nil)] {
      let request = DaemonRequest(id: 4, operation)
      #expect(try DaemonRequest(message: Array(request.json.serialized.utf8)) == request)
    }
    #expect(
      DaemonRequest(id: 5, .explain(session: nil)).json.serialized
        == #"{"v":1,"id":5,"op":"explain"}"#)
    #expect(throws: (any Error).self) {
      try DaemonRequest(message: Array(#"{"v":1,"op":"explain","session":""}"#.utf8))
    }
  }

  @Test(
    "sessionctl explain prints each decision and its reason; --json one object per line (docs/contract.md Seeing why)"
  )
  func command() throws {
    let folder = try TemporaryFolder.make()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let socket = folder + "/d.sock"
    let daemon = try SessionctlProcess.startDaemon(socketPath: socket)
    defer {
      daemon.terminate()
      daemon.waitUntilExit()
    }
    for arguments in [
      ["set", "playback", "--session", "music"], ["activate", "--session", "music"],
      ["set", "playback", "--mode", "voicePrompt", "--options", "duckOthers", "--session", "nav"],
      ["activate", "--session", "nav"],
    ] {
      #expect(try SessionctlProcess.run(arguments + ["--socket", socket]).status == 0)
    }
    let text = try SessionctlProcess.run(["explain", "--session", "music", "--socket", socket])
    #expect(text.status == 0, "\(text.error)")
    #expect(
      text.lines == [
        "music  duck (by: nav)",
        "         because interactions.json rules[2] (profile default) ← nav activate",
      ])
    let json = try SessionctlProcess.run(["explain", "--json", "--socket", socket])
    #expect(json.lines.count == 1)
    #expect(json.lines.allSatisfy { $0.hasPrefix("{") && $0.contains(#""because":{"#) })
    let missing = try SessionctlProcess.run(["explain", "--session", "nobody", "--socket", socket])
    #expect(missing.status != 0)
    #expect(missing.error.contains("no session named 'nobody'"))
  }
}
