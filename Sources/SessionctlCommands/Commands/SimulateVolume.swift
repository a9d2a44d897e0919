import ArgumentParser
import AudioSession

extension Sessionctl.Simulate {
  /// `sessionctl simulate volume VALUE`.
  struct Volume: SimulateCommand {
    static let configuration = CommandConfiguration(
      commandName: "volume",
      abstract: "Sets the system volume (AVAudioSession's outputVolume), 0.0 to 1.0.",
      discussion: """
        What the volume buttons change: every session reads it as outputVolume. Status shows it \
        when it is not 1.0. On --backend pulse it is the volume of the server's default sink, \
        which this sets.
        """)

    @Argument(help: "The volume, from 0.0 to 1.0.")
    var value: Double

    @OptionGroup var connection: LiveConnectionOptions

    var action: SimulationAction { .volume(value) }
  }

  /// `sessionctl simulate permission granted|denied|undetermined`.
  struct Permission: SimulateCommand {
    static let configuration = CommandConfiguration(
      commandName: "permission",
      abstract: "Sets the record permission (granted, denied or undetermined).",
      discussion: """
        What the user decides in Settings: every app reads it as AVAudioApplication's \
        recordPermission (granted by default). Status shows it when it is not granted.
        """)

    @Argument(help: "granted, denied or undetermined.")
    var state: RecordPermission

    @OptionGroup var connection: LiveConnectionOptions

    var action: SimulationAction { .recordPermission(state) }
  }
}
