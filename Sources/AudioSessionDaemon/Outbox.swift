import AudioSessionSystem
import FoundationEssentials
import Logging
import NIOCore
import Synchronization

/// Batches the messages the engine sends from its own thread into one task on the event loop
/// (a fan-out to 1,000 clients is one cross-thread hop, not 1,000), and bounds what waits for
/// clients that do not read (docs/protocol.md "Limits").
///
/// The first message queued after a drain schedules the drain; later ones only join the queue.
/// Messages to one channel keep their order: a drain writes each channel's messages as one
/// buffer. Every written buffer counts, by the memory it holds, until the socket has taken it:
/// - a message for a client whose count has reached ``DaemonLimits/clientOutboxBytes`` closes
///   that client's connection instead (a message is always queued below the limit, however
///   large, so a reply of many sessions goes out whole; a large reply, below, counts for
///   neither limit);
/// - while every client's together, less the largest reply waiting, is over
///   ``DaemonLimits/totalOutboxBytes``, the connection with the most waiting is closed. A reply
///   larger than the client limit (``sendReply(_:to:)``: a `status` of many sessions) is queued
///   only if everything else waiting fits in that total beside it, so that one reply of any size
///   goes out whole; one that does not fit is refused, and its client told so, not disconnected
///   (a `status` of 200,000 sessions is about 180 MB; before, the total closed its connection);
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
  /// What waits to be drained on the event loop, and whether the outbox is closed.
  private let inbox = Mutex(Inbox())
  // Event-loop state: what each channel has waiting, and the channels being closed for it.
  private var waiting: [ObjectIdentifier: (channel: any Channel, bytes: Int)] = [:]
  private var closing: Set<ObjectIdentifier> = []
  /// Of what each channel has waiting, its large replies' bytes.
  private var waitingLarge: [ObjectIdentifier: Int] = [:]
  private var peakSinceTrim = 0
  private let counters = Mutex(Statistics())
  /// The large replies admitted and not yet written, by number, with their bytes (as
  /// ``largeBytes(_:)`` counts them): the largest of them is outside the total.
  private let large = Mutex(LargeReplies())

  struct Inbox {
    var queued: [(channel: any Channel, message: String, large: Int?)] = []
    /// Set as the server stops, before its event loops shut down: what comes later (a
    /// connection's last message, a notification from the core's own shutdown) is dropped, not
    /// scheduled on a loop that no longer runs.
    var closed = false
  }

  struct LargeReplies {
    var bytes: [Int: Int] = [:]
    var next = 0
    /// Of those, the ones not yet drained into a channel's buffers (their bytes are not in
    /// ``Statistics/waitingBytes`` yet).
    var undrained = 0
  }

  init(loop: any EventLoop, limits: DaemonLimits, logger: Logger) {
    self.loop = loop
    self.limits = limits
    self.logger = logger
  }

  /// A copy of the counters; safe from any thread.
  var statistics: Statistics { counters.withLock { $0 } }

  /// Queues one message (a newline is added) for a channel of this outbox's event loop.
  func send(_ message: String, to channel: any Channel) {
    let first = inbox.withLock { inbox in
      guard !inbox.closed else { return false }
      inbox.queued.append((channel, message, nil))
      return inbox.queued.count == 1
    }
    if first { loop.execute { self.drain() } }
  }

  /// The memory a buffer of a message of `count` bytes (its newline added) holds: the
  /// allocator rounds a buffer's capacity up to a power of two.
  static func largeBytes(_ count: Int) -> Int {
    let needed = count + 1
    guard needed > 1 else { return 1 }
    let shift = Int.bitWidth - (needed - 1).leadingZeroBitCount
    return shift >= Int.bitWidth - 1 ? needed : 1 << shift
  }

  /// Queues a reply, as ``send(_:to:)`` does; one larger than the client limit only if what
  /// waits, less the largest reply waiting or this one, fits in the total (nil), else why not.
  func sendReply(_ message: String, to channel: any Channel) -> String? {
    let count = message.utf8.count
    guard count >= limits.clientOutboxBytes else {
      send(message, to: channel)
      return nil
    }
    let bytes = Self.largeBytes(count)
    let waiting = counters.withLock { $0.waitingBytes }
    let number = large.withLock { large -> Int? in
      let largest = max(bytes, large.bytes.values.max() ?? 0)
      guard waiting + large.undrained + bytes - largest <= limits.totalOutboxBytes else {
        return nil
      }
      let number = large.next
      large.next += 1
      large.bytes[number] = bytes
      large.undrained += bytes
      return number
    }
    guard let number else {
      return """
        the reply is \(count) bytes, and the daemon already has \(waiting) bytes waiting for \
        its clients: beside the largest reply waiting it holds at most \
        \(limits.totalOutboxBytes) bytes for them all, so this one was not sent; ask again once \
        the others have gone out (docs/protocol.md "Limits")
        """
    }
    let first = inbox.withLock { inbox -> Bool? in
      guard !inbox.closed else { return nil }
      inbox.queued.append((channel, message, number))
      return inbox.queued.count == 1
    }
    guard let first else {
      large.withLock { large in
        large.undrained -= large.bytes.removeValue(forKey: number) ?? 0
      }
      return nil
    }
    if first { loop.execute { self.drain() } }
    return nil
  }

  /// Runs `work` on the event loop, unless the outbox is closed.
  func onLoop(_ work: @escaping @Sendable () -> Void) {
    inbox.withLock { inbox in
      guard !inbox.closed else { return }
      loop.execute(work)
    }
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
    inbox.withLock { $0.closed = true }
  }

  private func drain() {
    let batch = inbox.withLock { inbox in
      defer { inbox.queued.removeAll(keepingCapacity: true) }
      return inbox.queued
    }
    // The buffers to write, in order: a channel's messages join one buffer, except a large
    // reply, which has one of its own (so that its memory is known when it is written).
    var writes: [(channel: any Channel, buffer: ByteBuffer, large: Int?)] = []
    var open: [ObjectIdentifier: Int] = [:]
    var pending: [ObjectIdentifier: Int] = [:]
    var dropped: Set<ObjectIdentifier> = []
    var drained = 0
    for (channel, message, number) in batch {
      if let number {
        drained += large.withLock { $0.bytes[number] ?? 0 }
      }
      let key = ObjectIdentifier(channel)
      guard channel.isActive, !closing.contains(key) else {
        if let number { large.withLock { _ = $0.bytes.removeValue(forKey: number) } }
        continue
      }
      // A large reply counts for neither its own client's limit nor the total: a watch's
      // first snapshot of many sessions is followed by notifications before the client has
      // read it all.
      let held = (waiting[key]?.bytes ?? 0) - (waitingLarge[key] ?? 0) + (pending[key] ?? 0)
      if held >= limits.clientOutboxBytes {
        // Its buffers of this drain are dropped below (removing them here would move the
        // places `open` holds).
        dropped.insert(key)
        open[key] = nil
        pending[key] = nil
        if let number { large.withLock { _ = $0.bytes.removeValue(forKey: number) } }
        close(channel, held: held, overTotal: false)
        continue
      }
      if number == nil { pending[key, default: 0] += message.utf8.count + 1 }
      if number == nil, let index = open[key] {
        writes[index].buffer.writeString(message)
        writes[index].buffer.writeInteger(UInt8(ascii: "\n"))
        continue
      }
      var buffer = channel.allocator.buffer(capacity: message.utf8.count + 1)
      buffer.writeString(message)
      buffer.writeInteger(UInt8(ascii: "\n"))
      writes.append((channel, buffer, number))
      // A later message of the channel goes after the large reply, in a buffer of its own.
      open[key] = number == nil ? writes.count - 1 : nil
    }
    writes.removeAll { write in
      guard dropped.contains(ObjectIdentifier(write.channel)) else { return false }
      if let number = write.large { large.withLock { _ = $0.bytes.removeValue(forKey: number) } }
      return true
    }
    for (channel, buffer, number) in writes {
      let key = ObjectIdentifier(channel)
      let bytes = buffer.capacity
      waiting[key, default: (channel, 0)].bytes += bytes
      if number != nil { waitingLarge[key, default: 0] += bytes }
      let promise = loop.makePromise(of: Void.self)
      promise.futureResult.whenComplete { _ in
        if let number {
          self.large.withLock { _ = $0.bytes.removeValue(forKey: number) }
          let left = (self.waitingLarge[key] ?? 0) - bytes
          self.waitingLarge[key] = left > 0 ? left : nil
        }
        self.written(bytes, for: key)
      }
      channel.writeAndFlush(buffer, promise: promise)
    }
    let total = counters.withLock { statistics in
      for write in writes { statistics.waitingBytes += write.buffer.capacity }
      statistics.peakBytes = max(statistics.peakBytes, statistics.waitingBytes)
      return statistics.waitingBytes
    }
    large.withLock { $0.undrained -= drained }
    peakSinceTrim = max(peakSinceTrim, total)
    enforceTotal(total)
  }

  /// Closes the connections with the most waiting until the rest, less the largest reply
  /// waiting, fit in the total limit.
  private func enforceTotal(_ total: Int) {
    let exempt = waitingLarge.values.max() ?? 0
    var remaining = total - exempt
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
