import ArgumentParser
import AudioSession

extension Sessionctl.Simulate {
  /// `sessionctl simulate server-restart`.
  struct ServerRestart: SimulateCommand {
    static let configuration = CommandConfiguration(
      commandName: "server-restart",
      abstract: "Restarts the media server: mediaServicesWereLost, then mediaServicesWereReset.")

    @OptionGroup var connection: LiveConnectionOptions

    var action: SimulationAction { .serverRestart }
  }
}
