import ArgumentParser
import AudioSessionCore
import AudioSessionDaemon
import AudioSessionHost
import AudioSessionSystem
import AudioSessionWire
import Dispatch
import FoundationEssentials
import Logging

#if canImport(Glibc)
  import Glibc
#endif

extension Sessionctl {
  /// `sessionctl daemon [--backend pulse|simulated] [--spawn-server] [--server-kind KIND]
  /// [--socket PATH] [--log-level LEVEL]`.
  struct Daemon: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "daemon",
      abstract: "Runs the audio session daemon, which holds every session and arbitrates them.",
      discussion: """
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
        """)

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

    func validate() throws {
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

    func run() async throws {
      // Before anything else: without the backend linked in, sessionctl-pulse takes over here.
      if backend == .pulse { _ = try PulseLink.required() }
      let socketPath = connection.socketPath
      let environment = ProcessInfo.processInfo.environment
      let logger = DaemonLogging.logger(
        level: try logLevel?.level ?? DaemonLogging.level(environment: environment),
        environment: environment)
      // The socket's folder: no other user may plant files there (issue 25 item 1).
      if case .fixed(let mode) = try DaemonLock.prepareFolder(socketPath: socketPath) {
        logger.warning(
          """
          the socket's folder '\(SafeFile.folder(of: socketPath))' was open to other users (mode \
          \(String(mode, radix: 8))); it is the daemon's own, and is now 0700
          """)
      }
      // First of all, so that no second daemon starts on this socket while this one loads its
      // policies or reaches its server, and live commands wait for this one.
      let lock = try DaemonLock.acquire(socketPath: socketPath)
      // Each client is a descriptor: take all the system allows (issue 25 item 4).
      let descriptors = DescriptorLimit.raiseSoftToHard()
      if descriptors.after.soft > descriptors.before.soft {
        logger.info(
          "raised the open-file limit from \(descriptors.before.soft) to \(descriptors.after.soft)")
      }
      let limits = DaemonLimits.standard(
        maxConnections: maxConnections, descriptors: descriptors.after.soft)
      if maxConnections == nil, limits.maxConnections < DaemonLimits.defaultMaxConnections {
        logger.warning(
          """
          serving at most \(limits.maxConnections) clients: the open-file limit is \
          \(descriptors.after.soft) (raise it with LimitNOFILE= in the service or ulimit -n)
          """)
      }
      let loaded = try policy.load()
      // apps.json's rules as setCategory will judge them, said once here rather than for every
      // stream a bad rule matches (issue 25 item 7).
      for problem in loaded.policy.appRuleProblems().failed {
        logger.warning(
          "\(problem); the streams it matches stay soloAmbient ('sessionctl policy check')")
      }
      if backend == .pulse,
        !FileManager.default.fileExists(
          atPath: loaded.directory + "/" + PolicyLoader.appsFileName)
      {
        logger.warning(
          """
          \(loaded.directory) has no \(PolicyLoader.appsFileName): other programs' streams are not \
          arbitrated (docs/apps.md "Rules")
          """)
      }
      // The engine's thread, shared with the backend so that a change on the server reaches
      // the engine with no thread switch in between. Once start-up, and later each burst of
      // work, is over and the thread has had nothing to do for a while, the code that ran need
      // not stay resident (docs/modules.md "What sessionctl links").
      let engine = DedicatedThreadExecutor(
        name: "audiosession-engine",
        whenQuiet: .init(after: ResidentCode.quietSeconds) { [logger] in
          let trimmed = ResidentCode.trim()
          // And the heap's free pages: what a burst allocated and let go of (issue 25 item 4).
          HeapTrim.trim()
          logger.debug(
            "quiet: released the resident pages of \(trimmed.executableMappings) code and \(trimmed.readOnlyMappings) read-only mappings"
          )
        })
      signal(SIGPIPE, SIG_IGN)
      // Other programs' players: only where other programs' streams are arbitrated.
      let players =
        backend == .pulse && mpris
        ? PulseLink.support?.makePlayers(environment: environment, logger: logger) : nil
      // The user's server may not answer yet (a unit started before it): wait for it.
      let wait = ServerWait(retrying: backend == .pulse && !spawnServer, logger: logger)
      let (core, audioBackend) = try await wait.core {
        () throws -> (DaemonCore, any AudioBackend) in
        let audioBackend = try backend.makeBackend(
          policyDirectory: loaded.directory, spawn: spawnServer ? serverKind.kind : nil,
          logger: logger, executor: engine,
          changesFile: WireProtocol.defaultChangesPath(socketPath: socketPath))
        let core = try await DaemonHost.makeCore(
          policy: loaded.policy, backend: audioBackend,
          statePath: state ?? WireProtocol.defaultStatePath(socketPath: socketPath),
          logger: logger, executor: engine, players: players)
        return (core, audioBackend)
      }
      let server = try await DaemonHost.serve(
        core, socketPath: socketPath, lock: lock, limits: limits, logger: logger)
      logger.info(
        """
        listening on \(socketPath) (pid \(getpid()), \(audioBackend.name) backend, profile \
        '\(loaded.policy.profile.name)', policies \(loaded.directory))
        """)
      // Under systemd (Type=notify): the unit is started once the socket answers.
      ServiceNotification.ready(
        status: "listening on \(socketPath) (\(audioBackend.name) backend)")
      if let spawned = await PulseLink.support?.privateServer(of: audioBackend) {
        logger.info(
          """
          started a private server in \(spawned.folder), stopped with the daemon; \
          clients reach it with PULSE_SERVER=\(spawned.server)
          """)
      }
      server.core.startPlayers()
      DaemonHost.stopOnSignals(server, logger: logger)
      await server.waitUntilClosed()
      // The listener closes early in a stop: wait for the rest of it (the backend, a private
      // server) before the process exits.
      await server.stop()
    }
  }
}

