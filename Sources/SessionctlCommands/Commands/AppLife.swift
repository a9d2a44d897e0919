import ArgumentParser
import AudioSessionCore

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

    @OptionGroup var connection: LiveConnectionOptions

    func command() -> Command { .appState(session: session.name, state) }
  }

  /// `sessionctl now-playing on|off [--session NAME]`.
  struct NowPlaying: LiveCommand {
    static let configuration = CommandConfiguration(
      commandName: "now-playing",
      abstract: "Makes the session's app the Now Playing app (on), or not (off).",
      discussion: """
        One app at a time is Now Playing; 'on' takes it from the previous one. The Now Playing \
        app may activate a non-mixable session from the background, and its active session is \
        interrupted (reason routeDisconnected) when a disconnect changes its route, unless it \
        prefers not (sessionctl prefer interruptionOnRouteDisconnect off) \
        (docs/avaudiosession.md §13.4, §13.5).
        """)

    static let actsOnSession = true

    @Argument(help: "on or off.")
    var state: OnOff

    @OptionGroup var session: SessionOptions

    @OptionGroup var connection: LiveConnectionOptions

    func command() -> Command { .nowPlaying(session: session.name, state.isOn) }
  }

  /// `sessionctl prefer KEY VALUE [--session NAME]`.
  struct Prefer: LiveCommand {
    static let configuration = CommandConfiguration(
      commandName: "prefer",
      abstract: "Sets one of the session's preferences, as AVAudioSession's setPrefers… calls do.",
      discussion: """
        Keys: noInterruptionsFromSystemAlerts on|off (setPrefersNoInterruptionsFromSystemAlerts: \
        a call ringing as a banner does not interrupt the session; answered, it does), \
        interruptionOnRouteDisconnect on|off (setPrefersInterruptionOnRouteDisconnect: off \
        keeps an active Now Playing session from being interrupted when a disconnect changes \
        its route) (docs/avaudiosession.md §13.5).
        """)

    static let actsOnSession = true

    @Argument(
      help: "The preference: noInterruptionsFromSystemAlerts or interruptionOnRouteDisconnect.")
    var key: String

    @Argument(help: "Its value: on or off.")
    var value: String

    @OptionGroup var session: SessionOptions

    @OptionGroup var connection: LiveConnectionOptions

    func validate() throws {
      do {
        _ = try SessionPreference.parse(key: key, value: value)
      } catch {
        throw ValidationError(error.message)
      }
    }

    func command() -> Command {
      // validate() parsed it already.
      let preference =
        (try? SessionPreference.parse(key: key, value: value))
        ?? .noInterruptionsFromSystemAlerts(false)
      return .prefer(session: session.name, preference)
    }
  }
}
