import AudioSession
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Connects the live commands to the daemon, starting one when none answers (product.md
/// "Commands"), unless `AUDIOSESSION_AUTOSTART=0`; and sends their requests, each waiting at
/// most the request timeout (`--timeout`, `AUDIOSESSION_TIMEOUT`, 5 s).
enum LiveClient {
  /// The environment variable that, set to `0`, stops live commands from starting a daemon.
  static let autostartVariable = "AUDIOSESSION_AUTOSTART"

  /// How long a started daemon has to answer.
  static let startTimeout: Duration = .seconds(5)

  /// A connection to the daemon on `options`' socket; if none answers, one is started there and
  /// the user is told which (on standard error).
  static func connect(
    _ options: LiveConnectionOptions, handlers: DaemonConnection.Handlers = .init()
  ) throws -> DaemonConnection {
    let socketPath = options.socketPath
    let timeout = try options.requestTimeout()
    do {
      return try DaemonConnection(
        socketPath: socketPath, handlers: handlers, requestTimeout: timeout)
    } catch {
      let environment = ProcessInfo.processInfo.environment
      guard environment[autostartVariable] != "0" else {
        throw DaemonNotRunning(socketPath: socketPath, reason: error.description)
      }
    }
    let started = try DaemonLauncher.start(socketPath: socketPath, timeout: startTimeout)
    FileHandle.standardError.write(Data((started.announcement + "\n").utf8))
    return try DaemonConnection(socketPath: socketPath, handlers: handlers, requestTimeout: timeout)
  }

  /// Sends one request and waits for its reply; a daemon that does not answer in time is a
  /// ``DaemonTimedOut`` that says what to do.
  static func request(
    _ operation: DaemonRequest.Operation, on client: DaemonConnection, socketPath: String
  ) throws -> DaemonReply {
    do {
      return try client.request(operation)
    } catch  where error.isTimeout {
      throw DaemonTimedOut(socketPath: socketPath, timeout: client.requestTimeout)
    }
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

/// The daemon accepted the connection but did not answer within the request timeout.
struct DaemonTimedOut: Error, CustomStringConvertible {
  var socketPath: String
  var timeout: Duration

  var description: String {
    """
    the audio session daemon on '\(socketPath)' did not answer within \
    \(DaemonConnection.describe(timeout)). It may be stuck or overloaded: look at its log \
    ('journalctl --user -u audiosession' when it runs as the systemd unit), restart it (stop the \
    process, then 'sessionctl daemon --socket \(socketPath) &'), or wait longer with --timeout \
    SECONDS or \(LiveConnectionOptions.timeoutVariable).
    """
  }
}
