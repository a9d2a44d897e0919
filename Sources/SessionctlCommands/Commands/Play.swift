import ArgumentParser
import AudioSession

extension Sessionctl {
  /// `sessionctl play [--session NAME]`.
  struct Play: LiveCommand {
    static let configuration = CommandConfiguration(
      commandName: "play",
      abstract: "Starts the session's player: its output (I/O) is running.",
      discussion: """
        An inactive session is activated first, as iOS activates a session whose app starts \
        playing or recording; the activation's refusals apply. A session whose category records \
        fails with resourceNotAvailable when no input device is connected.
        """)

    static let actsOnSession = true

    @OptionGroup var session: SessionOptions

    @OptionGroup var connection: LiveConnectionOptions

    func command() -> Command { .input(.startIO(session: session.name)) }
  }
}
