import AudioSession
public import AudioSessionHost
import AudioSessionSystem
import AudioSessionWire
public import Logging
import NIOCore
import NIOPosix
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// The daemon's socket: a Unix stream socket (folder 0700, socket 0600) that serves a
/// ``DaemonCore`` to every client of the user who runs it, one newline-delimited JSON message at
/// a time (docs/protocol.md).
///
/// One event-loop thread serves every connection and one thread runs the engine (so it never
/// waits for the cooperative pool); an idle daemon sleeps in `epoll_wait` and a condition wait
/// with no timer, so it makes no periodic wakeups (the engine thread's one timed wait after a
/// burst of work, for its quiet work, ends before the daemon is idle).
public final class DaemonServer: Sendable {
  public let socketPath: String
  public let core: DaemonCore
  private let group: MultiThreadedEventLoopGroup
  private let executor: DedicatedThreadExecutor
  private let listener: any Channel
  private let lock: DaemonLock
  private let outbox: Outbox
  private let gate: ConnectionGate
  /// What the server holds at most.
  public let limits: DaemonLimits
  /// The stop in progress or done, so that every ``stop()`` waits for the same one.
  private let stopping = Mutex<Task<Void, Never>?>(nil)

  private init(
    socketPath: String, core: DaemonCore, group: MultiThreadedEventLoopGroup,
    executor: DedicatedThreadExecutor, listener: any Channel, lock: DaemonLock, outbox: Outbox,
    gate: ConnectionGate, limits: DaemonLimits
  ) {
    self.outbox = outbox
    self.gate = gate
    self.limits = limits
    self.lock = lock
    self.socketPath = socketPath
    self.core = core
    self.group = group
    self.executor = executor
    self.listener = listener
  }

  /// Takes the socket's lock (unless `lock` is that lock, taken earlier), prepares the socket's
  /// folder, removes a stale socket left by a daemon that died, binds the socket and starts
  /// serving. The server releases the lock when it stops (or fails to start).
  ///
  /// - Parameter limits: What it serves at most (default: ``DaemonLimits/standard(maxConnections:descriptors:)``).
  /// - Throws: ``DaemonServerError`` when another daemon holds the lock or answers on the path,
  ///   or the path cannot be used.
  public static func start(
    core: DaemonCore, socketPath: String, lock given: DaemonLock? = nil,
    limits: DaemonLimits = .standard(),
    logger: Logger = Logger(
      label: "audiosession.daemon", factory: { _ in SwiftLogNoOpLogHandler() })
  ) async throws(DaemonServerError) -> DaemonServer {
    let lock: DaemonLock
    if let given { lock = given } else { lock = try DaemonLock.acquire(socketPath: socketPath) }
    do throws(DaemonServerError) {
      return try await serve(
        core: core, socketPath: socketPath, lock: lock, limits: limits, logger: logger)
    } catch {
      lock.release()
      throw error
    }
  }

  private static func serve(
    core: DaemonCore, socketPath: String, lock: DaemonLock, limits: DaemonLimits,
    logger: Logger
  ) async throws(DaemonServerError) -> DaemonServer {
    try SocketFolder.prepare(socketPath: socketPath)
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    let executor = core.executor
    // One event loop, so one outbox and one count serve every connection.
    let outbox = Outbox(loop: group.next(), limits: limits, logger: logger)
    let gate = ConnectionGate(limit: limits.maxConnections)
    let uid = getuid()
    let bootstrap = ServerBootstrap(group: group)
      .serverChannelOption(ChannelOptions.backlog, value: 1024)
      .serverChannelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
          // Out of descriptors, the listening socket stays readable and accept keeps failing:
          // without a pause the loop would spin on it, serving nobody.
          try channel.pipeline.syncOperations.addHandler(
            AcceptBackoff(gate: gate, logger: logger))
        }
      }
      // The replies to a client that closes its sending side still go out (`nc -N`).
      .childChannelOption(ChannelOptions.allowRemoteHalfClosure, value: true)
      .childChannelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
          try channel.pipeline.syncOperations.addHandler(
            ByteToMessageHandler(LineFrameDecoder(limit: WireProtocol.maxMessageBytes)))
          try channel.pipeline.syncOperations.addHandler(
            ConnectionHandler(
              core: core, executor: executor, outbox: outbox, allowedUID: uid, gate: gate,
              logger: logger))
        }
      }
    let listener: any Channel
    do {
      listener = try await bootstrap.bind(unixDomainSocketPath: socketPath).get()
    } catch {
      try? await group.shutdownGracefully()
      throw DaemonServerError.cannotBind(path: socketPath, reason: "\(error)")
    }
    guard chmod(socketPath, 0o600) == 0 else {
      try? await listener.close()
      try? await group.shutdownGracefully()
      throw DaemonServerError.cannotBind(
        path: socketPath, reason: "chmod 0600 failed: \(String(cString: strerror(errno)))")
    }
    return DaemonServer(
      socketPath: socketPath, core: core, group: group, executor: executor, listener: listener,
      lock: lock, outbox: outbox, gate: gate, limits: limits)
  }

  /// Stops accepting, closes every connection, removes the socket, stops the backend and the
  /// core's thread (the backend stops a private server it started), and releases the socket's
  /// lock. Calls after the first wait for the same stop to finish.
  public func stop() async {
    let task = stopping.withLock { current -> Task<Void, Never> in
      if let current { return current }
      let task = Task { await self.shutDown() }
      current = task
      return task
    }
    await task.value
  }

  private func shutDown() async {
    try? await listener.close()
    outbox.close()
    try? await group.shutdownGracefully()
    unlink(socketPath)
    await core.shutdown()
    executor.stop()
    lock.release()
  }

  /// What the server did to stay within its ``limits``, for tests and benchmarks.
  public struct LoadStatistics: Sendable, Equatable {
    /// Bytes of messages written to clients and not yet taken by their sockets.
    public var waitingBytes: Int
    public var peakWaitingBytes: Int
    /// Connections closed because their client had ``DaemonLimits/clientOutboxBytes`` waiting.
    public var closedOverClientLimit: Int
    /// Connections closed because all clients together had too much waiting.
    public var closedOverTotalLimit: Int
    /// Connections refused past ``DaemonLimits/maxConnections``.
    public var refusedConnections: Int
    /// Times the memory freed after a backlog was handed back to the system.
    public var memoryTrims: Int
  }

  public var loadStatistics: LoadStatistics {
    let outbox = outbox.statistics
    return LoadStatistics(
      waitingBytes: outbox.waitingBytes, peakWaitingBytes: outbox.peakBytes,
      closedOverClientLimit: outbox.closedOverClientLimit,
      closedOverTotalLimit: outbox.closedOverTotalLimit, refusedConnections: gate.refused,
      memoryTrims: outbox.trims)
  }

  /// Returns when the listening socket has closed.
  public func waitUntilClosed() async {
    try? await listener.closeFuture.get()
  }
}

