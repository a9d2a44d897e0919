import AudioSession
import AudioSessionDaemon
import AudioSessionHost
import AudioSessionSystem
import Logging

#if canImport(Glibc)
  import Glibc
#endif

/// Starting and stopping the daemon process.
enum DaemonHost {
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
      // Nothing waits for the stop here: the daemon's run ends once the server has stopped.
      Task { await server.stop() }
    }
  }

  /// The write end of the signal pipe, for the signal handler (which cannot capture context).
  nonisolated(unsafe) static var signalPipe: Int32 = -1
}
