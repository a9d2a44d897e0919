import ArgumentParser
package import AudioSession
package import AudioSessionScenario

/// Turns scenario steps into commands, exactly as `sessionctl` would parse them typed at a shell
/// (docs/contract.md "Scenario files").
///
/// A step is a command line without the leading `sessionctl`. When its first word is not a step
/// command it names a session: `music activate` is `activate --session music`.
package enum StepParser {
  /// The commands a step may start with, and whether each acts on one session.
  static var stepCommands: [(name: String, actsOnSession: Bool)] {
    Sessionctl.configuration.subcommands.compactMap { type in
      guard let step = type as? any StepCommand.Type else { return nil }
      return (step.commandWord, step.actsOnSession)
    }
  }

  /// Commands that are not steps: they do not act on the sessions of a scenario.
  static let nonStepCommands = ["policy", "scenario", "daemon", "watch", "help", "port-ios"]

  static var stepCommandList: String { stepCommands.map(\.name).joined(separator: ", ") }

  /// Why `name` cannot name a session, or nil: the library's rule, and no command name (a
  /// step could not tell the two apart).
  static func sessionNameProblem(_ name: String) -> String? {
    if let problem = Command.sessionNameProblem(name) { return problem }
    let commands = Sessionctl.configuration.subcommands.map { $0.commandWord } + nonStepCommands
    if commands.contains(name) {
      return "'\(name)' cannot name a session: it is a sessionctl command"
    }
    return nil
  }

  /// Parses every step and checks the device presets, returning all problems at once.
  package static func plan(_ scenario: Scenario, catalog: DeviceCatalog) throws(ScenarioErrors)
    -> ScenarioPlan
  {
    var problems = scenario.deviceProblems(catalog: catalog)
    var actions: [ScenarioAction] = []
    var cast = DesktopCast()
    for step in scenario.steps {
      do throws(ScenarioError) {
        let action = try action(for: step, catalog: catalog)
        switch action {
        case .desktop(let act):
          if let problem = cast.problem(act) {
            throw ScenarioError("step '\(step.text)': \(problem)", at: step.location)
          }
        case .command(let command):
          if let problem = cast.problem(command: step.text) {
            throw ScenarioError("step '\(step.text)': \(problem)", at: step.location)
          }
          switch command {
          case .simulate(.serverRestart), .simulate(.mediaServices(lost: true)): cast.serverLost()
          default: break
          }
        }
        actions.append(action)
      } catch {
        problems.append(error)
      }
    }
    guard problems.isEmpty else { throw ScenarioErrors(problems) }
    return ScenarioPlan(scenario: scenario, actions: actions)
  }

  /// Parses one step that is a command (a desktop step is a problem here).
  static func command(for step: ScenarioStep, catalog: DeviceCatalog) throws(ScenarioError)
    -> Command
  {
    let action = try action(for: step, catalog: catalog)
    guard case .command(let command) = action else {
      throw ScenarioError(
        "step '\(step.text)': a desktop step is not a command for the daemon", at: step.location)
    }
    return command
  }

  /// Parses one step.
  static func action(for step: ScenarioStep, catalog: DeviceCatalog) throws(ScenarioError)
    -> ScenarioAction
  {
    do {
      return try action(step.text, catalog: catalog)
    } catch {
      throw ScenarioError("step '\(step.text)': \(error.message)", at: step.location)
    }
  }

  /// What is wrong with a step, without its location.
  struct Problem: Error {
    var message: String

    init(_ message: String) { self.message = message }
  }

  static func command(_ text: String, catalog: DeviceCatalog) throws(Problem) -> Command {
    guard case .command(let command) = try action(text, catalog: catalog) else {
      throw Problem("a desktop step is not a command for the daemon")
    }
    return command
  }

  static func action(_ text: String, catalog: DeviceCatalog) throws(Problem) -> ScenarioAction {
    let words: [String]
    do {
      words = try StepTokenizer.words(text)
    } catch {
      throw Problem(error.message)
    }
    // A step reads its words as the command line does (`CommandLineWords`): `input-gain -0.5`
    // is a value, not an option (docs/contract.md "Commands").
    let arguments = CommandLineWords.normalized(try arguments(words))
    let parsed: any ParsableCommand
    do {
      parsed = try Sessionctl.parseAsRoot(arguments)
    } catch {
      if Sessionctl.exitCode(for: error) == .success {
        throw Problem("a step must be a command, not a request for help")
      }
      throw Problem(Sessionctl.message(for: error))
    }
    if let desktop = parsed as? any DesktopStepCommand { return .desktop(desktop.desktopAct()) }
    guard let live = parsed as? any LiveCommand else {
      // A command group without its subcommand, or ArgumentParser's help command.
      let type = type(of: parsed)
      let subcommands = type.configuration.subcommands.map { $0.commandWord }
      guard !subcommands.isEmpty, type != Sessionctl.self else {
        throw Problem("a step must be a command, not a request for help")
      }
      throw Problem(
        "'\(type.commandWord)' needs a subcommand: \(subcommands.joined(separator: ", "))")
    }
    let command = live.command()
    if case .simulate(.plug(let preset)) = command, catalog.presets[preset] == nil {
      throw Problem(
        "unknown device preset '\(preset)'; valid presets are: "
          + catalog.presetOrder.joined(separator: ", "))
    }
    return .command(command)
  }

  /// The command line for ArgumentParser: the session prefix, if any, becomes `--session`.
  static func arguments(_ words: [String]) throws(Problem) -> [String] {
    guard let first = words.first else {
      throw Problem("a step needs a command; commands are: \(stepCommandList)")
    }
    let commands = stepCommands
    if commands.contains(where: { $0.name == first }) { return words }
    if nonStepCommands.contains(first)
      || Sessionctl.configuration.subcommands.contains(where: { $0.commandWord == first })
    {
      throw Problem(
        "'\(first)' is not a live command and cannot be a step; steps use: \(stepCommandList)")
    }
    if first.hasPrefix("-") {
      throw Problem(
        "a step starts with a command or a session name, not '\(first)'; "
          + "commands are: \(stepCommandList)")
    }
    if let problem = Command.sessionNameProblem(first) {
      throw Problem(problem)
    }
    guard words.count > 1 else {
      throw Problem(
        "'\(first)' is not a command, so it is read as a session name, but no command follows; "
          + "commands are: \(stepCommandList)")
    }
    let name = words[1]
    guard let command = commands.first(where: { $0.name == name }) else {
      throw Problem(
        "unknown command '\(name)' after the session name '\(first)'; "
          + "commands are: \(stepCommandList)")
    }
    guard command.actsOnSession else {
      throw Problem(
        "'\(name)' does not act on one session, so it cannot follow a session name; "
          + "write '\(words.dropFirst().joined(separator: " "))'")
    }
    if words.contains(where: { $0 == "--session" || $0.hasPrefix("--session=") }) {
      throw Problem("the session is named twice: by the prefix '\(first)' and by --session")
    }
    return Array(words.dropFirst()) + ["--session", first]
  }
}
