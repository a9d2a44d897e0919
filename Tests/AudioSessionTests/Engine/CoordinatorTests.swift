import AudioSessionSystem
import AudioSessionWire
import Testing

@testable import AudioSession
@testable import AudioSessionScenario

/// The coordinator: sessions on first mention, commands to engine inputs, replies (docs/contract.md
/// "Scenario files": sessions are created on first mention; each step runs to completion).
@Suite struct CoordinatorTests {
  static func coordinator() async throws -> SessionCoordinator {
    try await SessionCoordinator(
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
    _ = await coordinator.run(.set(session: "music", category: .playback, mode: nil, options: []))
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
      .set(session: "game", category: .ambient, mode: nil, options: .defaultToSpeaker))
    #expect(result.error?.code == .badParam)
    #expect(
      result.error?.message
        == "category option 'defaultToSpeaker' is only applicable with category 'playAndRecord'")
    let after = await coordinator.status()
    #expect(after.sessions.map(\.configuration) == [.initial])
    #expect(before.devices == after.devices)
  }

  @Test("remove of an unknown session is an error, not a creation (issue 4 ownership)")
  func run_removeUnknown_isError() async throws {
    let coordinator = try await Self.coordinator()
    let result = await coordinator.run(.remove(session: "ghost"))
    #expect(result.error?.code == .expiredSession)
    #expect(await coordinator.status().sessions.isEmpty)
  }
}
