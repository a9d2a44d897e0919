import ArgumentParser
import AudioSession

extension Sessionctl {
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
        return .input(.setPreferredInput(session: session.name, uid: value == "none" ? nil : value))
      }
      do {
        return .input(
          .setPreference(session: session.name, try SessionPreference.parse(key: key, value: value))
        )
      } catch {
        // validate() refused it already: ArgumentParser never runs such a command.
        preconditionFailure("prefer \(key) \(value) passed validate(): \(error.message)")
      }
    }
  }
}
