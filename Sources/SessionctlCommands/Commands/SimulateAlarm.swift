import ArgumentParser
import AudioSession

extension Sessionctl.Simulate {
  /// `sessionctl simulate alarm begin|end`.
  struct Alarm: SimulateCommand {
    static let configuration = CommandConfiguration(
      commandName: "alarm",
      abstract: "A system alarm (the Clock app) sounds (begin) or is dismissed (end).",
      discussion: """
        begin: the alarm interrupts every active non-mixable session (by: alarm, reason default), \
        as a non-mixable app would. end: the user dismissed it; the interrupted sessions get \
        ended with shouldResume, as after a declined call (docs/avaudiosession.md §6.1). The \
        engine's own on every backend: no media server has a Clock app.
        """)

    @Argument(help: "begin or end.")
    var phase: SiriPhase

    @Flag(help: "Print the reply and the notifications as JSON lines.")
    var json = false

    @OptionGroup var connection: LiveConnectionOptions

    var action: SimulationAction { .alarm(active: phase == .begin) }
  }
}