/// How the listening socket waits when `accept` fails for want of descriptors (`EMFILE`,
/// `ENFILE`) or memory (`ENOBUFS`, `ENOMEM`): it stops reading the socket for a second, then
/// tries again, and logs, once a minute while the failures go on, what is wrong and what to do.
///
/// The listening socket stays readable while connections wait, and NIO keeps asking for it after
/// such an error (its own `AcceptBackoffHandler` waits for a `read` that never comes then), so
/// without this the event loop would spin on `accept`, serving nobody (docs/protocol.md "Limits").
final class AcceptBackoff: ChannelInboundHandler, @unchecked Sendable {
  typealias InboundIn = any Channel

  static let pause = TimeAmount.seconds(1)
  private let gate: ConnectionGate
  private let logger: Logger
  private var paused = false
  /// When the last failure was logged.
  private var lastLogged: NIODeadline?

  init(gate: ConnectionGate, logger: Logger) {
    self.gate = gate
    self.logger = logger
  }

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    guard let error = error as? IOError,
      [EMFILE, ENFILE, ENOBUFS, ENOMEM].contains(error.errnoCode)
    else {
      context.fireErrorCaught(error)
      return
    }
    log(error.errnoCode)
    guard !paused else { return }
    paused = true
    let channel = context.channel
    channel.setOption(ChannelOptions.autoRead, value: false).whenFailure { _ in }
    context.eventLoop.assumeIsolated().scheduleTask(in: Self.pause) {
      self.paused = false
      channel.setOption(ChannelOptions.autoRead, value: true).whenFailure { _ in }
    }
  }

  private func log(_ code: Int32) {
    let now = NIODeadline.now()
    if let lastLogged, now - lastLogged < .seconds(60) { return }
    lastLogged = now
    let reason = String(cString: strerror(code))
    if code == EMFILE || code == ENFILE {
      logger.warning(
        """
        cannot accept connections: \(reason) (\(gate.active) clients connected, open-file \
        limit \(DescriptorLimit.current().soft)); trying again each second. Close clients you \
        no longer need, raise the limit (LimitNOFILE= in the service, ulimit -n), or lower \
        --max-connections so that clients past it are told why
        """)
    } else {
      logger.warning("cannot accept connections: \(reason); trying again each second")
    }
  }
}

/// Why the daemon could not serve on its socket.
public enum DaemonServerError: Error, Sendable, Hashable, CustomStringConvertible {
  /// Another daemon holds the socket's lock (`pid`: the one it wrote), or answers on it.
  case alreadyRunning(path: String, pid: Int32?)
  case notASocket(path: String)
  case pathTooLong(path: String, limit: Int)
  case cannotCreateFolder(path: String, reason: String)
  case cannotBind(path: String, reason: String)
  case cannotLock(path: String, reason: String)
  /// The socket's folder is not safe (``PrivateFolder``): another user could plant files there.
  case unsafeFolder(path: String, reason: String)

  public var description: String {
    switch self {
    case .alreadyRunning(let path, let pid?):
      """
      another audio session daemon (pid \(pid)) is running or starting on '\(path)' (it holds \
      '\(DaemonLock.path(socketPath: path))'); stop it first ('kill \(pid)'), or pass another \
      --socket
      """
    case .alreadyRunning(let path, nil):
      "a daemon is already running on '\(path)'; stop it first, or pass another --socket"
    case .notASocket(let path):
      "'\(path)' exists and is not a socket; remove it or pass another --socket"
    case .pathTooLong(let path, _):
      UnixSocketAddress.PathTooLong(path: path).description
    case .cannotCreateFolder(let path, let reason):
      "cannot create the socket folder '\(path)': \(reason)"
    case .cannotBind(let path, let reason):
      "cannot listen on '\(path)': \(reason)"
    case .cannotLock(let path, let reason):
      "cannot lock '\(path)', the lock file beside the socket: \(reason)"
    case .unsafeFolder(let path, let reason):
      "the socket's folder '\(path)' is not safe: \(reason)"
    }
  }
}
