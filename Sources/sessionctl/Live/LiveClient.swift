import AudioSession
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Connects the live commands to the daemon, starting one when none answers (product.md
/// "Commands"), unless `AUDIOSESSION_AUTOSTART=0`.
enum LiveClient {
  /// The environment variable that, set to `0`, stops live commands from starting a daemon.
  static let autostartVariable = "AUDIOSESSION_AUTOSTART"

  /// How long a started daemon has to answer.
  static let startTimeout: Duration = .seconds(5)

  /// A connection to the daemon on `socketPath`; if none answers, one is started there and the
  /// user is told which (on standard error).
  static func connect(
    socketPath: String, handlers: DaemonConnection.Handlers = .init()
  ) throws -> DaemonConnection {
    do {
      return try DaemonConnection(socketPath: socketPath, handlers: handlers)
    } catch {
      let environment = ProcessInfo.processInfo.environment
      guard environment[autostartVariable] != "0" else {
        throw DaemonNotRunning(socketPath: socketPath, reason: error.description)
      }
    }
    let started = try DaemonLauncher.start(socketPath: socketPath, timeout: startTimeout)
    FileHandle.standardError.write(Data((started.announcement + "\n").utf8))
    return try DaemonConnection(socketPath: socketPath, handlers: handlers)
  }
}

/// No daemon answers, and live commands may not start one.
struct DaemonNotRunning: Error, CustomStringConvertible {
  var socketPath: String
  var reason: String

  var description: String {
    """
    no audio session daemon answers on '\(socketPath)' (\(reason)). Start one with \
    'sessionctl daemon --socket \(socketPath) &' (or 'systemctl --user start audiosession' with \
    contrib/audiosession.service installed), or unset \(LiveClient.autostartVariable) so that live \
    commands start it themselves.
    """
  }
}
