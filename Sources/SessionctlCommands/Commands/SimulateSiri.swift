import ArgumentParser
import AudioSession

extension Sessionctl.Simulate {
  /// `sessionctl simulate siri begin|end`.
  struct Siri: SimulateCommand {
    static let configuration = CommandConfiguration(
      commandName: "siri",
      abstract: "Siri starts listening (begin) or goes away (end).",
      discussion: """
        begin: Siri interrupts every active non-mixable session (by: siri), a session with input \
        cannot go active (siriIsRecording), and voicePrompt sessions read the prompt style none. \
        end: the interrupted sessions get ended with shouldResume (docs/avaudiosession.md §6.1, \
        §13.5). The engine's own on every backend: no media server has a Siri.
        """)

    @Argument(help: "begin or end.")
    var phase: SiriPhase

    @Flag(help: "Print the reply and the notifications as JSON lines.")
    var json = false

    @OptionGroup var connection: LiveConnectionOptions

    var action: SimulationAction { .siri(active: phase == .begin) }
  }
}
