import AudioSession
import AudioSessionScenario
import AudioSessionSoak
import AudioSessionTestSupport
import PropertyBased
import Testing

@testable import SessionctlCommands

/// The soak's histories (docs/soak.md "Acts"): whatever the seed, each is a scenario that
/// `sessionctl scenario run` reads, and only what real programs can act out.
@Suite struct SoakHistoryPropertyTests {
  static let seeds = Gen.int(in: 0...1_000_000)
  static let lengths = Gen.int(in: 1...30)

  @Test(
    "every generated history is a scenario the scenario parser accepts, with a heard after each act (docs/soak.md Acts, docs/contract.md Desktop steps)"
  )
  func history_anySeed_isAValidScenario() async throws {
    let catalog = try TestPolicies.table().devices
    await propertyCheck(count: 200, input: Self.seeds, Self.lengths) { seed, length in
      let history = SoakHistoryGenerator().history(
        seed: UInt64(seed), index: seed % 7, steps: length)
      #expect(history.acts.count == length)
      let yaml = history.scenario(name: "soak \(seed)", description: "a \"quoted\" description")
      do {
        let scenario = try Scenario(yaml: yaml, file: "soak.yaml")
        let plan = try StepParser.plan(scenario, catalog: catalog)
        #expect(plan.scenario.steps.count == history.heardSteps.last)
        for step in history.heardSteps {
          #expect(plan.scenario.steps[step - 1].text == "heard")
        }
      } catch {
        Issue.record("seed \(seed): \(error)\n\(yaml)")
      }
    }
  }

  @Test(
    "a history starts only programs that do not run, and stops or commands only those that do, the user's commands only for programs with a player (docs/soak.md Acts)"
  )
  func history_anySeed_actsOnlyWhatRuns() async {
    await propertyCheck(count: 300, input: Self.seeds, Self.lengths) { seed, length in
      let history = SoakHistoryGenerator().history(seed: UInt64(seed), index: 0, steps: length)
      var running: Set<String> = []
      for act in history.acts {
        switch act {
        case .start(let name):
          #expect(!running.contains(name), "\(history.acts)")
          #expect(SoakProgram.named(name) != nil)
          running.insert(name)
        case .stop(let name):
          #expect(running.remove(name) != nil, "\(history.acts)")
        case .userPause(let name), .userPlay(let name):
          #expect(running.contains(name), "\(history.acts)")
          #expect(SoakProgram.named(name)?.hasPlayer == true)
        case .unplugHeadphones, .daemonRestart:
          #expect(!running.isEmpty, "\(history.acts)")
        }
      }
    }
  }

  @Test("the same seed and index give the same history (docs/soak.md Running it)")
  func history_sameSeed_isTheSame() async {
    await propertyCheck(count: 100, input: Self.seeds) { seed in
      let generator = SoakHistoryGenerator()
      #expect(
        generator.history(seed: UInt64(seed), index: 3, steps: 10)
          == generator.history(seed: UInt64(seed), index: 3, steps: 10))
    }
  }
}
