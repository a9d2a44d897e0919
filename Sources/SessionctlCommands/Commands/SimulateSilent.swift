import ArgumentParser
import AudioSession

extension Sessionctl.Simulate {
  /// `sessionctl simulate silent on|off`.
  struct Silent: SimulateCommand {
    static let configuration = CommandConfiguration(
      commandName: "silent",
      abstract: "Turns the Ring/Silent switch to silent (on) or ring (off).")

    @Argument(help: "on or off.")
    var state: OnOff

    @OptionGroup var connection: LiveConnectionOptions

    var action: SimulationAction { .silentSwitch(on: state.isOn) }
  }
}
