import ArgumentParser
import AudioSession

extension Sessionctl {
  /// `sessionctl stop [--session NAME]`.
  struct Stop: LiveCommand {
    static let configuration = CommandConfiguration(
      commandName: "stop",
      abstract: "Stops the session's player: its I/O is no longer running.")

    static let actsOnSession = true

    @OptionGroup var session: SessionOptions

    @OptionGroup var connection: LiveConnectionOptions

    func command() -> Command { .input(.stopIO(session: session.name)) }
  }
}
