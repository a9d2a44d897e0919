import AudioSession
import AudioSessionSystem
public import Logging

/// How the daemon waits for the user's sound server when it does not answer at start-up (a unit
/// started before the server, a server restarting): it tries again, waiting ``first`` and then
/// twice as long each time up to ``longest``, instead of exiting (docs/install.md "The service").
///
/// The first failure is a warning with the address tried (the backend's error names it), each
/// later one a debug line with the attempt's number, and the connection, once made, a notice;
/// under systemd the unit's status line says what the daemon waits for. A daemon with a private
/// server (`--spawn-server`) or on the simulated backend has nothing to wait for: there any
/// failure stops it.
public struct ServerWait: Sendable {
  /// The delay before the second attempt.
  public static let first: Duration = .milliseconds(100)
  /// The longest delay between attempts.
  public static let longest: Duration = .seconds(5)

  /// Whether a server that does not answer is waited for.
  public let retrying: Bool
  let logger: Logger
  let delays: (first: Duration, longest: Duration)

  public init(
    retrying: Bool, logger: Logger, first: Duration = Self.first, longest: Duration = Self.longest
  ) {
    self.retrying = retrying
    self.logger = logger
    self.delays = (first, longest)
  }

  /// Runs `attempt` until it returns. A `mediaServicesFailed` error (the server does not answer)
  /// is waited out when ``retrying``; any other error, and every error otherwise, is thrown.
  public func core<Value>(_ attempt: () async throws -> Value) async throws -> Value {
    var backoff = ReconnectBackoff(first: delays.first, longest: delays.longest)
    var attempts = 0
    var lastProblem: String?
    let clock = ContinuousClock()
    let start = clock.now
    while true {
      attempts += 1
      do {
        let result = try await attempt()
        if attempts > 1 {
          logger.notice(
            "the server answers after \(attempts) attempts in \(Self.seconds(clock.now - start))")
        }
        return result
      } catch let error as SessionError where retrying && error.code == .mediaServicesFailed {
        let delay = backoff.nextDelay()
        if error.message != lastProblem {
          // Said again only when the reason changes: a server that never comes would otherwise
          // fill the journal.
          logger.warning(
            """
            \(error.message). Waiting for it: next attempt in \(Self.seconds(delay)), then each \
            time twice as long, up to every \(Self.seconds(delays.longest))
            """)
          lastProblem = error.message
        } else {
          logger.debug(
            "still no answer; next attempt in \(Self.seconds(delay))",
            metadata: ["attempts": "\(attempts)"])
        }
        ServiceNotification.status(
          "waiting for the sound server (attempt \(attempts)): \(error.message)")
        try await TimerThread.sleep(for: delay)
      }
    }
  }

  /// `1.5 s`, `0.1 s`.
  static func seconds(_ duration: Duration) -> String {
    let milliseconds = duration / .milliseconds(1)
    let tenths = Int((milliseconds / 100).rounded())
    return "\(tenths / 10).\(tenths % 10) s"
  }
}
