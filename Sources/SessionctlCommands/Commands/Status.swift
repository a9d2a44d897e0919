import ArgumentParser
import AudioSession

extension Sessionctl {
  /// `sessionctl status [--json]`.
  struct Status: LiveCommand {
    static let configuration = CommandConfiguration(
      commandName: "status",
      abstract: "Shows every session, the connected devices and the system state.")

    static let actsOnSession = false

    @Flag(help: "Print JSON. In a scenario, the transcript's format applies.")
    var json = false

    @OptionGroup var connection: LiveConnectionOptions

    func command() -> Command { .status }
  }
}
