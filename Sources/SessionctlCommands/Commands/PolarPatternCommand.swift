import ArgumentParser
import AudioSession

extension Sessionctl {
  /// `sessionctl polar-pattern DATA-SOURCE PATTERN|none [--session NAME]`.
  struct PolarPatternCommand: LiveCommand {
    static let configuration = CommandConfiguration(
      commandName: "polar-pattern",
      abstract:
        "Sets the preferred polar pattern of a data source of the session's input, as "
        + "setPreferredPolarPattern(_:) does.",
      discussion: """
        The built-in microphone's Front and Back take omnidirectional, cardioid and \
        subcardioid, its Bottom omnidirectional and stereo, which carries two channels \
        (policies/devices.json "hardware.dataSources"); none clears the preference. A pattern \
        the data source does not take is badParam. Changing the pattern of the selected data \
        source is a route change with reason routeConfigurationChange for every session routed \
        to that input (docs/avaudiosession.md §7.1).
        """)

    static let actsOnSession = true

    @Argument(help: ArgumentHelp("The data source's name.", valueName: "data-source"))
    var dataSource: String

    @Argument(
      help: ArgumentHelp(
        "omnidirectional, cardioid, subcardioid, stereo or none.", valueName: "pattern"))
    var pattern: String

    @OptionGroup var session: SessionOptions

    @Flag(help: "Print the reply and the notifications as JSON lines.")
    var json = false

    @OptionGroup var connection: LiveConnectionOptions

    func validate() throws {
      guard pattern == "none" || PolarPattern(name: pattern) != nil else {
        throw ValidationError(
          "unknown polar pattern '\(pattern)'; valid: \(PolarPattern.validNames), none")
      }
    }

    func command() -> Command {
      .input(
        .setPolarPattern(
          session: session.name, dataSource: dataSource, PolarPattern(name: pattern)))
    }
  }
}
