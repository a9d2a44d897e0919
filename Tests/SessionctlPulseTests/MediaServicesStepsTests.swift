import AudioSession
import AudioSessionArbiter
import AudioSessionPulse
import AudioSessionPulseTestSupport
import AudioSessionScenario
import AudioSessionTestSupport
import Testing

@testable import SessionctlCommands

/// Media services lost and reset as two steps (docs/avaudiosession.md §6.4):
/// `simulate media-services lost`, then `reset`; between them every command that changes a
/// session fails with mediaServicesFailed, while status answers.
@Suite struct MediaServicesStepsTests {
  static func run(_ steps: [String]) async throws -> [TranscriptEntry] {
    let yaml = "name: t\nsteps:\n" + steps.map { "  - \($0)\n" }.joined()
    let scenario = try Scenario(yaml: yaml, file: "t.yaml")
    let plan = try StepParser.plan(scenario, catalog: try TestPolicies.table().devices)
    return try await plan.run(policy: try TestPolicies.policy(), backend: InMemoryAudioBackend())
  }

  @Test(
    "lost, then reset: commands in between fail with mediaServicesFailed, status answers, and reset brings the sessions back unconfigured (§6.4)"
  )
  func twoSteps() async throws {
    let entries = try await Self.run([
      "music set playback", "music activate", "simulate media-services lost", "music activate",
      "status", "simulate media-services lost", "simulate media-services reset", "status",
      "music set playback", "simulate media-services reset",
    ])
    let errors = entries.map { $0.result.error?.code }
    #expect(
      errors == [
        nil, nil, nil, .mediaServicesFailed, nil, .badParam, nil, nil, nil, .badParam,
      ])
    #expect(entries[2].result.notifications.map(\.event) == [.mediaServicesWereLost])
    #expect(entries[6].result.notifications.map(\.event) == [.mediaServicesWereReset])
    guard case .status(let during)? = entries[4].result.reply,
      case .status(let after)? = entries[7].result.reply
    else {
      Issue.record("status did not answer")
      return
    }
    #expect(during.mediaServicesAvailable == false)
    #expect(after.mediaServicesAvailable == true)
    #expect(after.sessions.first?.configuration == .initial)
    #expect(after.sessions.first?.active == false)
    #expect(entries[5].result.error?.message.contains("already lost") == true)
    #expect(entries[9].result.error?.message.contains("are not lost") == true)
  }

  @Test("on a PulseAudio server the two steps are refused, pointing at server-restart (§6.4)")
  func refusedOnPulse() async throws {
    try await withPulseBackend { backend, coordinator in
      let result = await coordinator.run(.simulate(.mediaServices(lost: true)))
      #expect(result.error?.code == .badParam)
      #expect(result.error?.message.contains("'simulate server-restart'") == true)
      #expect(result.notifications.isEmpty)
    }
  }
}
