import AudioSessionArbiter
import AudioSessionTestSupport
import AudioSessionWire
import Testing

@testable import AudioSession

/// The arbiter driven by a scenario's shell: sessions on first mention, commands to engine inputs, replies (docs/contract.md
/// "Scenario files": sessions are created on first mention; each step runs to completion).
@Suite struct ArbiterDriverTests {
  static func coordinator() async throws -> ArbiterDriver {
    try await ArbiterDriver(
      policy: TestPolicies.policy(), backend: InMemoryAudioBackend(), devices: nil)
  }

  @Test(
    "A session named for the first time exists with the default configuration (docs/contract.md)")
  func run_firstMention_createsDefaultSession() async throws {
    let coordinator = try await Self.coordinator()
    let result = await coordinator.run(.route(session: "music"))
    #expect(result.error == nil)
    guard case .route(let name, let route)? = result.reply else {
      Issue.record("no route reply: \(String(describing: result.reply))")
      return
    }
    #expect(name == "music" && route.outputs.map(\.portType) == [.builtInSpeaker])
    let status = await coordinator.status()
    #expect(status.sessions.map(\.configuration) == [.initial])
  }

  @Test(
    "A simulate step runs every input it caused and returns the notifications in order (docs/avaudiosession.md §6.2)"
  )
  func run_simulatePlug_returnsRouteChange() async throws {
    let coordinator = try await Self.coordinator()
    _ = await coordinator.run(
      .input(.setCategory(session: "music", category: .playback, mode: nil, options: [])))
    let result = await coordinator.run(.simulate(.plug(preset: "headphones")))
    #expect(result.error == nil)
    #expect(result.notifications.map(\.session) == ["music"])
    if case .routeChange(let reason, _, let current)? = result.notifications.first?.event {
      #expect(reason == .newDeviceAvailable)
      #expect(current.outputs.map(\.uid) == ["headphones-1"])
    } else {
      Issue.record("expected a route change: \(result.notifications)")
    }
  }

  @Test("A failed command reports its error and changes nothing (docs/contract.md bad input)")
  func run_invalidOption_reportsBadParam() async throws {
    let coordinator = try await Self.coordinator()
    let before = await coordinator.status()
    let result = await coordinator.run(
      .input(
        .setCategory(session: "game", category: .ambient, mode: nil, options: .defaultToSpeaker)))
    #expect(result.error?.code == .badParam)
    #expect(
      result.error?.message
        == "category option 'defaultToSpeaker' is only applicable with category 'playAndRecord'")
    let after = await coordinator.status()
    #expect(after.sessions.map(\.configuration) == [.initial])
    #expect(before.devices == after.devices)
  }

  @Test(
    "remove of an unknown session is an error, not a creation (docs/protocol.md Sessions, owners and lifetime)"
  )
  func run_removeUnknown_isError() async throws {
    let coordinator = try await Self.coordinator()
    let result = await coordinator.run(.input(.removeSession("ghost")))
    #expect(result.error?.code == .expiredSession)
    #expect(await coordinator.status().sessions.isEmpty)
  }

  @Test(
    "A command's result tells the named session as it stands after, and whether the command made it: the daemon asks nothing more (docs/modules.md Two paths)"
  )
  func run_result_carriesSessionAfterAndCreation() async throws {
    let coordinator = try await Self.coordinator()
    let set = Command.input(
      .setCategory(session: "nav", category: .playback, mode: .voicePrompt, options: .duckOthers))
    let first = await coordinator.run(set, firstMention: .createsOnSuccess)
    #expect(first.error == nil && first.createdSession)
    #expect(first.session == (await coordinator.session(named: "nav")))
    #expect(first.session?.configuration.options == .duckOthers)
    let again = await coordinator.run(
      .input(.setActive(session: "nav", active: true, options: [])), firstMention: .createsOnSuccess
    )
    #expect(!again.createdSession && again.session?.active == true)
    // A failed first mention leaves no session, and says it made none.
    let refused = await coordinator.run(
      .input(
        .setCategory(session: "game", category: .ambient, mode: nil, options: .defaultToSpeaker)),
      firstMention: .createsOnSuccess)
    #expect(refused.error?.code == .badParam)
    #expect(refused.session == nil && !refused.createdSession)
    #expect(await coordinator.session(named: "game") == nil)
    // Removed: none after it.
    let removed = await coordinator.run(.input(.removeSession("nav")))
    #expect(removed.error == nil && removed.session == nil && !removed.createdSession)
    // A command about no session tells none; a scenario's first mention is a creation too.
    #expect(await coordinator.run(.status).session == nil)
    let route = await coordinator.run(.route(session: "music"))
    #expect(route.createdSession && route.session?.name == "music")
  }
}
