import ArgumentParser
import AudioSession
import AudioSessionSystem
import AudioSessionWire
import FoundationEssentials

extension Sessionctl {
  /// `sessionctl watch routes|interruptions|all [--json] [--exit-on-close]`.
  struct Watch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "watch",
      abstract: "Prints every session's notifications as they happen, until interrupted.",
      discussion: """
        routes: route changes; interruptions: interruptions began and ended; all: everything, \
        including what the system does silently (duck, mute, pause) and the secondary-audio \
        hint. When the daemon stops, watch says so (mediaServicesWereLost), waits for a daemon \
        on the same socket (it does not start one; it retries after 50 ms, backing off to once \
        a second), says when one is back (mediaServicesWereReset) and watches again, until \
        Ctrl-C or SIGTERM. With \
        --json these two are {"event":"mediaServicesWereLost"} and \
        {"event":"mediaServicesWereReset"}.
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

    @Flag(
      help: """
        Exit with status 1 when the daemon stops (after printing mediaServicesWereLost), \
        instead of waiting for it to return.
        """)
    var exitOnClose = false

    @OptionGroup var connection: LiveConnectionOptions

    func run() async throws {
      let printer = WatchPrinter(json: json)
      var link = try WatchLink.open(connection, filter: filter.wire, printer: printer, start: true)
      printer.release(after: nil)
      StandardStreams.writeError(
        "sessionctl: watching \(filter.rawValue) on \(connection.socketPath); Ctrl-C stops\n")
      while true {
        await link.ended()
        if exitOnClose {
          printer.announce(.lost(waiting: false))
          throw WatchEnded()
        }
        printer.announce(.lost(waiting: true))
        link = try await WatchLink.reopen(connection, filter: filter.wire, printer: printer)
        printer.release(after: .reset(filter: filter.rawValue))
      }
    }
  }
}

/// The daemon went away while watching (`--exit-on-close`).
struct WatchEnded: Error, CustomStringConvertible {
  var description: String { "the audio session daemon stopped" }
}
