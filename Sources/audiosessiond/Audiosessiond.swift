import ArgumentParser
import AudioSession
import AudioSessionDaemon
import AudioSessionHost
import AudioSessionSystem
import AudioSessionWire
import FoundationEssentials
import Logging
import SessionctlCommands
import SessionctlPulse

#if canImport(Glibc)
  import Glibc
#endif

/// `audiosessiond [OPTIONS]`: the audio session daemon. `sessionctl daemon OPTIONS` runs it, and
/// the systemd user unit starts it (contrib/audiosession.service).
struct Audiosessiond: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "audiosessiond", abstract: DaemonOptions.abstract,
    discussion: DaemonOptions.discussion + """


      The live commands, the AudioSession library's apps and the systemd unit reach the daemon; \
      'sessionctl daemon OPTIONS' runs this program with the same options. This program also \
      runs, for sessionctl, the two commands that need the PulseAudio backend on the command \
      line: 'sessionctl scenario run FILE --backend pulse' and 'sessionctl policy check' of a \
      directory with pulse.json (docs/modules.md).
      """,
    version: PackageVersion.current)

  @OptionGroup var options: DaemonOptions

  /// The PulseAudio backend and the media players.
  var support: any PulseSupport { LivePulseSupport() }

  func run() async throws {
    let socketPath = options.socketPath
    let environment = ProcessInfo.processInfo.environment
    let logger = DaemonLogging.logger(
      level: try options.level(environment: environment),
      environment: environment)
    // The socket's folder: no other user may plant files there (docs/protocol.md
    // "The socket").
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
    // Each client is a descriptor: take all the system allows (docs/protocol.md "Limits").
    let descriptors = DescriptorLimit.raiseSoftToHard()
    if descriptors.after.soft > descriptors.before.soft {
      logger.info(
        "raised the open-file limit from \(descriptors.before.soft) to \(descriptors.after.soft)")
    }
    let limits = DaemonLimits.standard(
      maxConnections: options.maximumConnections, descriptors: descriptors.after.soft)
    if options.maximumConnections == nil, limits.maxConnections < DaemonLimits.defaultMaxConnections
    {
      logger.warning(
        """
        serving at most \(limits.maxConnections) clients: the open-file limit is \
        \(descriptors.after.soft) (raise it with LimitNOFILE= in the service or ulimit -n)
        """)
    }
    let loaded = try options.loadPolicies()
    // apps.json's rules as setCategory will judge them, said once here rather than for every
    // stream a bad rule matches (docs/apps.md "Rules").
    for problem in loaded.policy.appRuleProblems().failed {
      logger.warning(
        "\(problem); the streams it matches stay soloAmbient ('sessionctl policy check')")
    }
    if options.usesPulse,
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
    // work, is over and the thread has had nothing to do for a while, the heap's free pages go
    // back to the system: what a burst allocated and let go of (docs/protocol.md "Limits").
    let engine = DedicatedThreadExecutor(
      name: "audiosession-engine",
      whenQuiet: .init(after: HeapTrim.quietSeconds) { [logger] in
        let released = HeapTrim.trim()
        logger.debug("quiet: \(released ? "returned" : "had no") free heap pages to the system")
      })
    signal(SIGPIPE, SIG_IGN)
    // Other programs' players: only where other programs' streams are arbitrated.
    let players =
      options.watchesPlayers ? support.makePlayers(environment: environment, logger: logger) : nil
    // The user's server may not answer yet (a unit started before it): wait for it.
    let wait = ServerWait(retrying: options.usesPulse && options.spawn == nil, logger: logger)
    let (core, audioBackend) = try await wait.core {
      () throws -> (DaemonCore, any AudioBackend) in
      let audioBackend = try options.makeBackend(
        policyDirectory: loaded.directory, support: support, logger: logger, executor: engine)
      let core = try await DaemonHost.makeCore(
        policy: loaded.policy, backend: audioBackend,
        statePath: options.statePath,
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
    if let spawned = await support.privateServer(of: audioBackend) {
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

extension DaemonLogging {
  /// The daemon's log: a ``DaemonLogHandler`` on standard error, each line starting
  /// `audiosessiond: `.
  static func logger(level: Logger.Level, environment: [String: String]) -> Logger {
    let journal = DaemonLogHandler.standardErrorIsJournal(environment: environment)
    var logger = Logger(label: "audiosessiond") { _ in
      DaemonLogHandler(prefix: "audiosessiond", level: level, journal: journal)
    }
    logger.logLevel = level
    return logger
  }
}
