import ArgumentParser
import AudioSession

extension Sessionctl {
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

    @Flag(help: "Print the reply and the notifications as JSON lines.")
    var json = false

    @OptionGroup var connection: LiveConnectionOptions

    func command() -> Command { .input(.setNowPlaying(session: session.name, state.isOn)) }
  }
}
