import AudioSession
import AudioSessionSystem
import AudioSessionWire
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A Unix socket that accepts connections and reads what clients send, but answers only when a
/// test says so: a daemon that is stuck, for the request timeout's tests.
package final class SilentSocketServer: @unchecked Sendable {
  package let path: String
  private let listener: Int32
  private let condition = NSCondition()
  private var clients: [Int32] = []
  private var lines: [String] = []
  private var stopped = false

  /// Listens on `<fresh folder>/stuck.sock`.
  package init() throws {
    path = try TemporaryFolder.make() + "/stuck.sock"
    listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    let bound = try UnixSocketAddress(path: path).bind(listener)
    guard bound == 0, listen(listener, 16) == 0 else {
      close(listener)
      throw CocoaError(.fileWriteUnknown)
    }
    Thread { [self] in acceptLoop() }.start()
  }

  /// Ends every connection and the socket, and removes its folder.
  ///
  /// Each descriptor is closed by the thread that uses it (the reader, the accept loop), under
  /// the lock, and shut down here under the same lock: a number closed and reused by another
  /// test's socket meanwhile is never touched.
  package func stop() {
    condition.lock()
    stopped = true
    for fd in clients { shutdown(fd, Int32(SHUT_RDWR)) }
    clients = []
    // Wakes the accept loop, which closes the listener.
    shutdown(listener, Int32(SHUT_RDWR))
    condition.unlock()
    try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent)
  }

  /// Waits (at most 10 s) until `count` lines have been received; returns them all.
  package func waitForLines(_ count: Int) -> [String] {
    let deadline = Date(timeIntervalSinceNow: 10)
    condition.lock()
    defer { condition.unlock() }
    while lines.count < count, condition.wait(until: deadline) {}
    return lines
  }

  /// Sends `line` (a newline is added) on the most recent connection.
  package func reply(_ line: String) {
    condition.lock()
    defer { condition.unlock() }
    guard let fd = clients.last else { return }
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
  }

  private func acceptLoop() {
    while true {
      let fd = accept(listener, nil, nil)
      condition.lock()
      if fd < 0 || stopped {
        if fd >= 0 { close(fd) }
        close(listener)
        condition.unlock()
        return
      }
      clients.append(fd)
      condition.unlock()
      Thread { [self] in readLoop(fd) }.start()
    }
  }

  private func readLoop(_ fd: Int32) {
    var pending: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
      guard count > 0 else { break }
      pending += buffer[0..<count]
      while let newline = pending.firstIndex(of: 0x0A) {
        let line = String(decoding: pending[..<newline], as: UTF8.self)
        pending.removeSubrange(...newline)
        condition.lock()
        lines.append(line)
        condition.broadcast()
        condition.unlock()
      }
    }
    condition.lock()
    clients.removeAll { $0 == fd }
    close(fd)
    condition.unlock()
  }
}
