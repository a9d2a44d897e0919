import ArgumentParser
import AudioSession

extension Sessionctl.Simulate {
  /// `sessionctl simulate plug PRESET`.
  struct Plug: SimulateCommand {
    static let configuration = CommandConfiguration(
      commandName: "plug",
      abstract: "Connects a device made from a preset (headphones, headset, bluetoothA2DP, …).",
      discussion: "'sessionctl policy show' lists the presets of the policy's device catalog.")

    @Argument(help: "The device preset.")
    var preset: String

    @OptionGroup var connection: LiveConnectionOptions

    var action: SimulationAction { .plug(preset: preset) }
  }
}
