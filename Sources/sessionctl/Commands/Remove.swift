import ArgumentParser
import AudioSession

extension Sessionctl {
  /// `sessionctl remove [--session NAME]`.
  struct Remove: LiveCommand {
    static let configuration = CommandConfiguration(
      commandName: "remove",
      abstract: "Removes a session; an active one is deactivated first, notifying the others.")

    static let actsOnSession = true

    @OptionGroup var session: SessionOptions

    @OptionGroup var connection: ConnectionOptions

    func command() -> Command { .remove(session: session.name) }
  }
}
