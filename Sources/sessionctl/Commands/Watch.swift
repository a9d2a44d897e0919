import ArgumentParser
import AudioSession
import Foundation

extension Sessionctl {
  /// `sessionctl watch routes|interruptions|all [--json]`.
  struct Watch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Prints every session's notifications as they happen, until interrupted.",
      discussion: """
        routes: route changes; interruptions: interruptions began and ended; all: everything, \
        including what the system does silently (duck, mute, pause) and the secondary-audio \
        hint. Exits when the daemon stops.
        """)

    /// What to watch.
    enum Filter: String, CaseIterable, ExpressibleByArgument {
      case routes, interruptions, all

      var wire: DaemonRequest.WatchFilter {
        switch self {
        case .routes: .routes
        case .interruptions: .interruptions
        case .all: .all
        }
      }
    }

    @Argument(help: "Which notifications to print.")
    var filter: Filter

    @Flag(help: "Print each notification as a JSON object on its own line.")
    var json = false

    @OptionGroup var connection: LiveConnectionOptions

    func run() async throws {
      let json = self.json
      let (ended, endedContinuation) = AsyncStream.makeStream(of: Void.self)
      let handlers = DaemonConnection.Handlers(
        notification: { notification in
          let line =
            json
            ? WireNotification.json(notification).serialized
            : LiveOutput.notificationLines([notification])[0]
          // Unbuffered: a pipe sees each notification as it happens.
          FileHandle.standardOutput.write(Data((line + "\n").utf8))
        },
        closed: { endedContinuation.finish() })
      let client = try LiveClient.connect(connection, handlers: handlers)
      let reply = try LiveClient.request(
        .watch(filter.wire), on: client, socketPath: connection.socketPath)
      if let error = reply.error { throw LiveCommandError(error: error) }
      FileHandle.standardError.write(
        Data(
          "sessionctl: watching \(filter.rawValue) on \(connection.socketPath); Ctrl-C stops\n"
            .utf8))
      for await _ in ended {}
      throw WatchEnded()
    }
  }
}

/// The daemon went away while watching.
struct WatchEnded: Error, CustomStringConvertible {
  var description: String { "the audio session daemon stopped" }
}
