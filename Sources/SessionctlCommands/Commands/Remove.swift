import ArgumentParser
import AudioSession

extension Sessionctl {
  /// `sessionctl remove [--session NAME]`.
  struct Remove: LiveCommand {
    static let configuration = CommandConfiguration(
      commandName: "remove",
      abstract: "Removes a session; an active one is deactivated first, as when its app vanishes.",
      discussion: """
        The sessions it interrupted get what the policy's vanishedApp says (by default, ended \
        with shouldResume); see 'sessionctl policy show'.
        """)

    static let actsOnSession = true

    @OptionGroup var session: SessionOptions

    @OptionGroup var connection: LiveConnectionOptions

    func command() -> Command { .input(.removeSession(session.name)) }
  }
}
