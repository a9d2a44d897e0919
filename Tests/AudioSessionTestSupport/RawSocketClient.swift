package import AudioSession
import AudioSessionSystem
import AudioSessionWire
package import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A bare Unix-socket client for protocol tests: writes any bytes, reads replies line by line.
package final class RawSocketClient {
  package let fd: Int32
  private var pending: [UInt8] = []
  /// Whether the daemon closed its end (a read returned 0 bytes).
  package private(set) var ended = false

  package init(path: String) throws {
    let address = try UnixSocketAddress(path: path)
    fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    let result = address.connect(fd)
    guard result == 0 else {
      // No close here: every stored property is set, so a throw runs `deinit`, which closes
      // it. Closing it twice closed another thread's descriptor that had reused the number
      // (CI saw Foundation's copyItem fail with EBADF).
      throw ConnectionFailureError(reason: String(cString: strerror(errno)))
    }
  }

  deinit { close(fd) }

  package struct ConnectionFailureError: Error { var reason: String }

  /// Writes all of `bytes`.
  package func write(_ bytes: [UInt8]) throws {
    var written = 0
    while written < bytes.count {
      let count = bytes.withUnsafeBytes { buffer -> Int in
        guard let base = buffer.baseAddress else { return 0 }
        return send(fd, base + written, buffer.count - written, Int32(MSG_NOSIGNAL))
      }
      guard count > 0 else { throw ConnectionFailureError(reason: "send failed") }
      written += count
    }
  }

  package func write(line: String) throws { try write(Array((line + "\n").utf8)) }

  /// The next line (without the newline), or nil when the daemon closed the connection or
  /// nothing arrived within `timeout` seconds.
  package func readLine(timeout: TimeInterval = 10) -> String? {
    let deadline = Date(timeIntervalSinceNow: timeout)
    while true {
      if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
        let line = String(decoding: pending[..<newline], as: UTF8.self)
        pending.removeSubrange(...newline)
        return line
      }
      let remaining = deadline.timeIntervalSinceNow
      guard remaining > 0 else { return nil }
      var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      guard poll(&poller, 1, Int32(remaining * 1000)) > 0 else { return nil }
      var buffer = [UInt8](repeating: 0, count: 65536)
      let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
      guard count > 0 else {
        if count == 0 { ended = true }
        return nil
      }
      pending += buffer[0..<count]
    }
  }

  /// Closes the sending side only (`shutdown(SHUT_WR)`, as `nc -N` does at the end of its input).
  package func shutdownWriting() { shutdown(fd, Int32(SHUT_WR)) }

  /// Every line until the daemon closes the connection; nil if it did not within `timeout`.
  package func readToEnd(timeout: TimeInterval = 10) -> [String]? {
    let deadline = Date(timeIntervalSinceNow: timeout)
    var lines: [String] = []
    while true {
      if let line = readLine(timeout: deadline.timeIntervalSinceNow) {
        lines.append(line)
        continue
      }
      return ended ? lines : nil
    }
  }

  /// Sends one line and returns the next line received, parsed as a JSON object.
  package func exchange(_ line: String) throws -> JSONObject {
    try write(line: line)
    guard let reply = readLine() else { throw ConnectionFailureError(reason: "no reply") }
    guard case .object(let object) = try JSONParser.parse(reply) else {
      throw ConnectionFailureError(reason: "reply is not an object: \(reply)")
    }
    return object
  }
}
