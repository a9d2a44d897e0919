import AudioSession
import AudioSessionSystem
import AudioSessionWire
import FoundationEssentials

/// One connection of `sessionctl watch`: subscribed to a filter, printing what it receives, and
/// telling when it ends.
struct WatchLink {
  let client: DaemonConnection
  private let end: AsyncStream<Void>

  /// Returns when the connection has ended (the daemon stopped), after its last notification
  /// was printed.
  func ended() async {
    for await _ in end {}
  }

  /// Connects and subscribes. With `start`, a missing daemon is started (as for every live
  /// command); without, a missing daemon is an error.
  ///
  /// - Throws: What connecting throws; ``LiveCommandError`` when the daemon refuses the watch.
  static func open(
    _ options: LiveConnectionOptions, filter: DaemonRequest.WatchFilter, printer: WatchPrinter,
    start: Bool
  ) throws -> WatchLink {
    let (end, finished) = AsyncStream.makeStream(of: Void.self)
    let handlers = DaemonConnection.Handlers(
      notification: { printer.print($0) }, closed: { finished.finish() })
    let client =
      start
      ? try LiveClient.connect(options, handlers: handlers)
      : try DaemonConnection(
        socketPath: options.socketPath, handlers: handlers,
        requestTimeout: try options.requestTimeout())
    do {
      let reply = try LiveClient.request(
        .watch(filter), on: client, socketPath: options.socketPath)
      if let error = reply.error { throw LiveCommandError(error: error) }
    } catch {
      client.close()
      throw error
    }
    return WatchLink(client: client, end: end)
  }

  /// Waits for a daemon on the same socket and subscribes again, retrying with
  /// ``ReconnectBackoff`` (50 ms, up to once a second) until it answers; a daemon that refuses
  /// the watch is an error. Notifications are held back until the caller releases them.
  static func reopen(
    _ options: LiveConnectionOptions, filter: DaemonRequest.WatchFilter, printer: WatchPrinter
  ) async throws -> WatchLink {
    printer.hold()
    var backoff = ReconnectBackoff()
    while true {
      try await Task.sleep(for: backoff.nextDelay())
      do {
        return try open(options, filter: filter, printer: printer, start: false)
      } catch let error as LiveCommandError {
        throw error
      } catch {
        continue
      }
    }
  }
}