/// The daemon's log: a ``DaemonLogHandler`` on standard error, built only by `sessionctl daemon`
/// (the other commands never set logging up).
enum DaemonLogging {
  /// Chooses the level when --log-level is not given.
  static let levelVariable = "AUDIOSESSION_LOG_LEVEL"

  /// The level `AUDIOSESSION_LOG_LEVEL` names, else info.
  static func level(environment: [String: String]) throws -> Logger.Level {
    guard let value = environment[levelVariable], !value.isEmpty else { return .info }
    guard let level = Logger.Level(rawValue: value.lowercased()) else {
      throw ValidationError(
        "\(levelVariable) is '\(value)'; use one of "
          + Logger.Level.allCases.map(\.rawValue).joined(separator: ", "))
    }
    return level
  }

  static func logger(level: Logger.Level, environment: [String: String]) -> Logger {
    let journal = DaemonLogHandler.standardErrorIsJournal(environment: environment)
    var logger = Logger(label: "sessionctl.daemon") { _ in
      DaemonLogHandler(prefix: "sessionctl daemon", level: level, journal: journal)
    }
    logger.logLevel = level
    return logger
  }
}

/// A `--log-level` value: swift-log's levels, by name.
enum LogLevelChoice: String, CaseIterable, ExpressibleByArgument {
  case trace, debug, info, notice, warning, error, critical

  var level: Logger.Level { Logger.Level(rawValue: rawValue) ?? .info }
}

/// Starting and stopping the daemon process.
enum DaemonHost {
  static func start(
    policy: Policy, backend: any AudioBackend, socketPath: String, statePath: String,
    lock: DaemonLock, limits: DaemonLimits = .standard(), logger: Logger,
    executor: DedicatedThreadExecutor? = nil, players: (any MediaPlayerControl)? = nil
  ) async throws -> DaemonServer {
    let core = try await makeCore(
      policy: policy, backend: backend, statePath: statePath, logger: logger, executor: executor,
      players: players)
    return try await serve(core, socketPath: socketPath, lock: lock, limits: limits, logger: logger)
  }

  /// The daemon's core on its backend, which is started (and reaches its server) here.
  static func makeCore(
    policy: Policy, backend: any AudioBackend, statePath: String, logger: Logger,
    executor: DedicatedThreadExecutor? = nil, players: (any MediaPlayerControl)? = nil
  ) async throws(SessionError) -> DaemonCore {
    try await DaemonCore(
      policy: policy, backend: backend, stateFile: statePath,
      identity: DaemonCore.Identity(pid: getpid(), profile: policy.profile.name),
      executor: executor, logger: logger, players: players)
  }

  /// Serves `core` on the socket; if that fails, the core stops (and its backend's private
  /// server, if it started one).
  static func serve(
    _ core: DaemonCore, socketPath: String, lock: DaemonLock, limits: DaemonLimits = .standard(),
    logger: Logger
  ) async throws -> DaemonServer {
    do {
      return try await DaemonServer.start(
        core: core, socketPath: socketPath, lock: lock, limits: limits, logger: logger)
    } catch {
      await core.shutdown()
      throw error
    }
  }

  /// Stops the server (removing its socket) on SIGTERM or SIGINT.
  ///
  /// The handler only writes a byte to a pipe; a thread blocked reading it stops the server. (A
  /// Dispatch signal source would do, but the Dispatch manager thread it needs wakes up once a
  /// second, and an idle daemon should not wake at all.)
  static func stopOnSignals(_ server: DaemonServer, logger: Logger) {
    var ends: [Int32] = [0, 0]
    pipe(&ends)
    signalPipe = ends[1]
    for number in [SIGTERM, SIGINT] {
      signal(number) { _ in
        var byte: UInt8 = 1
        _ = write(DaemonHost.signalPipe, &byte, 1)
      }
    }
    let reader = ends[0]
    SystemThread.detach(name: "audiosession-signals") {
      var byte: UInt8 = 0
      while read(reader, &byte, 1) < 0, errno == EINTR {}
      logger.info("stopping")
      ServiceNotification.stopping()
      let done = DispatchSemaphore(value: 0)
      Task {
        await server.stop()
        done.signal()
      }
      done.wait()
    }
  }

  /// The write end of the signal pipe, for the signal handler (which cannot capture context).
  nonisolated(unsafe) static var signalPipe: Int32 = -1
}
