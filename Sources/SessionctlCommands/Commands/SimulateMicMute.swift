import ArgumentParser
import AudioSession

extension Sessionctl.Simulate {
  /// `sessionctl simulate mic-mute on|off`.
  struct MicMute: SimulateCommand {
    static let configuration = CommandConfiguration(
      commandName: "mic-mute",
      abstract: "Mutes (on) or unmutes (off) the built-in microphone in hardware.",
      discussion: """
        on: interrupts (builtInMicMuted, by: system) the sessions running input on the built-in \
        mic (active and playing, record, playAndRecord or multiRoute, without \
        overrideMutedMicrophoneInterruption); an active session whose I/O is stopped is spared, \
        and cannot start it (cannotStartRecording) until off, which ends the interruptions with \
        shouldResume (docs/avaudiosession.md §4.4, §6.1).
        """)

    @Argument(help: "on or off.")
    var state: OnOff

    @OptionGroup var connection: LiveConnectionOptions

    var action: SimulationAction { .micMute(on: state.isOn) }
  }
}
