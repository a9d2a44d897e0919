import AudioSession
import AudioSessionSystem
import AudioSessionWire
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// Connects the live commands to the daemon, starting one when none answers (docs/contract.md
/// "Commands"), unless `AUDIOSESSION_AUTOSTART=0`; and sends their requests, each waiting at
/// most the request timeout (`--timeout`, `AUDIOSESSION_TIMEOUT`, 5 s).
enum LiveClient {
  /// The environment variable that, set to `0`, stops live commands from starting a daemon.
  static let autostartVariable = "AUDIOSESSION_AUTOSTART"

  /// How long a started daemon has to answer.
  static let startTimeout: Duration = .seconds(5)

  /// A connection to the daemon on `options`' socket. If none answers but one is starting there
  /// (it holds the socket's lock, or a `sessionctl daemon` process for that socket has just
  /// started), this waits for it, at most the request timeout; if none is, one is started there
  /// and the user is told which (on standard error).
  static func connect(
    _ options: LiveConnectionOptions, handlers: DaemonConnection.Handlers = .init()
  ) throws -> DaemonConnection {
    try connect(options.endpoint, handlers: handlers)
  }

  /// A connection to the daemon at `endpoint`, as ``connect(_:handlers:)-(LiveConnectionOptions,_)``
  /// makes it. With `readingOnCaller`, the connection starts no reader thread: replies are read
  /// while a request waits, on its thread (a one-shot command, which wants no notification).
  static func connect(
    _ endpoint: LiveEndpoint, handlers: DaemonConnection.Handlers = .init(),
    readingOnCaller: Bool = false
  ) throws -> DaemonConnection {
    let socketPath = endpoint.socketPath
    // A path no socket can have: say so, rather than start a daemon that cannot listen there.
    _ = try UnixSocketAddress(path: socketPath)
    let timeout = try endpoint.requestTimeout()
    let open = { () throws(ConnectionFailure) -> DaemonConnection in
      try DaemonConnection(
        socketPath: socketPath, handlers: handlers, requestTimeout: timeout,
        readingOnCaller: readingOnCaller)
    }
    let failure: ConnectionFailure
    do {
      return try open()
    } catch {
      // Another user's process listens there: say so, start nothing.
      if error.isUntrusted { throw error }
      failure = error
    }
    if let connection = try waitForStartingDaemon(socketPath: socketPath, timeout: timeout, open) {
      return connection
    }
    guard LiveEndpoint.environmentValue(autostartVariable) != "0" else {
      throw DaemonNotRunning(socketPath: socketPath, reason: failure.description)
    }
    let started = try DaemonLauncher.start(socketPath: socketPath, timeout: startTimeout)
    if let announcement = started.announcement {
      StandardStreams.writeError(announcement + "\n")
    }
    return try open()
  }

  /// A connection to the daemon that runs on `options`' socket (or one starting there, waited
  /// for as ``connect(_:handlers:)-(LiveConnectionOptions,_)`` does), never starting one: what
  /// `sessionctl record` asks for is what a running daemon saw.
  static func connectToRunning(_ options: LiveConnectionOptions) throws -> DaemonConnection {
    let socketPath = options.socketPath
    _ = try UnixSocketAddress(path: socketPath)
    let timeout = try options.requestTimeout()
    let open = { () throws(ConnectionFailure) -> DaemonConnection in
      try DaemonConnection(socketPath: socketPath, requestTimeout: timeout)
    }
    let failure: ConnectionFailure
    do {
      return try open()
    } catch {
      if error.isUntrusted { throw error }
      failure = error
    }
    if let connection = try waitForStartingDaemon(socketPath: socketPath, timeout: timeout, open) {
      return connection
    }
    throw NoDaemonToRecord(socketPath: socketPath, reason: failure.description)
  }

