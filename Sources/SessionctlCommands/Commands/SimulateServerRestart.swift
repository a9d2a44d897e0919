import ArgumentParser
import AudioSession

extension Sessionctl.Simulate {
  /// `sessionctl simulate server-restart`.
  struct ServerRestart: SimulateCommand {
    static let configuration = CommandConfiguration(
      commandName: "server-restart",
      abstract: "Restarts the media server: mediaServicesWereLost, then mediaServicesWereReset.",
      discussion: """
        With --backend pulse, only a server the daemon started itself can be restarted: start \
        it with 'sessionctl daemon --backend pulse --spawn-server'. The user's own server is \
        never restarted (the command is refused and says why).
        """)

    @OptionGroup var connection: LiveConnectionOptions

    var action: SimulationAction { .serverRestart }
  }
}
