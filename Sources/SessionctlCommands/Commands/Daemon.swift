public import ArgumentParser
public import AudioSession
import AudioSessionWire
import FoundationEssentials
public import Logging

#if canImport(Glibc)
  import Glibc
#endif

/// The daemon's options, read the same way by `sessionctl daemon` and by the daemon program,
/// `audiosessiond`, which runs the daemon (docs/modules.md "What sessionctl links").
public struct DaemonOptions: ParsableArguments {
  /// The daemon's one-line description, in both programs' help.
  public static let abstract =
    "Runs the audio session daemon, which holds every session and arbitrates them."

  /// What the daemon does, in both programs' help and manual pages.
  public static let discussion = """
    The daemon listens on a Unix socket (folder 0700, socket 0600) for the live commands \
    and for apps using the AudioSession library, and serves only the user who runs it. It \
    refuses a socket folder that another user owns or may write to (its own default folder \
    it makes 0700 again). The sessions named with --session on the command line are kept in \
    the state file and come back, inactive, when the daemon restarts; a state file it cannot \
    read is moved aside (sessions.json.bad-TIME), never written over. It runs until SIGTERM \
    or SIGINT.

    Before anything else the daemon takes the lock file beside its socket (daemon.sock.lock) \
    and writes its pid there; it holds it until it stops. A second daemon on the same socket \
    refuses to start and names the first one's pid, and a live command that finds a daemon \
    still starting waits for it instead of starting another.

    With --backend pulse --spawn-server the daemon starts a private PulseAudio server of its \
    own (its own runtime folder, the policy's built-in devices as virtual devices) and stops \
    it when it stops; 'simulate server-restart' restarts that server. Without \
    --spawn-server it uses the user's server and cannot restart it. When that server does \
    not answer yet, the daemon waits for it instead of exiting: it logs the address it \
    tried and tries again after 0.1 s, then twice as long each time, up to every 5 s; it \
    listens once the server answers.

    Under systemd (Type=notify) the daemon says it is ready once it listens, and what it \
    waits for until then (sd_notify: READY=1, STATUS=).

    The daemon logs to standard error, one line per event, from --log-level up (default \
    info, or $AUDIOSESSION_LOG_LEVEL): warnings and errors say their level, and metadata \
    (session, pid, server) follows in braces. Under systemd each line carries its syslog \
    priority, so the journal keeps the level (journalctl --user -u audiosession -p warning).

    With --backend pulse the daemon also watches the media players on the D-Bus session bus \
    (MPRIS, $DBUS_SESSION_BUS_ADDRESS): a player whose app session is interrupted or paused \
    gets Pause, and Play when the interruption ends with shouldResume, if the daemon paused \
    it (docs/mpris.md). Without a session bus players are only muted.

    On a desktop, --profile linuxDesktop is the default profile made better than iOS where \
    iOS is known to be wrong: headphones pulled out during a call, the call's end does not \
    tell the music to resume on the speaker (policies/README.md).
    """

  public init() {}

  @Option(
    help: ArgumentHelp(
      "The backend that provides devices and applies decisions.",
      discussion: "pulse: the server PULSE_SERVER or $XDG_RUNTIME_DIR/pulse/native names."))
  var backend: BackendChoice = .simulated

  @Flag(
    help: ArgumentHelp(
      "With --backend pulse: start a private server the daemon owns, stopped with it.",
      discussion: "Needed for 'simulate server-restart'; never touches the user's server."))
  var spawnServer = false

  @Option(help: "The private server --spawn-server starts.")
  var serverKind: ServerKind = .pulseaudio

  @OptionGroup var connection: ConnectionOptions

  @Option(
    help: ArgumentHelp(
      "The state file for the daemon's own sessions.",
      discussion: """
        Default: beside the socket, named after it: sessions.json for daemon.sock, \
        NAME.sessions.json for NAME.sock.
        """, valueName: "path"))
  var state: String?

  @OptionGroup var policy: PolicyOptions

  @Flag(
    inversion: .prefixedNo,
    help: ArgumentHelp(
      "With --backend pulse: pause and play other programs' media players over MPRIS.",
      discussion: "--no-mpris leaves them playing, muted (docs/mpris.md)."))
  var mpris = true

  @Option(
    help: ArgumentHelp(
      "The least severe events the daemon logs.",
      discussion: "Default: $\(DaemonLogging.levelVariable), else info.", valueName: "level"))
  var logLevel: LogLevelChoice?