  /// Waits, at most `timeout`, for a daemon that is starting on the socket to answer; nil when
  /// none is starting there.
  static func waitForStartingDaemon(
    socketPath: String, timeout: Duration,
    _ open: () throws(ConnectionFailure) -> DaemonConnection
  ) throws -> DaemonConnection? {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    var lockHolder: Int32?
    var heldLock = false
    var starting: [pid_t]?
    // A daemon started in the background a moment ago (`sessionctl daemon &` and the next line
    // of a script) may still be its shell's fork, before its exec: look again a few times.
    var graceLooks = 3
    while true {
      let holder = DaemonLockFile.holder(socketPath: socketPath)
      if case .daemon(let pid) = holder {
        heldLock = true
        lockHolder = pid ?? lockHolder
      } else {
        // Not (or no longer) locked: a daemon process that has not taken the lock yet?
        starting = (starting ?? StartingDaemons.on(socketPath)).filter(StartingDaemons.isAlive)
        if starting?.isEmpty != false, !heldLock, graceLooks > 0 {
          graceLooks -= 1
          starting = nil
          usleep(20_000)
          continue
        }
        if starting?.isEmpty != false {
          // None: if one held the lock, it stopped before it answered (one more try, in case
          // it answered and then stopped).
          guard heldLock else { return nil }
          if let connection = try? open() { return connection }
          throw DaemonStartedAndExited(socketPath: socketPath, pid: lockHolder)
        }
      }
      if let connection = try? open() { return connection }
      guard clock.now < deadline else {
        throw DaemonStillStarting(
          socketPath: socketPath, pid: lockHolder ?? starting?.first, locked: heldLock,
          timeout: timeout)
      }
      usleep(10_000)
    }
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

/// `sessionctl record` found no daemon: there is nothing to record.
struct NoDaemonToRecord: Error, CustomStringConvertible {
  var socketPath: String
  var reason: String

  var description: String {
    """
    there is nothing to record: \(reason). A daemon records what it sees from the moment it \
    starts: start one ('sessionctl daemon --socket \(socketPath) &', or any live command starts \
    it), let what you want to report happen, then run 'sessionctl record' again. Nothing was \
    written.
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
    SECONDS or \(LiveConnectionOptions.timeoutVariable). The daemon does not run a command it \
    reaches after that, but one it had started may still take effect: check with 'sessionctl \
    status' before you repeat it.
    """
  }
}

/// A daemon holds the socket's lock but has not answered on the socket within the timeout.
struct DaemonStillStarting: Error, CustomStringConvertible {
  var socketPath: String
  var pid: Int32?
  /// Whether it holds the socket's lock (else it is a process that has not taken it yet).
  var locked: Bool
  var timeout: Duration

  var description: String {
    let who = pid.map { "the audio session daemon (pid \($0))" } ?? "an audio session daemon"
    let stop =
      pid.map { "stop it ('kill \($0)') and start it again" } ?? "stop it and start it again"
    let state =
      locked
      ? "holds '\(DaemonLockFile.path(socketPath: socketPath))'"
      : "was started for '\(socketPath)'"
    return """
      \(who) \(state) but did not answer on \
      '\(socketPath)' within \(DaemonConnection.describe(timeout)): it is still starting (a \
      PulseAudio backend reaches its server first) or is stuck. Wait and try again (or allow \
      longer with --timeout SECONDS), look at its output or log ('journalctl --user -u \
      audiosession' when it runs as the systemd unit), or \(stop).
      """
  }
}

/// The daemon that held the socket's lock exited before it answered.
struct DaemonStartedAndExited: Error, CustomStringConvertible {
  var socketPath: String
  var pid: Int32?

  var description: String {
    let who = pid.map { "the audio session daemon (pid \($0))" } ?? "an audio session daemon"
    return """
      \(who) that was starting on '\(socketPath)' exited before it answered. Start it yourself \
      with 'sessionctl daemon --socket \(socketPath)' to see why.
      """
  }
}
