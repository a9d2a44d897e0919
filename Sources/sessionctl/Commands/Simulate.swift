import ArgumentParser
import AudioSession

extension Sessionctl {
  /// `sessionctl simulate …`: changes to the system the sessions live in.
  struct Simulate: AsyncParsableCommand, StepCommand {
    static let configuration = CommandConfiguration(
      commandName: "simulate",
      abstract: "Simulates devices, the phone call, the switches and the media server.",
      subcommands: [
        Plug.self, Unplug.self, Call.self, Silent.self, Lock.self, MicMute.self,
        ServerRestart.self,
      ])

    static let actsOnSession = false
  }
}

/// A `simulate` subcommand: a live command about the system, not about one session.
protocol SimulateCommand: LiveCommand {
  /// The simulated change.
  var action: SimulationAction { get }
}

extension SimulateCommand {
  static var actsOnSession: Bool { false }

  static var invocation: String {
    "sessionctl simulate \(configuration.commandName ?? _commandName)"
  }

  func command() -> Command { .simulate(action) }
}
