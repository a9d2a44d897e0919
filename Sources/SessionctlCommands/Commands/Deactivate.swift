import ArgumentParser
import AudioSession

extension Sessionctl {
  /// `sessionctl deactivate [--notify-others] [--session NAME]`.
  struct Deactivate: LiveCommand {
    static let configuration = CommandConfiguration(
      commandName: "deactivate",
      abstract: "Deactivates a session, as setActive(false, options:) does.")

    static let actsOnSession = true

    @Flag(
      help: """
        Deactivate with notifyOthersOnDeactivation: sessions this one interrupted get an ended \
        interruption with shouldResume.
        """)
    var notifyOthers = false

    @OptionGroup var session: SessionOptions

    @OptionGroup var connection: LiveConnectionOptions

    func command() -> Command {
      .input(
        .setActive(
          session: session.name, active: false,
          options: notifyOthers ? .notifyOthersOnDeactivation : []))
    }
  }
}
