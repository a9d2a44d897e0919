import AudioSession
import AudioSessionHost
import AudioSessionSystem
import AudioSessionWire
import Logging
import NIOCore
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// One client connection: hands its messages, in order, to the core, and stops reading while
/// too many wait (so a client that floods the daemon slows only itself).
///
/// Messages go through an `AsyncStream` to one task per connection, which awaits the core for
/// each on the daemon's engine thread; replies and notifications come back through
/// ``ChannelPeer``; the ``Outbox`` disconnects a client that stops reading. A connection past
/// ``DaemonLimits/maxConnections`` gets one `tooManyConnections` reply and is closed. A client
/// that closes its sending side after its requests (`shutdown(SHUT_WR)`, `nc -N`) still gets
/// their replies: the connection closes once they are written.
final class ConnectionHandler: ChannelInboundHandler, @unchecked Sendable {
  typealias InboundIn = InboundLine

  /// Reading pauses when this many messages wait, and resumes below ``resumeBelow``.
  static let pauseAt = 256
  static let resumeBelow = 64

  private let core: DaemonCore
  private let executor: DedicatedThreadExecutor
  private let outbox: Outbox
  private let allowedUID: UInt32
  private let gate: ConnectionGate
  private let logger: Logger
  // Event-loop state.
  private var continuation: AsyncStream<InboundLine>.Continuation?
  private var admitted = false
  private var pending = 0
  private var paused = false

  init(
    core: DaemonCore, executor: DedicatedThreadExecutor, outbox: Outbox, allowedUID: UInt32,
    gate: ConnectionGate, logger: Logger
  ) {
    self.gate = gate
    self.core = core
    self.executor = executor
    self.outbox = outbox
    self.allowedUID = allowedUID
    self.logger = logger
  }

  func channelActive(context: ChannelHandlerContext) {
    let channel = context.channel
    guard gate.admit() else {
      refuse(channel)
      context.fireChannelActive()
      return
    }
    admitted = true
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
      // The client's input ended (or the connection did): once its replies are written.
      outbox.onLoop { outbox.closeAfterWrites(channel) }
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
    if admitted {
      admitted = false
      gate.release()
    }
    context.fireChannelInactive()
  }

  func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
    // The client closed its sending side: the messages read so far are all there will be; the
    // connection's task answers them and then closes the connection.
    if case .inputClosed? = event as? ChannelEvent {
      continuation?.finish()
      continuation = nil
    }
    context.fireUserInboundEventTriggered(event)
  }

  /// Tells a connection over the limit why, and closes it.
  private func refuse(_ channel: any Channel) {
    if gate.refusedSinceLastAdmit == 1 {
      logger.warning(
        """
        refused a connection: \(gate.active) connections are open, the most this daemon \
        serves (--max-connections); each refused client is told why
        """)
    }
    let error = ProtocolError(.tooManyConnections, ConnectionGate.refusal(limit: gate.limit))
    var buffer = channel.allocator.buffer(capacity: 512)
    buffer.writeString(DaemonReply(id: nil, error: .protocolError(error)).json.serialized)
    buffer.writeInteger(UInt8(ascii: "\n"))
    channel.writeAndFlush(buffer).whenComplete { _ in channel.close(promise: nil) }
  }

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    context.close(promise: nil)
  }
}

/// Counts the connections being served, against ``DaemonLimits/maxConnections``. Used on the
/// server's one event loop only.
final class ConnectionGate: @unchecked Sendable {
  let limit: Int
  private(set) var active = 0
  /// Connections refused since one was last admitted (the first refusal of a run is logged).
  private(set) var refusedSinceLastAdmit = 0
  private let refusals = Mutex(0)

  init(limit: Int) { self.limit = limit }

  /// Connections refused so far; safe from any thread.
  var refused: Int { refusals.withLock { $0 } }

  /// Admits one more connection, or returns false when ``limit`` are served.
  func admit() -> Bool {
    guard active < limit else {
      refusedSinceLastAdmit += 1
      refusals.withLock { $0 += 1 }
      return false
    }
    active += 1
    refusedSinceLastAdmit = 0
    return true
  }

  func release() { active -= 1 }

  /// What a connection over the limit is told before it is closed.
  static func refusal(limit: Int) -> String {
    """
    this daemon already serves \(limit) connections, the most it takes; close clients you no \
    longer need (apps, 'sessionctl watch'), or restart the daemon with a larger \
    --max-connections (and open-file limit, ulimit -n)
    """
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

  func sendReply(_ message: String) -> String? { outbox.sendReply(message, to: channel) }
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
