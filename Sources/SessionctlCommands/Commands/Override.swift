import ArgumentParser
import AudioSession

extension Sessionctl {
  /// `sessionctl override speaker|none [--session NAME]`.
  struct Override: LiveCommand {
    static let configuration = CommandConfiguration(
      commandName: "override",
      abstract: "Overrides the session's output port, as overrideOutputAudioPort(_:) does.",
      discussion: "Only playAndRecord sessions may override their output (spec §7.5).")

    static let actsOnSession = true

    @Argument(
      help: "speaker: route to the built-in speaker and mic; none: back to the default route.")
    var port: PortOverride

    @OptionGroup var session: SessionOptions

    @OptionGroup var connection: LiveConnectionOptions

    func command() -> Command { .input(.overrideOutput(session: session.name, port)) }
  }
}