  @Option(
    help: ArgumentHelp(
      "The most clients the daemon serves at once; the next one is refused with a reason.",
      discussion: """
        Default: 1024, or fewer when the open-file limit leaves fewer descriptors after 64 \
        kept for the daemon itself. The daemon first raises its soft open-file limit to the \
        hard one.
        """,
      valueName: "count"))
  var maxConnections: Int?

  public func validate() throws {
    if let maxConnections, maxConnections < 1 {
      throw ValidationError("--max-connections must be at least 1, such as 1024")
    }
    if spawnServer, backend != .pulse {
      throw ValidationError(
        "--spawn-server starts a server for the PulseAudio backend; add --backend pulse")
    }
    if logLevel == nil {
      _ = try DaemonLogging.level(environment: ProcessInfo.processInfo.environment)
    }
    if serverKind != .pulseaudio, !spawnServer {
      throw ValidationError(
        "--server-kind chooses the server --spawn-server starts; add --spawn-server")
    }
  }

  /// The socket it serves: `--socket`, else `AUDIOSESSION_SOCKET`, else the default.
  public var socketPath: String { connection.socketPath }
  /// Whether it runs on the PulseAudio backend.
  public var usesPulse: Bool { backend == .pulse }
  /// The private server `--spawn-server` asks for, if it does.
  public var spawn: PulseServerKind? { spawnServer ? serverKind.kind : nil }
  /// The state file: `--state`, else beside the socket.
  public var statePath: String { state ?? WireProtocol.defaultStatePath(socketPath: socketPath) }
  /// Whether it pauses and plays other programs' media players (MPRIS).
  public var watchesPlayers: Bool { backend == .pulse && mpris }
  /// `--max-connections`, if given.
  public var maximumConnections: Int? { maxConnections }

  /// The log level: `--log-level`, else `AUDIOSESSION_LOG_LEVEL`, else info.
  public func level(environment: [String: String]) throws -> Logger.Level {
    try logLevel?.level ?? DaemonLogging.level(environment: environment)
  }

  /// The policies, found as every command finds them, with `--profile` applied.
  public func loadPolicies() throws -> (policy: Policy, directory: String) {
    let loaded = try policy.load()
    return (loaded.policy, loaded.directory)
  }

  /// The backend `--backend` names, with `pulse.json` from `policyDirectory`.
  public func makeBackend(
    policyDirectory: String, support: any PulseSupport, logger: Logger,
    executor: any TaskExecutor
  ) throws -> any AudioBackend {
    try backend.makeBackend(
      policyDirectory: policyDirectory, spawn: spawn, support: support, logger: logger,
      executor: executor, changesFile: WireProtocol.defaultChangesPath(socketPath: socketPath))
  }
}

extension Sessionctl {
  /// `sessionctl daemon [OPTIONS]`: the daemon program, `audiosessiond OPTIONS`, run in this
  /// process's place once the options are read (docs/modules.md "What sessionctl links").
  struct Daemon: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "daemon", abstract: DaemonOptions.abstract,
      discussion: DaemonOptions.discussion + """


        sessionctl daemon runs the daemon program, audiosessiond, with the same options in its \
        place (same process): the one installed beside sessionctl, else the first on PATH.
        """)

    @OptionGroup var options: DaemonOptions

    func run() throws {
      // Read and checked as the daemon program reads them: a mistake is said here, in
      // sessionctl's words. The daemon program gets the words after `daemon`.
      var arguments = CommandLineWords.normalized(Array(CommandLine.arguments.dropFirst()))
      if arguments.first == "daemon" { arguments.removeFirst() }
      try DaemonProgram.exec(arguments)
    }
  }
}

/// The daemon's log level: `--log-level`, else `AUDIOSESSION_LOG_LEVEL`, else info. The log itself
/// is the daemon program's (`audiosessiond`).
public enum DaemonLogging {
  /// Chooses the level when --log-level is not given.
  public static let levelVariable = "AUDIOSESSION_LOG_LEVEL"

  /// The level `AUDIOSESSION_LOG_LEVEL` names, else info.
  public static func level(environment: [String: String]) throws -> Logger.Level {
    guard let value = environment[levelVariable], !value.isEmpty else { return .info }
    guard let level = Logger.Level(rawValue: value.lowercased()) else {
      throw ValidationError(
        "\(levelVariable) is '\(value)'; use one of "
          + Logger.Level.allCases.map(\.rawValue).joined(separator: ", "))
    }
    return level
  }
}

/// A `--log-level` value: swift-log's levels, by name.
enum LogLevelChoice: String, CaseIterable, ExpressibleByArgument {
  case trace, debug, info, notice, warning, error, critical

  var level: Logger.Level { Logger.Level(rawValue: rawValue) ?? .info }
}
