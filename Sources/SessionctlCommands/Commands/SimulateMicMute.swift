import ArgumentParser
import AudioSession

extension Sessionctl.Simulate {
  /// `sessionctl simulate mic-mute on|off`.
  struct MicMute: SimulateCommand {
    static let configuration = CommandConfiguration(
      commandName: "mic-mute",
      abstract: "Mutes (on) or unmutes (off) the built-in microphone in hardware.")

    @Argument(help: "on or off.")
    var state: OnOff

    @OptionGroup var connection: LiveConnectionOptions

    var action: SimulationAction { .micMute(on: state.isOn) }
  }
}
