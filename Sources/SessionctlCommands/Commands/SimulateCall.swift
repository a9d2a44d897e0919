import ArgumentParser
import AudioSessionCore

extension Sessionctl.Simulate {
  /// `sessionctl simulate call begin|end`.
  struct Call: SimulateCommand {
    static let configuration = CommandConfiguration(
      commandName: "call",
      abstract: "Begins or ends a phone call, which interrupts every session (spec §5.1 A4).")

    @Argument(help: "begin or end.")
    var phase: CallPhase

    @OptionGroup var connection: LiveConnectionOptions

    var action: SimulationAction { .call(active: phase == .begin) }
  }
}
