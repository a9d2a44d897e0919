import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A Unix socket that accepts connections and reads what clients send, but answers only when a
/// test says so: a daemon that is stuck, for the request timeout's tests.
final class SilentSocketServer: @unchecked Sendable {
  let path: String
  private let listener: Int32
  private let condition = NSCondition()
  private var clients: [Int32] = []
  private var lines: [String] = []
  private var stopped = false

  /// Listens on `<fresh folder>/stuck.sock`.
  init() throws {
    path = try DaemonHarness.makeFolder() + "/stuck.sock"
    listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    let bound = withUnixSocketAddress(path) { bind(listener, $0, $1) }
    guard bound == 0, listen(listener, 16) == 0 else {
      close(listener)
      throw CocoaError(.fileWriteUnknown)
    }
    Thread { [self] in acceptLoop() }.start()
  }

  /// Closes every connection and the socket, and removes its folder.
  func stop() {
    condition.lock()
    stopped = true
    let open = clients
    clients = []
    condition.unlock()
    for fd in open { shutdown(fd, Int32(SHUT_RDWR)) }
    shutdown(listener, Int32(SHUT_RDWR))
    close(listener)
    try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent)
  }

  /// Waits (at most 10 s) until `count` lines have been received; returns them all.
  func waitForLines(_ count: Int) -> [String] {
    let deadline = Date(timeIntervalSinceNow: 10)
    condition.lock()
    defer { condition.unlock() }
    while lines.count < count, condition.wait(until: deadline) {}
    return lines
  }

  /// Sends `line` (a newline is added) on the most recent connection.
  func reply(_ line: String) {
    condition.lock()
    let fd = clients.last
    condition.unlock()
    guard let fd else { return }
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
  }

  private func acceptLoop() {
    while true {
      let fd = accept(listener, nil, nil)
      guard fd >= 0 else { return }
      condition.lock()
      if stopped {
        condition.unlock()
        close(fd)
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
    close(fd)
  }
}
