import ArgumentParser
import AudioSession

extension Sessionctl {
  /// `sessionctl mode MODE [--session NAME]`.
  struct SetMode: LiveCommand {
    static let configuration = CommandConfiguration(
      commandName: "mode",
      abstract:
        "Sets the session's mode alone, as setMode(_:) does; it clears the category options.",
      discussion: """
        The category stays; the options are cleared, as on iOS (docs/avaudiosession.md §3.1). A \
        mode the category does not take is refused as 'set' refuses it.
        """)

    static let actsOnSession = true

    @Argument(help: "The mode (Apple's Swift case name: default, voiceChat, spokenAudio, …).")
    var mode: Mode

    @OptionGroup var session: SessionOptions

    @OptionGroup var connection: LiveConnectionOptions

    func command() -> Command { .input(.setMode(session: session.name, mode: mode)) }
  }
}
