import ArgumentParser
import AudioSession

/// `--session NAME`: the session a live command acts on.
struct SessionOptions: ParsableArguments {
  @Option(
    name: .customLong("session"),
    help: ArgumentHelp(
      "The session to act on; it is created, unconfigured, on first mention.", valueName: "name"))
  var name: String = Command.defaultSession

  func validate() throws {
    if let problem = StepParser.sessionNameProblem(name) {
      throw ValidationError(problem)
    }
  }
}
