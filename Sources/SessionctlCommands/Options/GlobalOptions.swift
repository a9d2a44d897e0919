import ArgumentParser
import AudioSession
import AudioSessionWire
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// Where the policy tables come from and which profile of them applies.
struct PolicyOptions: ParsableArguments {
  @Option(
    name: .customLong("policies"),
    help: ArgumentHelp(
      "The policy directory to load.",
      discussion: """
        Default: $AUDIOSESSION_POLICIES, else $XDG_CONFIG_HOME/audiosession/policies \
        (~/.config/audiosession/policies), else the directory installed with sessionctl \
        (../share/audiosession/policies from its bin/), else, for a build run from its source \
        checkout, that checkout's policies/. The current directory is not searched.
        """,
      valueName: "dir"))
  var directory: String?

  @Option(
    help: ArgumentHelp(
      "The policy profile to apply (see 'sessionctl policy show').", valueName: "name"))
  var profile: String?
}

extension PolicyOptions {
  /// A policy directory that loaded without problems, with the selected profile applied.
  struct Loaded {
    var directory: String
    var policy: Policy
  }

  /// Why the policy tables could not be used.
  enum LoadError: Error, CustomStringConvertible {
    case notFound(PolicyLoader.Search)
    case invalid(directory: String, PolicyValidationError)

    var description: String {
      switch self {
      case .notFound(let search):
        return """
          No policy directory found. Without --policies DIR, sessionctl looked in:
          \(search.report)
          Pass --policies DIR or set \(PolicyLoader.environmentVariable)=DIR, copy the shipped \
          policies to ~/.config/\(PolicyLoader.userDirectorySuffix), or reinstall sessionctl \
          (make install) so that its policies are installed beside it.
          """
      case .invalid(let directory, let error):
        let count = error.problems.count
        let noun = count == 1 ? "problem" : "problems"
        return "Policy directory '\(directory)' has \(count) \(noun):\n\(error)"
      }
    }
  }

  /// Loads the policy directory (`directory` overrides `--policies`) and selects `--profile`.
  ///
  /// - Throws: ``LoadError`` when no directory is found or it has problems; `SessionError` for an
  ///   unknown profile.
  func load(directory override: String? = nil) throws -> Loaded {
    let directory: String
    if let explicit = override ?? self.directory {
      directory = explicit
    } else {
      let search = PolicyLoader.search()
      guard let found = search.directory else { throw LoadError.notFound(search) }
      directory = found
    }
    let table: PolicyTable
    do {
      table = try PolicyLoader.load(directory: directory)
    } catch {
      throw LoadError.invalid(directory: directory, error)
    }
    return Loaded(directory: directory, policy: try Policy(table: table, profile: profile))
  }
}

/// `--socket PATH`: where the daemon listens.
struct ConnectionOptions: ParsableArguments {
  @Option(
    name: .customLong("socket"),
    help: ArgumentHelp(
      "The daemon's socket.",
      discussion: "Default: $AUDIOSESSION_SOCKET, else $XDG_RUNTIME_DIR/audiosession/daemon.sock.",
      valueName: "path"))
  var path: String?

  /// The socket to use: `--socket`, else `AUDIOSESSION_SOCKET`, else the default.
  var socketPath: String { LiveEndpoint.socketPath(explicit: path) }
}

/// `--socket PATH` and `--timeout SECONDS`: how a live command reaches the daemon.
struct LiveConnectionOptions: ParsableArguments {
  /// The environment variable that sets the request timeout when `--timeout` is not given.
  static let timeoutVariable = "AUDIOSESSION_TIMEOUT"

  @OptionGroup var socket: ConnectionOptions

  @Option(
    name: .customLong("timeout"),
    help: ArgumentHelp(
      "How long to wait for the daemon's answer, in seconds.",
      discussion: "Default: $AUDIOSESSION_TIMEOUT, else 5.", valueName: "seconds"))
  var seconds: Double?

  /// The socket to use: `--socket`, else `AUDIOSESSION_SOCKET`, else the default.
  var socketPath: String { socket.socketPath }

  /// What was given, as plain values.
  var endpoint: LiveEndpoint { LiveEndpoint(socket: socket.path, seconds: seconds) }

  func validate() throws {
    if let seconds, !Self.isUsable(seconds) {
      throw ValidationError("--timeout must be \(Self.validRange)")
    }
  }

  /// How long a request may wait: `--timeout`, else `AUDIOSESSION_TIMEOUT`, else 5 seconds.
  ///
  /// - Throws: ``InvalidTimeout`` when `AUDIOSESSION_TIMEOUT` is not a usable number of seconds.
  func requestTimeout(environment: [String: String]? = nil) throws -> Duration {
    try endpoint.requestTimeout(environment: environment)
  }

  /// The timeouts accepted, for messages.
  static let validRange = "a number of seconds greater than 0 and at most 86400, such as 5 or 0.5"

  static func isUsable(_ seconds: Double) -> Bool {
    seconds.isFinite && seconds > 0 && seconds <= 86_400
  }

  /// Seconds as a duration, rounded up to the millisecond.
  static func duration(_ seconds: Double) -> Duration {
    .milliseconds(Int64((seconds * 1000).rounded(.up)))
  }

  /// `AUDIOSESSION_TIMEOUT` holds something that is not a usable timeout.
  struct InvalidTimeout: Error, CustomStringConvertible {
    var value: String

    var description: String {
      """
      \(LiveConnectionOptions.timeoutVariable)='\(value)' is not a usable timeout: set it to \
      \(LiveConnectionOptions.validRange), or unset it to wait 5 seconds.
      """
    }
  }
}
