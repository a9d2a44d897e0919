import ArgumentParser
import AudioSession
import AudioSessionSystem

extension Sessionctl.Simulate {
  /// `sessionctl simulate lock on|off`.
  struct Lock: SimulateCommand {
    static let configuration = CommandConfiguration(
      commandName: "lock",
      abstract: "Locks (on) or unlocks (off) the screen.")

    @Argument(help: "on or off.")
    var state: OnOff

    @OptionGroup var connection: LiveConnectionOptions

    var action: SimulationAction { .screenLock(on: state.isOn) }
  }
}
