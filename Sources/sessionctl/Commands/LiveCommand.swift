import ArgumentParser
import AudioSession

/// A command a scenario step may start with (after an optional session name).
protocol StepCommand: ParsableCommand {
  /// Whether the command acts on one session, so that `NAME command` may stand for
  /// `command --session NAME`.
  static var actsOnSession: Bool { get }
}

/// A command that acts on live sessions: typed at a shell, it goes to the daemon; in a scenario
/// it is a step, turned into the library's ``Command``.
protocol LiveCommand: StepCommand, AsyncParsableCommand {
  /// How a user types it (`sessionctl simulate plug`), for messages.
  static var invocation: String { get }

  /// The library command this command line stands for.
  func command() -> Command
}

extension LiveCommand {
  static var invocation: String { "sessionctl \(configuration.commandName ?? _commandName)" }

  /// Live commands talk to the daemon, which this version does not have yet (a later issue).
  func run() async throws {
    throw DaemonUnavailable(invocation: Self.invocation)
  }
}

/// A live command was run directly, but there is no daemon to hold its sessions.
struct DaemonUnavailable: Error, CustomStringConvertible {
  var invocation: String

  var description: String {
    "'\(invocation)' needs the audio session daemon, which this version of sessionctl does not "
      + "have yet. To run live commands now, write them as the steps of a scenario file and run "
      + "'sessionctl scenario run FILE'."
  }
}
