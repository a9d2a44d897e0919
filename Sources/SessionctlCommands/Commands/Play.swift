import ArgumentParser
import AudioSession

extension Sessionctl {
  /// `sessionctl play [--session NAME]`.
  struct Play: LiveCommand {
    static let configuration = CommandConfiguration(
      commandName: "play",
      abstract: "Starts the session's player: its output (I/O) is running.")

    static let actsOnSession = true

    @OptionGroup var session: SessionOptions

    @OptionGroup var connection: LiveConnectionOptions

    func command() -> Command { .play(session: session.name) }
  }
}
