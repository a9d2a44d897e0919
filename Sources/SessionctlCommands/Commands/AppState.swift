import ArgumentParser
import AudioSession

extension Sessionctl {
  /// `sessionctl app-state foreground|background|suspended [--session NAME]`.
  struct AppStateCommand: LiveCommand {
    static let configuration = CommandConfiguration(
      commandName: "app-state",
      abstract: "Moves the session's app to the foreground or the background, or suspends it.",
      discussion: """
        Sessions start in the foreground. In the background, iOS refuses some calls (policies/ \
        interactions.json "background"): a non-mixable activation fails with \
        cannotInterruptOthers unless the app is Now Playing, ambient and soloAmbient cannot \
        start playing (cannotStartPlaying), mixable recording cannot start \
        (cannotStartRecording). Suspending deactivates an idle active session without a \
        word; the app hears of it (interruption began, by: system) when it runs again. A \
        suspended app makes no calls (docs/avaudiosession.md §13.4).
        """)

    static let actsOnSession = true

    @Argument(help: "foreground, background or suspended.")
    var state: AppState

    @OptionGroup var session: SessionOptions

    @Flag(help: "Print the reply and the notifications as JSON lines.")
    var json = false

    @OptionGroup var connection: LiveConnectionOptions

    func command() -> Command { .input(.setAppState(session: session.name, state)) }
  }
}
