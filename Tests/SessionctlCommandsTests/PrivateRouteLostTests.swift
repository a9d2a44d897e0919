import AudioSession
import AudioSessionScenario
import AudioSessionTestSupport
import Testing

@testable import SessionctlCommands

/// Better than iOS, as a switch (docs/avaudiosession.md §9, item 3: FB7721110; policies/README.md
/// `noResumeAfterPrivateRouteLost`): headphones pulled out during a call, the call ends; iOS says
/// shouldResume and music resumes out loud on the speaker. The `linuxDesktop` profile ends it
/// without shouldResume; `default` keeps iOS's behaviour.
@Suite struct PrivateRouteLostTests {
  /// The `ended` the music session gets at the step `simulate call end`, and its reason.
  static func ended(profile: String, during steps: [String]) async throws -> (String, Because?) {
    let yaml =
      "name: t\nprofile: \(profile)\nsteps:\n"
      + ([
        "simulate plug headphones", "music set playback", "music activate", "music play",
        "simulate call begin",
      ] + steps + ["simulate call end"]).map { "  - \($0)\n" }.joined()
    let scenario = try Scenario(yaml: yaml, file: "t.yaml")
    let plan = try StepParser.plan(scenario, catalog: try TestPolicies.table().devices)
    let entries = try await plan.run(
      policy: try TestPolicies.policy(profile), backend: InMemoryAudioBackend(), explain: true)
    let last = try #require(entries.last)
    let index = try #require(
      last.result.notifications.firstIndex {
        if case .interruptionEnded = $0.event { $0.session == "music" } else { false }
      })
    guard case .interruptionEnded(let options, _) = last.result.notifications[index].event else {
      return ("?", nil)
    }
    return (options.names.joined(separator: ","), last.result.because[index])
  }

  @Test(
    "default: headphones pulled out during the call, the call's end still says shouldResume, as iOS does (avaudiosession §9 item 3)"
  )
  func defaultKeepsIOS() async throws {
    let (options, _) = try await Self.ended(
      profile: "default", during: ["simulate unplug headphones"])
    #expect(options == "shouldResume")
  }

  @Test(
    "linuxDesktop: headphones pulled out during the call, the call ends without shouldResume, and explain names the switch (avaudiosession §9 item 3)"
  )
  func linuxDesktopWithholds() async throws {
    let (options, because) = try await Self.ended(
      profile: "linuxDesktop", during: ["simulate unplug headphones"])
    #expect(options == "")
    #expect(because?.source.switchName == "noResumeAfterPrivateRouteLost")
    #expect(because?.source.path == "profiles.linuxDesktop.switches.noResumeAfterPrivateRouteLost")
  }

  @Test(
    "linuxDesktop: headphones that went and came back, or that were never there, leave shouldResume (avaudiosession §9 item 3)"
  )
  func linuxDesktopOnlyWhenGone() async throws {
    let back = try await Self.ended(
      profile: "linuxDesktop",
      during: ["simulate unplug headphones", "simulate plug headphones"])
    #expect(back.0 == "shouldResume")
    let untouched = try await Self.ended(profile: "linuxDesktop", during: [])
    #expect(untouched.0 == "shouldResume")
  }
}
