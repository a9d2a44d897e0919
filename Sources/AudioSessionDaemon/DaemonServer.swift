public import AudioSession
import NIOCore
import NIOPosix

#if canImport(Glibc)
  import Glibc
#endif

/// The daemon's socket: a Unix stream socket (folder 0700, socket 0600) that serves a
/// ``DaemonCore`` to every client of the user who runs it, one newline-delimited JSON message at
/// a time (docs/protocol.md).
///
/// One event-loop thread serves every connection and one thread runs the engine (so it never
/// waits for the cooperative pool); an idle daemon sleeps in `epoll_wait` and a condition wait
/// with no timer, so it makes no periodic wakeups.
public final class DaemonServer: Sendable {
  public let socketPath: String
  public let core: DaemonCore
  private let group: MultiThreadedEventLoopGroup
  private let executor: DedicatedThreadExecutor
  private let listener: any Channel

  private init(
    socketPath: String, core: DaemonCore, group: MultiThreadedEventLoopGroup,
    executor: DedicatedThreadExecutor, listener: any Channel
  ) {
    self.socketPath = socketPath
    self.core = core
    self.group = group
    self.executor = executor
    self.listener = listener
  }

  /// Prepares the socket's folder, removes a stale socket left by a daemon that died, binds the
  /// socket and starts serving.
  ///
  /// - Throws: ``DaemonServerError`` when another daemon answers on the path, or the path
  ///   cannot be used.
  public static func start(
    core: DaemonCore, socketPath: String, log: @escaping @Sendable (String) -> Void = { _ in }
  ) async throws(DaemonServerError) -> DaemonServer {
    try SocketFolder.prepare(socketPath: socketPath)
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    let executor = core.executor
    // One event loop, so one outbox serves every connection.
    let outbox = Outbox(loop: group.next())
    let uid = getuid()
    let bootstrap = ServerBootstrap(group: group)
      .serverChannelOption(ChannelOptions.backlog, value: 1024)
      .childChannelOption(
        ChannelOptions.writeBufferWaterMark,
        value: ChannelOptions.Types.WriteBufferWaterMark(low: 1 << 20, high: 4 << 20)
      )
      .childChannelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
          try channel.pipeline.syncOperations.addHandler(
            ByteToMessageHandler(LineFrameDecoder(limit: WireProtocol.maxMessageBytes)))
          try channel.pipeline.syncOperations.addHandler(
            ConnectionHandler(
              core: core, executor: executor, outbox: outbox, allowedUID: uid, log: log))
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
      socketPath: socketPath, core: core, group: group, executor: executor, listener: listener)
  }

  /// Stops accepting, closes every connection, removes the socket, stops the backend and the
  /// core's thread.
  public func stop() async {
    try? await listener.close()
    try? await group.shutdownGracefully()
    unlink(socketPath)
    await core.shutdown()
    executor.stop()
  }

  /// Returns when the listening socket has closed.
  public func waitUntilClosed() async {
    try? await listener.closeFuture.get()
  }
}

/// Why the daemon could not serve on its socket.
public enum DaemonServerError: Error, Sendable, Hashable, CustomStringConvertible {
  case alreadyRunning(path: String)
  case notASocket(path: String)
  case pathTooLong(path: String, limit: Int)
  case cannotCreateFolder(path: String, reason: String)
  case cannotBind(path: String, reason: String)

  public var description: String {
    switch self {
    case .alreadyRunning(let path):
      "a daemon is already running on '\(path)'; stop it first, or pass another --socket"
    case .notASocket(let path):
      "'\(path)' exists and is not a socket; remove it or pass another --socket"
    case .pathTooLong(let path, let limit):
      "the socket path '\(path)' is \(path.utf8.count) bytes long; Unix sockets allow \(limit)"
    case .cannotCreateFolder(let path, let reason):
      "cannot create the socket folder '\(path)': \(reason)"
    case .cannotBind(let path, let reason):
      "cannot listen on '\(path)': \(reason)"
    }
  }
}
