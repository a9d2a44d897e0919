import ArgumentParser
import AudioSession

extension Sessionctl {
  /// `sessionctl input-gain VALUE [--session NAME]`.
  struct InputGain: LiveCommand {
    static let configuration = CommandConfiguration(
      commandName: "input-gain",
      abstract: "Sets the gain of the session's current input, as setInputGain(_:) does.",
      discussion: """
        0.0 to 1.0; values outside are clamped. The gain belongs to the input source, so every \
        session routed to it reads it (docs/avaudiosession.md §8). A session with no input \
        cannot set one (badParam).
        """)

    static let actsOnSession = true

    @Argument(help: ArgumentHelp("The gain, 0.0 to 1.0.", valueName: "gain"))
    var gain: Double

    @OptionGroup var session: SessionOptions

    @Flag(help: "Print the reply and the notifications as JSON lines.")
    var json = false

    @OptionGroup var connection: LiveConnectionOptions

    func validate() throws {
      guard gain.isFinite else { throw ValidationError("the gain is a number from 0.0 to 1.0") }
    }

    func command() -> Command { .input(.setInputGain(session: session.name, gain)) }
  }
}
