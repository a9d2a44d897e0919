import ArgumentParser
import AudioSession

extension Sessionctl {
  /// `sessionctl activate [--session NAME]`.
  struct Activate: LiveCommand {
    static let configuration = CommandConfiguration(
      commandName: "activate",
      abstract: "Activates a session, as setActive(true) does; it may interrupt or duck others.")

    static let actsOnSession = true

    @OptionGroup var session: SessionOptions

    @OptionGroup var connection: LiveConnectionOptions

    func command() -> Command {
      .input(.setActive(session: session.name, active: true, options: []))
    }
  }
}
