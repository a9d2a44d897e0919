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

    @Flag(help: "Print the reply and the notifications as JSON lines.")
    var json = false

    @OptionGroup var connection: LiveConnectionOptions

    func command() -> Command { .nowPlaying(session: session.name, state.isOn) }
  }

  /// `sessionctl prefer KEY VALUE [--session NAME]`.
  struct Prefer: LiveCommand {
    static let configuration = CommandConfiguration(
      commandName: "prefer",
      abstract:
        "Sets one of the session's preferences, as AVAudioSession's setPreferred… calls do.",
      discussion: """
        Keys: input UID|PORTTYPE|none (setPreferredInput: a port UID, or the first available \
        input of a port type; nil again when its device goes); sampleRate HZ and \
        ioBufferDuration SECONDS (hints, granted while active, clamped to what the hardware \
        takes); inputNumberOfChannels N and outputNumberOfChannels N (1 to the route's \
        maximum; incompatibleCategory when the category has no input or output); \
        noInterruptionsFromSystemAlerts on|off (a call ringing as a banner does not interrupt \
        the session; answered, it does); interruptionOnRouteDisconnect on|off (off keeps an \
        active Now Playing session from being interrupted when a disconnect changes its route); \
        aggregatedIO aggregated|notSpecified (playAndRecord and multiRoute only; isBusy while \
        its I/O runs); echoCancelledInput on|off (setPrefersEchoCancelledInput, iOS 18.2: on \
        only with playAndRecord in mode default or multiRoute in dualRoute, else \
        incompatibleCategory; enabled while the session is active and its input is the \
        built-in mic, so a route change may turn it off) (docs/avaudiosession.md §7.6, §8, \
        §13.5).
        """)

    static let actsOnSession = true

    @Argument(
      help: ArgumentHelp(
        "The preference: input, sampleRate, ioBufferDuration, inputNumberOfChannels, "
          + "outputNumberOfChannels, noInterruptionsFromSystemAlerts, "
          + "interruptionOnRouteDisconnect, aggregatedIO or echoCancelledInput.",
        valueName: "key"))
    var key: String

    @Argument(help: ArgumentHelp("Its value (see above).", valueName: "value"))
    var value: String

    @OptionGroup var session: SessionOptions

    @Flag(help: "Print the reply and the notifications as JSON lines.")
    var json = false

    @OptionGroup var connection: LiveConnectionOptions

    func validate() throws {
      guard key != "input" else { return }
      do {
        _ = try SessionPreference.parse(key: key, value: value)
      } catch {
        throw ValidationError(error.message)
      }
    }

    func command() -> Command {
      if key == "input" {
        return .setPreferredInput(session: session.name, uid: value == "none" ? nil : value)
      }
      do {
        return .prefer(session: session.name, try SessionPreference.parse(key: key, value: value))
      } catch {
        // validate() refused it already: ArgumentParser never runs such a command.
        preconditionFailure("prefer \(key) \(value) passed validate(): \(error.message)")
      }
    }
  }

  /// `sessionctl input-gain VALUE [--session NAME]`.
  struct InputGain: LiveCommand {
    static let configuration = CommandConfiguration(
      commandName: "input-gain",
      abstract: "Sets the gain of the session's current input, as setInputGain(_:) does.",
      discussion: """
        0.0 to 1.0; values outside are clamped. The gain belongs to the input source, so every \
        session routed to it reads it (docs/avaudiosession.md §8). A session with no input \
        cannot set one (badParam).
        """)

    static let actsOnSession = true

    @Argument(help: ArgumentHelp("The gain, 0.0 to 1.0.", valueName: "gain"))
    var gain: Double

    @OptionGroup var session: SessionOptions

    @Flag(help: "Print the reply and the notifications as JSON lines.")
    var json = false

    @OptionGroup var connection: LiveConnectionOptions

    func validate() throws {
      guard gain.isFinite else { throw ValidationError("the gain is a number from 0.0 to 1.0") }
    }

    func command() -> Command { .inputGain(session: session.name, gain) }
  }

  /// `sessionctl data-source NAME [--session NAME]`.
  struct DataSource: LiveCommand {
    static let configuration = CommandConfiguration(
      commandName: "data-source",
      abstract: "Selects a data source of the session's input, as setInputDataSource(_:) does.",
      discussion: """
        The built-in microphone offers bottom (selected at start), front and back \
        (policies/devices.json "hardware.dataSources"). Selecting another is a route change \
        with reason routeConfigurationChange for every session routed to that input \
        (docs/avaudiosession.md §13.5).
        """)

    static let actsOnSession = true

    @Argument(help: ArgumentHelp("The data source's name.", valueName: "name"))
    var name: String

    @OptionGroup var session: SessionOptions

    @Flag(help: "Print the reply and the notifications as JSON lines.")
    var json = false

    @OptionGroup var connection: LiveConnectionOptions

    func command() -> Command { .dataSource(session: session.name, name) }
  }
}
