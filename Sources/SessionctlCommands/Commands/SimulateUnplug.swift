import ArgumentParser
import AudioSession

extension Sessionctl.Simulate {
  /// `sessionctl simulate unplug PRESET-OR-UID`.
  struct Unplug: SimulateCommand {
    static let configuration = CommandConfiguration(
      commandName: "unplug",
      abstract: "Disconnects a device, by UID or the most recently plugged one of a preset.")

    @Argument(
      help: ArgumentHelp(
        "A device UID (see 'devices') or a preset name.", valueName: "preset-or-uid"))
    var device: String

    @OptionGroup var connection: LiveConnectionOptions

    var action: SimulationAction { .unplug(device) }
  }
}
