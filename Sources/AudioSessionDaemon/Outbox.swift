import AudioSessionSystem
import FoundationEssentials
import Logging
import NIOCore
import Synchronization

/// Batches the messages the engine sends from its own thread into one task on the event loop
/// (a fan-out to 1,000 clients is one cross-thread hop, not 1,000), and bounds what waits for
/// clients that do not read (issue 25 item 4).
///
/// The first message queued after a drain schedules the drain; later ones only join the queue.
/// Messages to one channel keep their order: a drain writes each channel's messages as one
/// buffer. Every written buffer counts, by the memory it holds, until the socket has taken it:
/// - a message for a client whose count has reached ``DaemonLimits/clientOutboxBytes`` closes
///   that client's connection instead (a message is always queued below the limit, however
///   large, so a reply of many sessions goes out whole);
/// - while every client's together is over ``DaemonLimits/totalOutboxBytes``, the connection
///   with the most waiting is closed;
/// - once nothing waits after more than ``trimAfterBytes`` did, the freed memory is handed back
///   to the system (`malloc_trim`), so a flood leaves no lasting cost.
final class Outbox: @unchecked Sendable {
  /// What the outbox did, for tests and the log.
  struct Statistics: Sendable, Equatable {
    /// Bytes written to channels and not yet taken by their sockets.
    var waitingBytes = 0
    /// The most that waited at once.
    var peakBytes = 0
    var closedOverClientLimit = 0
    var closedOverTotalLimit = 0
    /// `malloc_trim` calls after the waiting bytes fell back to zero.
    var trims = 0
  }

  /// Past this many waiting bytes, memory is trimmed once nothing waits any more.
  static let trimAfterBytes = 4 << 20

  private let loop: any EventLoop
  private let limits: DaemonLimits
  private let logger: Logger
  private let lock = Lock()
  private var queued: [(channel: any Channel, message: String)] = []
  /// Set as the server stops, before its event loops shut down: what comes later (a connection's
  /// last message, a notification from the core's own shutdown) is dropped, not scheduled on a
  /// loop that no longer runs.
  private var closed = false
  // Event-loop state: what each channel has waiting, and the channels being closed for it.
  private var waiting: [ObjectIdentifier: (channel: any Channel, bytes: Int)] = [:]
  private var closing: Set<ObjectIdentifier> = []
  private var peakSinceTrim = 0
  private let counters = Mutex(Statistics())

  init(loop: any EventLoop, limits: DaemonLimits, logger: Logger) {
    self.loop = loop
    self.limits = limits
    self.logger = logger
  }

  /// A copy of the counters; safe from any thread.
  var statistics: Statistics { counters.withLock { $0 } }

  /// Queues one message (a newline is added) for a channel of this outbox's event loop.
  func send(_ message: String, to channel: any Channel) {
    lock.lock()
    guard !closed else {
      lock.unlock()
      return
    }
    queued.append((channel, message))
    let first = queued.count == 1
    lock.unlock()
    if first { loop.execute { self.drain() } }
  }

  /// Runs `work` on the event loop, unless the outbox is closed.
  func onLoop(_ work: @escaping @Sendable () -> Void) {
    lock.lock()
    defer { lock.unlock() }
    guard !closed else { return }
    loop.execute(work)
  }

  /// On the event loop: closes `channel` once what was written to it before has been sent (the
  /// replies to a client that half-closed its end, a refusal).
  func closeAfterWrites(_ channel: any Channel) {
    loop.preconditionInEventLoop()
    guard channel.isActive else {
      channel.close(promise: nil)
      return
    }
    channel.writeAndFlush(channel.allocator.buffer(capacity: 0)).whenComplete { _ in
      channel.close(promise: nil)
    }
  }

  /// Stops scheduling anything on the loop (the server is stopping).
  func close() {
    lock.lock()
    closed = true
    lock.unlock()
  }

  private func drain() {
    lock.lock()
    let batch = queued
    queued.removeAll(keepingCapacity: true)
    lock.unlock()
    var buffers: [ObjectIdentifier: (channel: any Channel, buffer: ByteBuffer)] = [:]
    for (channel, message) in batch where channel.isActive {
      let key = ObjectIdentifier(channel)
      guard !closing.contains(key) else { continue }
      let pending = buffers[key]?.buffer.readableBytes ?? 0
      let held = (waiting[key]?.bytes ?? 0) + pending
      if held >= limits.clientOutboxBytes {
        buffers[key] = nil
        close(channel, held: held, overTotal: false)
        continue
      }
      var buffer =
        buffers[key]?.buffer ?? channel.allocator.buffer(capacity: message.utf8.count + 1)
      buffer.writeString(message)
      buffer.writeInteger(UInt8(ascii: "\n"))
      buffers[key] = (channel, buffer)
    }
    for (key, (channel, buffer)) in buffers {
      let bytes = buffer.capacity
      waiting[key, default: (channel, 0)].bytes += bytes
      let promise = loop.makePromise(of: Void.self)
      promise.futureResult.whenComplete { _ in self.written(bytes, for: key) }
      channel.writeAndFlush(buffer, promise: promise)
    }
    let total = counters.withLock { statistics in
      for (_, (_, buffer)) in buffers { statistics.waitingBytes += buffer.capacity }
      statistics.peakBytes = max(statistics.peakBytes, statistics.waitingBytes)
      return statistics.waitingBytes
    }
    peakSinceTrim = max(peakSinceTrim, total)
    enforceTotal(total)
  }

  /// Closes the connections with the most waiting until the rest fit in the total limit.
  private func enforceTotal(_ total: Int) {
    var remaining = total
    while remaining > limits.totalOutboxBytes {
      let open = waiting.filter { !closing.contains($0.key) }
      guard let largest = open.max(by: { $0.value.bytes < $1.value.bytes }) else { return }
      remaining -= largest.value.bytes
      close(largest.value.channel, held: largest.value.bytes, overTotal: true, total: total)
    }
  }

  private func close(_ channel: any Channel, held: Int, overTotal: Bool, total: Int = 0) {
    let key = ObjectIdentifier(channel)
    guard closing.insert(key).inserted else { return }
    counters.withLock { statistics in
      if overTotal {
        statistics.closedOverTotalLimit += 1
      } else {
        statistics.closedOverClientLimit += 1
      }
    }
    if overTotal {
      logger.warning(
        """
        closed the connection with the most messages waiting (\(held) bytes): all clients \
        together had \(total) bytes waiting, over the daemon's limit of \
        \(limits.totalOutboxBytes)
        """)
    } else {
      logger.warning(
        """
        closed a connection that stopped reading its messages: \(held) bytes waited for it, \
        the limit for one client is \(limits.clientOutboxBytes)
        """)
    }
    channel.close(promise: nil)
    channel.closeFuture.whenComplete { _ in self.closing.remove(key) }
  }

  /// The socket took (or the closed channel dropped) a buffer of `bytes`.
  private func written(_ bytes: Int, for key: ObjectIdentifier) {
    if let entry = waiting[key] {
      let left = entry.bytes - bytes
      waiting[key] = left > 0 ? (entry.channel, left) : nil
    }
    let total = counters.withLock { statistics in
      statistics.waitingBytes -= bytes
      return statistics.waitingBytes
    }
    guard total == 0, peakSinceTrim > Self.trimAfterBytes else { return }
    peakSinceTrim = 0
    // On the next turn of the loop, once the buffers written have been released.
    loop.execute {
      HeapTrim.trim()
      self.counters.withLock { $0.trims += 1 }
    }
  }
}
