import ArgumentParser
import AudioSession

extension Sessionctl.Simulate {
  /// `sessionctl simulate media-services lost|reset`.
  struct MediaServices: SimulateCommand {
    static let configuration = CommandConfiguration(
      commandName: "media-services",
      abstract: "Loses (lost) or resets (reset) the media services, as two separate steps.",
      discussion: """
        lost: every session gets mediaServicesWereLost and loses its audio; until reset, every \
        command that changes a session fails with mediaServicesFailed ('msrv', 1836282486), \
        while status still answers. reset: every session gets mediaServicesWereReset, back to \
        the initial configuration, inactive (docs/avaudiosession.md §6.4). 'simulate \
        server-restart' is both at once. The simulated backend's only: a PulseAudio server is \
        lost and reset by restarting it (server-restart, with --spawn-server).
        """)

    /// `lost` or `reset`.
    enum State: String, CaseIterable, ExpressibleByArgument {
      case lost, reset
    }

    @Argument(help: "lost or reset.")
    var state: State

    @OptionGroup var connection: LiveConnectionOptions

    var action: SimulationAction { .mediaServices(lost: state == .lost) }
  }
}
