import ArgumentParser
import AudioSession

extension Sessionctl {
  /// `sessionctl devices [--json]`.
  struct Devices: LiveCommand {
    static let configuration = CommandConfiguration(
      commandName: "devices",
      abstract: "Lists the connected devices and their ports, in connection order.")

    static let actsOnSession = false

    @Flag(help: "Print JSON. In a scenario, the transcript's format applies.")
    var json = false

    @OptionGroup var connection: LiveConnectionOptions

    func command() -> Command { .devices }
  }
}
