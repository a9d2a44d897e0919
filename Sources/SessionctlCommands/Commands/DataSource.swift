import ArgumentParser
import AudioSession

extension Sessionctl {
  /// `sessionctl data-source NAME [--session NAME]`.
  struct DataSource: LiveCommand {
    static let configuration = CommandConfiguration(
      commandName: "data-source",
      abstract: "Selects a data source of the session's input, as setInputDataSource(_:) does.",
      discussion: """
        The built-in microphone offers Bottom (selected at start), Front and Back \
        (policies/devices.json "hardware.dataSources"). Selecting another is a route change \
        with reason routeConfigurationChange for every session routed to that input \
        (docs/avaudiosession.md §13.5).
        """)

    static let actsOnSession = true

    @Argument(help: ArgumentHelp("The data source's name.", valueName: "name"))
    var name: String

    @OptionGroup var session: SessionOptions

    @Flag(help: "Print the reply and the notifications as JSON lines.")
    var json = false

    @OptionGroup var connection: LiveConnectionOptions

    func command() -> Command { .input(.setDataSource(session: session.name, name)) }
  }
}
