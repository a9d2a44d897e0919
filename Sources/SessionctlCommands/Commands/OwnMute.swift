import ArgumentParser
import AudioSession

extension Sessionctl {
  /// `sessionctl output-muted on|off [--session NAME]`.
  struct OutputMuted: LiveCommand {
    static let configuration = CommandConfiguration(
      commandName: "output-muted",
      abstract: "Mutes the session's own output (on), or not (off), as setOutputMuted(_:) does.",
      discussion: """
        iOS 26: the app mutes its own output; the session is told \
        (outputMuteStateChange) when the state changes, and status shows it. playAndRecord \
        may mute only in mode default (incompatibleCategory). In mode shortFormVideo the \
        system unmutes the output when the user raises the volume (sessionctl simulate volume): \
        userIntentToUnmuteOutput, then outputMuteStateChange (docs/avaudiosession.md §1.5, §3). \
        On a PulseAudio server the session's playback streams are muted.
        """)

    static let actsOnSession = true

    @Argument(help: "on or off.")
    var state: OnOff

    @OptionGroup var session: SessionOptions

    @Flag(help: "Print the reply and the notifications as JSON lines.")
    var json = false

    @OptionGroup var connection: LiveConnectionOptions

    func command() -> Command { .input(.setOutputMuted(session: session.name, state.isOn)) }
  }

  /// `sessionctl input-muted on|off [--session NAME]`.
  struct InputMuted: LiveCommand {
    static let configuration = CommandConfiguration(
      commandName: "input-muted",
      abstract:
        "Mutes the session's app's input (on), or not (off), as AVAudioApplication's setInputMuted(_:) does.",
      discussion: """
        iOS 17: the app mutes its own input (its samples are zeroed); the session is told \
        (inputMuteStateChange) when the state changes, and status shows it. It is not the \
        built-in microphone's mute (sessionctl simulate mic-mute), which interrupts; any \
        category may set it (docs/avaudiosession.md §1.5). On a PulseAudio server the \
        session's recording streams are muted.
        """)

    static let actsOnSession = true

    @Argument(help: "on or off.")
    var state: OnOff

    @OptionGroup var session: SessionOptions

    @Flag(help: "Print the reply and the notifications as JSON lines.")
    var json = false

    @OptionGroup var connection: LiveConnectionOptions

    func command() -> Command { .input(.setInputMuted(session: session.name, state.isOn)) }
  }
}
