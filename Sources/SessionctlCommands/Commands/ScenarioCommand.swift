import ArgumentParser

extension Sessionctl {
  /// `sessionctl scenario …`.
  struct ScenarioCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "scenario",
      abstract: "Replays scenario files: sessionctl command lines, run in order.",
      subcommands: [Run.self])
  }
}
