import ArgumentParser
import AudioSession

extension Sessionctl {
  /// `sessionctl route [--json] [--session NAME]`.
  struct Route: LiveCommand {
    static let configuration = CommandConfiguration(
      commandName: "route",
      abstract: "Shows a session's current route (its inputs and outputs).")

    static let actsOnSession = true

    @Flag(help: "Print JSON. In a scenario, the transcript's format applies.")
    var json = false

    @OptionGroup var session: SessionOptions

    @OptionGroup var connection: LiveConnectionOptions

    func command() -> Command { .route(session: session.name) }
  }
}
