import ArgumentParser
import AudioSession

extension Sessionctl.Simulate {
  /// `sessionctl simulate plug PRESET`.
  struct Plug: SimulateCommand {
    static let configuration = CommandConfiguration(
      commandName: "plug",
      abstract: "Connects a device made from a preset (headphones, headset, bluetoothA2DP, …).",
      discussion: """
        'sessionctl policy show' lists the presets of the policy's device catalog. With \
        --backend pulse the device is a virtual one loaded on the daemon's server; on the \
        user's own server it may become the default output until 'simulate unplug' removes it \
        (see 'sessionctl simulate --help').
        """)

    @Argument(help: "The device preset.")
    var preset: String

    @OptionGroup var connection: LiveConnectionOptions

    var action: SimulationAction { .plug(preset: preset) }
  }
}
