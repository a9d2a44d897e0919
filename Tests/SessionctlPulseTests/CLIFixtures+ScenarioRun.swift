import ArgumentParser
import AudioSessionTestSupport
import Foundation
import SessionctlPulse
import Testing

@testable import SessionctlCommands

/// In-process runs of `sessionctl scenario run` and `policy check`, with the PulseAudio backend
/// as the daemon program gives it (`LivePulseSupport`).
extension CLIFixtures {
  /// What an in-process `sessionctl ARGUMENTS` printed, or the error it ended with.
  struct Outcome {
    var lines: [String]
    var error: (any Error)?

    /// ArgumentParser's exit code for the run.
    var exitCode: Int32 { error.map { Sessionctl.exitCode(for: $0).rawValue } ?? 0 }
    /// What ArgumentParser prints after "Error: ".
    var message: String? { error.map { Sessionctl.message(for: $0) } }
  }

  /// Parses `arguments` as the command line and runs `scenario run` in-process.
  static func scenarioRun(_ arguments: [String]) async -> Outcome {
    var lines: [String] = []
    do {
      let parsed = try Sessionctl.parseAsRoot(["scenario", "run"] + arguments)
      guard let run = parsed as? Sessionctl.ScenarioCommand.Run else {
        Issue.record("'scenario run' parsed as \(type(of: parsed))")
        return Outcome(lines: [], error: nil)
      }
      // With the PulseAudio backend, as the daemon program runs it for sessionctl.
      try await run.perform(support: LivePulseSupport()) { lines.append($0) }
      return Outcome(lines: lines, error: nil)
    } catch {
      return Outcome(lines: lines, error: error)
    }
  }
}

extension Sessionctl.PolicyCommand.Check {
  /// The OK line, with the PulseAudio backend's reader of `pulse.json`, as the daemon program
  /// runs it for sessionctl.
  func output() throws -> String { try output(support: LivePulseSupport()) }
}
