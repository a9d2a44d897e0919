import AudioSessionWire

#if canImport(Glibc)
  import Glibc
#endif

/// How a live command reaches the daemon, as plain values: `--socket` and `--timeout` as given
/// (nil when not), whether ArgumentParser read them (``LiveConnectionOptions``) or the one-shot
/// fast path did (``OneShotRequest``).
struct LiveEndpoint: Equatable {
  var socket: String?
  var seconds: Double?

  /// The socket to use: `--socket`, else `AUDIOSESSION_SOCKET`, else the default.
  var socketPath: String { Self.socketPath(explicit: socket) }

  /// `explicit`, else `AUDIOSESSION_SOCKET`, else `$XDG_RUNTIME_DIR/audiosession/daemon.sock`.
  static func socketPath(explicit: String?) -> String {
    WireProtocol.socketPath(
      explicit: explicit,
      environment: environment([
        WireProtocol.socketEnvironmentVariable, WireProtocol.runtimeDirectoryVariable,
      ]),
      userID: getuid())
  }

  /// How long a request may wait: `--timeout`, else `AUDIOSESSION_TIMEOUT` (in `environment`
  /// when one is given, else in the process's environment), else 5 seconds.
  ///
  /// - Throws: ``LiveConnectionOptions/InvalidTimeout`` when `AUDIOSESSION_TIMEOUT` is not a
  ///   usable number of seconds.
  func requestTimeout(environment: [String: String]? = nil) throws -> Duration {
    if let seconds { return LiveConnectionOptions.duration(seconds) }
    let variable = LiveConnectionOptions.timeoutVariable
    let text: String? =
      if let environment { environment[variable] } else { Self.environmentValue(variable) }
    guard let text, !text.isEmpty else { return DaemonConnection.defaultRequestTimeout }
    guard let value = Double(text), LiveConnectionOptions.isUsable(value) else {
      throw LiveConnectionOptions.InvalidTimeout(value: text)
    }
    return LiveConnectionOptions.duration(value)
  }

  /// One variable of the process's environment. `getenv`, not Foundation's
  /// `ProcessInfo.environment`, which copies the whole environment into a dictionary: a
  /// one-shot command reads three variables (docs/modules.md "What sessionctl links").
  static func environmentValue(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
  }

  /// The variables among `names` that are set, as `WireProtocol` takes them.
  static func environment(_ names: [String]) -> [String: String] {
    var values: [String: String] = [:]
    for name in names {
      if let value = environmentValue(name) { values[name] = value }
    }
    return values
  }
}
