import ArgumentParser
import AudioSession
import AudioSessionScenario

/// A step that acts out another program, the user or the daemon on a scenario's desktop, or
/// asks what is heard (docs/contract.md "Desktop steps"): the scenario's run performs it; no
/// daemon takes it.
protocol DesktopStepCommand: StepCommand, AsyncParsableCommand {
  /// How a user types it (`sessionctl simulate program`), for messages.
  static var invocation: String { get }

  /// The act this command line stands for.
  func desktopAct() -> DesktopAct
}

extension DesktopStepCommand {
  static var actsOnSession: Bool { false }

  func run() async throws { throw DesktopStepError(invocation: Self.invocation) }
}

/// A desktop step typed at a shell; ArgumentParser prints it after "Error: " and exits 1.
struct DesktopStepError: Error, CustomStringConvertible {
  var invocation: String

  var description: String {
    "'\(invocation)' acts out the desktop of a scenario file (sessionctl scenario run FILE), "
      + "on the simulated backend; a daemon learns other programs and the user from the audio "
      + "server and the session bus (docs/contract.md \"Desktop steps\")"
  }
}

/// A program's name in a scenario: 1 to 64 letters, digits, `_`, `.` and `-`.
func programNameProblem(_ name: String) -> String? {
  let allowed = name.unicodeScalars.allSatisfy {
    ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)))
      || "_.-".unicodeScalars.contains($0)
  }
  guard (1...64).contains(name.utf8.count), allowed, !name.hasPrefix("-") else {
    return "'\(name)' cannot name a program: a name is 1 to 64 letters, digits, '_', '.' and "
      + "'-', not starting with '-'"
  }
  return nil
}

extension Sessionctl {
  /// `heard` (a scenario step): what each program is heard at.
  struct Heard: DesktopStepCommand {
    static let configuration = CommandConfiguration(
      commandName: "heard",
      abstract: "In a scenario: prints what each program started in it is heard at.",
      discussion: """
        1 in full, the duck level when the daemon ducks it (pulse.json's duckDecibels as an \
        amplitude: 0.1 for -20 dB), 0 when it is muted, paused, corked or gone \
        (docs/contract.md "Desktop steps").
        """)

    static let invocation = "sessionctl heard"

    func desktopAct() -> DesktopAct { .heard }
  }
}
