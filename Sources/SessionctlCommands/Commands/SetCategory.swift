import ArgumentParser
import AudioSession

extension Sessionctl {
  /// `sessionctl set CATEGORY [--mode M] [--options a,b] [--policy P] [--session NAME]`.
  struct SetCategory: LiveCommand {
    static let configuration = CommandConfiguration(
      commandName: "set",
      abstract:
        "Sets a session's category, mode and options, as setCategory(_:mode:policy:options:) does.",
      discussion: """
        Without --mode the session keeps its mode (spec §3.1). Options replace the previous ones; \
        options a category or option implies (ambient: mixWithOthers; duckOthers: mixWithOthers) \
        are added by the session. --policy longFormAudio or longFormVideo (playback, modes \
        default, moviePlayback or spokenAudio, no options) makes the session share one output \
        with every session of the same policy; independent is the system's and refused; \
        without --policy the policy is default (docs/avaudiosession.md §13.3).
        """)

    static let actsOnSession = true

    @Argument(help: "The category, by its Swift name.")
    var category: AudioSession.Category

    @Option(help: "The mode, by its Swift name.")
    var mode: Mode?

    @Option(
      help: ArgumentHelp(
        "Category options, comma-separated (allowBluetooth is accepted for allowBluetoothHFP).",
        valueName: "option,…"))
    var options: CategoryOptionList?

    @Option(help: "The route-sharing policy, by its Swift name.")
    var policy: RouteSharingPolicy?

    @OptionGroup var session: SessionOptions

    @OptionGroup var connection: LiveConnectionOptions

    func command() -> Command {
      .input(
        .setCategory(
          session: session.name, category: category, mode: mode,
          options: options?.bits ?? [], policy: policy ?? .default))
    }
  }
}
