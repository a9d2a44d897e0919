import AudioSession
import AudioSessionPulse
import AudioSessionScenario
import AudioSessionSystem
import AudioSessionTestSupport
import AudioSessionWire
import Foundation
import Testing

@testable import SessionctlCommands

// docs/contract.md "Scenario files" and "sessionctl scenario run FILE [--backend simulated|pulse]
// [--json]": every step is parsed before any runs; a malformed file runs nothing and exits 1.
@Suite struct ScenarioRunTests {
  func run(_ yaml: String, _ options: [String] = ["--json"]) async throws -> CLIFixtures.Outcome {
    let file = try CLIFixtures.temporaryFile(yaml)
    return await CLIFixtures.scenarioRun([file, "--policies", CLIFixtures.policies] + options)
  }

  @Test(
    "a scenario runs every step and exits 0; step errors are part of the transcript (docs/contract.md Scenario files)"
  )
  func run_stepError_isInTranscriptAndExitsZero() async throws {
    let outcome = try await run(
      """
      name: errors are results
      steps:
        - music set ambient --options defaultToSpeaker
        - music activate
      """)
    #expect(outcome.exitCode == 0)
    #expect(outcome.lines.count == 2)
    #expect(
      outcome.lines.first?.hasPrefix(
        #"{"step":1,"command":"music set ambient --options defaultToSpeaker","result":"error","error":{"code":"badParam","rawValue":-50,"message":"#
      )
        == true)
    #expect(outcome.lines.last == #"{"step":2,"command":"music activate","result":"ok"}"#)
  }

  @Test(
    "the same scenario gives a byte-identical transcript every run (docs/contract.md Scenario files)"
  )
  func run_twice_isByteIdentical() async throws {
    let yaml = """
      name: twice
      steps:
        - music set playback
        - music activate
        - music play
        - nav set playback --mode voicePrompt --options duckOthers
        - nav activate
        - simulate plug headphones
        - simulate call begin
        - simulate call end
        - status
      """
    let first = try await run(yaml)
    let second = try await run(yaml)
    #expect(first.exitCode == 0)
    #expect(first.lines.count > 9)
    #expect(first.lines == second.lines)
  }

  @Test(
    "a malformed step runs no step and exits 1 with file:line:column (docs/contract.md Bad input)"
  )
  func run_malformedStep_runsNothing() async throws {
    let file = try CLIFixtures.temporaryFile(
      """
      name: bad
      steps:
        - music set playback
        - music activate
        - music set loud
        - simulate plug earbuds
      """)
    let outcome = await CLIFixtures.scenarioRun([
      file, "--policies", CLIFixtures.policies, "--json",
    ])
    #expect(outcome.lines == [])
    #expect(outcome.exitCode == 1)
    let message = try #require(outcome.message)
    let lines = message.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(
      lines.first
        == "\(file):5:5: step 'music set loud': The value 'loud' is invalid for '<category>'. Please provide one of the following:"
    )
    #expect(
      lines.last?.hasPrefix(
        "\(file):6:5: step 'simulate plug earbuds': unknown device preset 'earbuds'; valid presets are: "
      ) == true)
  }

  @Test("a malformed file exits 1 with file:line:column (docs/contract.md Bad input)")
  func run_malformedFile_exitsOne() async throws {
    let file = try CLIFixtures.temporaryFile("name: bad\nsteps: []\n")
    let outcome = await CLIFixtures.scenarioRun([file, "--policies", CLIFixtures.policies])
    #expect(outcome.lines == [])
    #expect(outcome.exitCode == 1)
    #expect(
      outcome.message
        == "\(file):2:8: expected 'steps' to be a non-empty list of sessionctl command lines, found an empty list"
    )
  }

  @Test("an unknown device in devices: is reported at its line (docs/contract.md Scenario files)")
  func run_unknownDevice_exitsOne() async throws {
    let file = try CLIFixtures.temporaryFile(
      "name: n\ndevices: [builtInSpeaker, jack]\nsteps: [status]\n")
    let outcome = await CLIFixtures.scenarioRun([file, "--policies", CLIFixtures.policies])
    #expect(outcome.exitCode == 1)
    #expect(
      outcome.message?.hasPrefix("\(file):2:27: unknown device preset 'jack'; valid presets are: ")
        == true)
  }

  @Test("a missing file says so and exits 1 (docs/contract.md Bad input)")
  func run_missingFile_exitsOne() async {
    let outcome = await CLIFixtures.scenarioRun([
      "/nonexistent/s.yaml", "--policies", CLIFixtures.policies,
    ])
    #expect(outcome.exitCode == 1)
    #expect(
      outcome.message
        == "cannot read the scenario file '/nonexistent/s.yaml': it does not exist or is not readable"
    )
  }

  @Test(
    "--spawn-server without --backend pulse is a usage error that says what to add (docs/contract.md scenario run)"
  )
  func run_spawnServerWithoutPulse_isRejected() async throws {
    let outcome = try await run("name: n\nsteps: [status]\n", ["--spawn-server"])
    #expect(outcome.lines == [])
    #expect(outcome.exitCode == 64)  // EX_USAGE: ArgumentParser's validation failure
    #expect(
      outcome.message
        == "--spawn-server starts a server for the PulseAudio backend; add --backend pulse")
  }

  @Test("an unknown profile in the file is reported at its line (docs/contract.md Policies)")
  func run_unknownFileProfile_isReportedAtItsLine() async throws {
    let file = try CLIFixtures.temporaryFile("name: n\nprofile: nope\nsteps: [status]\n")
    let outcome = await CLIFixtures.scenarioRun([file, "--policies", CLIFixtures.policies])
    #expect(outcome.exitCode == 1)
    #expect(
      outcome.message?.hasPrefix("\(file):2:10: unknown profile 'nope'; valid profiles are: ")
        == true)
  }

  @Test("--profile overrides the file's profile (docs/contract.md Policies)")
  func run_profileOption_overridesFile() async throws {
    let outcome = try await run(
      "name: n\nprofile: nope\nsteps: [status]\n", ["--json", "--profile", "default"])
    #expect(outcome.exitCode == 0)
    let unknown = try await run("name: n\nsteps: [status]\n", ["--profile", "nope"])
    #expect(unknown.exitCode == 1)
    #expect(unknown.message?.hasPrefix("unknown profile 'nope'; valid profiles are: ") == true)
  }

  @Test("text output has a header and one aligned line per step (docs/contract.md The transcript)")
  func run_text_isAlignedForPeople() async throws {
    let file = try CLIFixtures.temporaryFile(
      "name: text\ndescription: d\nsteps:\n  - music set playback\n  - music activate\n")
    let outcome = await CLIFixtures.scenarioRun([file, "--policies", CLIFixtures.policies])
    #expect(outcome.exitCode == 0)
    #expect(
      outcome.lines == [
        "Scenario: text", "  d", "  (\(file))", "",
        "1  music set playback  ok",
        "2  music activate      ok",
        "",
        "2 steps, no errors",
      ])
  }

  @Test("a JSON scenario file runs like YAML (docs/contract.md Scenario files: JSON accepted)")
  func run_jsonFile_runs() async throws {
    let outcome = try await run(#"{"name": "j", "steps": ["music activate", "music route"]}"#)
    #expect(outcome.exitCode == 0)
    #expect(outcome.lines.first == #"{"step":1,"command":"music activate","result":"ok"}"#)
    #expect(outcome.lines.count == 2)
  }
}
