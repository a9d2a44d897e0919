import AudioSessionCore
import AudioSessionHost
import AudioSessionSystem
import AudioSessionWire
import Logging
import NIOCore

#if canImport(Glibc)
  import Glibc
#endif

/// One client connection: hands its messages, in order, to the core, and stops reading while
/// too many wait (so a client that floods the daemon slows only itself).
///
/// Messages go through an `AsyncStream` to one task per connection, which awaits the core for
/// each on the daemon's engine thread; replies and notifications come back through
/// ``ChannelPeer``. A client that stops
/// reading until more than the high water mark of output is queued is disconnected.
final class ConnectionHandler: ChannelInboundHandler, @unchecked Sendable {
  typealias InboundIn = InboundLine

  /// Reading pauses when this many messages wait, and resumes below ``resumeBelow``.
  static let pauseAt = 256
  static let resumeBelow = 64

  private let core: DaemonCore
  private let executor: DedicatedThreadExecutor
  private let outbox: Outbox
  private let allowedUID: UInt32
  private let logger: Logger
  // Event-loop state.
  private var continuation: AsyncStream<InboundLine>.Continuation?
  private var pending = 0
  private var paused = false

  init(
    core: DaemonCore, executor: DedicatedThreadExecutor, outbox: Outbox, allowedUID: UInt32,
    logger: Logger
  ) {
    self.core = core
    self.executor = executor
    self.outbox = outbox
    self.allowedUID = allowedUID
    self.logger = logger
  }

  func channelActive(context: ChannelHandlerContext) {
    let channel = context.channel
    let (stream, continuation) = AsyncStream.makeStream(of: InboundLine.self)
    self.continuation = continuation
    let core = self.core
    let allowedUID = self.allowedUID
    let logger = self.logger
    let outbox = self.outbox
    let peer = ChannelPeer(channel, outbox: outbox)
    // Read here, on the channel's loop, where the option is answered at once: a task that asked
    // later could find the loop shut down by a daemon stopping meanwhile.
    let credentials = PeerCredentialReader.read(channel)
    Task(executorPreference: executor) {
      if let credentials, credentials.uid != allowedUID, credentials.uid != 0 {
        logger.warning(
          "refused a connection from uid \(credentials.uid) (pid \(credentials.pid))",
          metadata: ["pid": "\(credentials.pid)", "uid": "\(credentials.uid)"])
        let error = ProtocolError(
          .notPermitted, PeerCredentialReader.refusal(peer: credentials.uid, daemon: allowedUID))
        peer.send(DaemonReply(id: nil, error: .protocolError(error)).json.serialized)
        outbox.onLoop { channel.close(promise: nil) }
        return
      }
      let id = await core.connect(peer, credentials: credentials)
      for await line in stream {
        switch line {
        case .message(let bytes): await core.receive(bytes, from: id)
        case .oversized: await core.rejectOversized(from: id)
        }
        outbox.onLoop { self.processed(channel) }
      }
      await core.disconnect(id)
    }
    context.fireChannelActive()
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    guard let continuation else { return }
    continuation.yield(unwrapInboundIn(data))
    pending += 1
    if pending >= Self.pauseAt, !paused {
      paused = true
      context.channel.setOption(ChannelOptions.autoRead, value: false).whenFailure { _ in }
    }
  }

  private func processed(_ channel: any Channel) {
    pending -= 1
    if paused, pending < Self.resumeBelow {
      paused = false
      channel.setOption(ChannelOptions.autoRead, value: true).whenFailure { _ in }
      channel.read()
    }
  }

  func channelInactive(context: ChannelHandlerContext) {
    continuation?.finish()
    continuation = nil
    context.fireChannelInactive()
  }

  func channelWritabilityChanged(context: ChannelHandlerContext) {
    if !context.channel.isWritable {
      logger.warning(
        "closed a connection that stopped reading its messages",
        metadata: ["peer": "\(context.channel.remoteAddress.map { "\($0)" } ?? "unknown")"])
      context.close(promise: nil)
    }
    context.fireChannelWritabilityChanged()
  }

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    context.close(promise: nil)
  }
}

/// Sends the core's messages down a channel, one line each, through its event loop's
/// ``Outbox``; safe from any thread.
final class ChannelPeer: DaemonPeer {
  let channel: any Channel
  let outbox: Outbox

  init(_ channel: any Channel, outbox: Outbox) {
    self.channel = channel
    self.outbox = outbox
  }

  func send(_ message: String) { outbox.send(message, to: channel) }
}

/// Reads `SO_PEERCRED` from a Unix-socket channel.
enum PeerCredentialReader {
  /// What a process of another user is told before the daemon closes its connection.
  static func refusal(peer: UInt32, daemon: UInt32) -> String {
    """
    this daemon serves only its own user (uid \(daemon)) and root; this process runs as uid \
    \(peer). Start your own daemon ('sessionctl daemon', or let a live command start it) on your \
    own socket, $XDG_RUNTIME_DIR/audiosession/daemon.sock by default
    """
  }

  /// `struct ucred` (pid, uid, gid); Glibc hides its declaration behind `_GNU_SOURCE`.
  struct RawCredentials: Sendable {
    var pid: Int32 = 0
    var uid: UInt32 = 0
    var gid: UInt32 = 0
  }

  /// The peer's credentials, or nil if the channel is not a Unix socket that reports them.
  /// Called on the channel's event loop, where the option is read at once.
  static func read(_ channel: any Channel) -> PeerCredentials? {
    channel.eventLoop.preconditionInEventLoop()
    guard let provider = channel as? any SocketOptionProvider else { return nil }
    let future: EventLoopFuture<RawCredentials> = provider.unsafeGetSocketOption(
      level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(SO_PEERCRED))
    var credentials: PeerCredentials?
    future.assumeIsolated().whenSuccess { raw in
      credentials = PeerCredentials(pid: raw.pid, uid: raw.uid, gid: raw.gid)
    }
    return credentials
  }
}
