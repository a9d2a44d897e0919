import AudioSessionSystem
import FoundationEssentials
import NIOCore

/// Batches the messages the engine sends from its own thread into one task on the event loop:
/// a fan-out to 1,000 clients is one cross-thread hop, not 1,000.
///
/// The first message queued after a drain schedules the drain; later ones only join the queue.
/// Messages to one channel keep their order.
final class Outbox: @unchecked Sendable {
  private let loop: any EventLoop
  private let lock = Lock()
  private var queued: [(channel: any Channel, message: String)] = []
  /// Set as the server stops, before its event loops shut down: what comes later (a connection's
  /// last message, a notification from the core's own shutdown) is dropped, not scheduled on a
  /// loop that no longer runs.
  private var closed = false

  init(loop: any EventLoop) { self.loop = loop }

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
    var written: [ObjectIdentifier: any Channel] = [:]
    for (channel, message) in batch where channel.isActive {
      var buffer = channel.allocator.buffer(capacity: message.utf8.count + 1)
      buffer.writeString(message)
      buffer.writeInteger(UInt8(ascii: "\n"))
      channel.write(buffer, promise: nil)
      written[ObjectIdentifier(channel)] = channel
    }
    for channel in written.values { channel.flush() }
  }
}
