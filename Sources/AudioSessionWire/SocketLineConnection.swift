import AudioSession
import AudioSessionSystem
import FoundationEssentials
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// A connection that carries newline-delimited messages both ways: a Unix socket to the daemon,
/// or an in-process link to an embedded engine.
package protocol LineConnection: AnyObject, Sendable {
  /// Starts delivering received messages (one per call, without the newline) and, once, the end
  /// of the connection. Called once, before the first ``write(_:)``.
  func start(
    onMessage: @escaping @Sendable ([UInt8]) -> Void, onClose: @escaping @Sendable () -> Void)
  /// Sends one message (a newline is added).
  func write(_ message: String) throws(ConnectionFailure)
  /// Closes the connection; ``start(onMessage:onClose:)``'s `onClose` follows.
  func close()
}

/// An engine in this process that sessions connect to instead of the daemon
/// (``AudioSession/Connection/embedded(_:)``): `EmbeddedAudioSystem`, in the `AudioSessionHost`
/// module, is the one the package provides.
public protocol EmbeddedEngine: AnyObject, Sendable {
  /// A new connection to the engine, delivering to `handlers`.
  func connect(_ handlers: DaemonConnection.Handlers) -> DaemonConnection
}

/// The daemon could not be reached, the connection broke, or the daemon did not answer in time.
public struct ConnectionFailure: Error, Sendable, Hashable, CustomStringConvertible {
  public var description: String
  /// The daemon did not answer within the request timeout (the connection may still be open).
  public var isTimeout: Bool
  /// What listens on the socket runs as another user: it is not the daemon, and starting one
  /// there would not help.
  public var isUntrusted: Bool

  public init(_ description: String, isTimeout: Bool = false, isUntrusted: Bool = false) {
    self.description = description
    self.isTimeout = isTimeout
    self.isUntrusted = isUntrusted
  }
}

/// A blocking Unix-socket client with one reader thread: writes happen on the caller's thread,
/// and every received line is handed to `onMessage` on the reader thread, in order.
final class SocketLineConnection: LineConnection, @unchecked Sendable {
  let path: String
  private let fd: Int32
  /// Held while a line is written, so that lines from two threads never interleave.
  private let writing = Mutex(())
  private let closed = Mutex(false)

  /// Connects to the socket at `path`.
  init(path: String) throws(ConnectionFailure) {
    self.path = path
    let address: UnixSocketAddress
    do {
      address = try UnixSocketAddress(path: path)
    } catch {
      throw ConnectionFailure(error.description)
    }
    fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw ConnectionFailure("cannot create a socket: \(Self.errorText())") }
    let result = address.connect(fd)
    guard result == 0 else {
      // Not closed here: every stored property is set, so the throw runs `deinit`, which closes
      // it. Closing it here too closed whatever descriptor another thread had opened under the
      // same number in between (a live command polling a starting daemon, an app reconnecting).
      throw ConnectionFailure("no daemon answers on '\(path)': \(Self.errorText())")
    }
    // Before anything is sent or read: a process of another user that listens there is not
    // the daemon (docs/protocol.md "The socket").
    if let distrust = SocketPeer.distrust(fd, path: path) {
      throw ConnectionFailure(distrust, isUntrusted: true)
    }
  }

  deinit {
    Glibc.close(fd)
  }

  func start(
    onMessage: @escaping @Sendable ([UInt8]) -> Void, onClose: @escaping @Sendable () -> Void
  ) {
    SystemThread.detach(name: "audiosession-reader") { [self] in
      readLoop(onMessage: onMessage)
      onClose()
    }
  }

  private func readLoop(onMessage: ([UInt8]) -> Void) {
    var lines = LineSplitter()
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
      if count < 0, errno == EINTR { continue }
      if count <= 0 { return }
      lines.split(buffer[0..<count], onMessage)
    }
  }

  /// What one ``read(until:lines:onMessage:)`` found.
  enum CallerRead {
    /// Bytes arrived; every whole line among them was handed on.
    case read
    /// The daemon closed the connection (or it broke).
    case ended
    /// Nothing arrived before the deadline.
    case timedOut
  }

  /// For a connection that was never started: waits, on the caller's thread, at most until
  /// `deadline` for what the daemon sends, and hands each whole line to `onMessage`; `lines`
  /// keeps a partial line between calls.
  func read(
    until deadline: MonotonicInstant, lines: inout LineSplitter, onMessage: ([UInt8]) -> Void
  ) -> CallerRead {
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      let now = MonotonicInstant.now()
      guard now < deadline else { return .timedOut }
      let milliseconds = (deadline.nanoseconds - now.nanoseconds + 999_999) / 1_000_000
      var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      let ready = poll(&entry, 1, Int32(clamping: milliseconds))
      if ready < 0, errno == EINTR { continue }
      if ready < 0 { return .ended }
      if ready == 0 { continue }
      let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
      if count < 0, errno == EINTR { continue }
      if count <= 0 { return .ended }
      lines.split(buffer[0..<count], onMessage)
      return .read
    }
  }

  func write(_ message: String) throws(ConnectionFailure) {
    var bytes = Array(message.utf8)
    bytes.append(UInt8(ascii: "\n"))
    try writing.withLock { _ throws(ConnectionFailure) in
      var written = 0
      while written < bytes.count {
        let count = bytes.withUnsafeBytes { buffer -> Int in
          guard let base = buffer.baseAddress else { return 0 }
          return send(fd, base + written, buffer.count - written, Int32(MSG_NOSIGNAL))
        }
        if count < 0 {
          if errno == EINTR { continue }
          throw ConnectionFailure("the connection to the daemon broke: \(Self.errorText())")
        }
        written += count
      }
    }
  }

  func close() {
    let wasClosed = closed.withLock { closed in
      defer { closed = true }
      return closed
    }
    // Wakes the reader thread, which then reports the end; the descriptor is closed in deinit.
    if !wasClosed { shutdown(fd, Int32(SHUT_RDWR)) }
  }

  static func errorText() -> String { String(cString: strerror(errno)) }
}

/// Cuts received bytes into lines (without their newline), keeping a partial line for the next
/// bytes.
struct LineSplitter {
  private var pending: [UInt8] = []

  mutating func split(_ bytes: ArraySlice<UInt8>, _ onMessage: ([UInt8]) -> Void) {
    var start = bytes.startIndex
    for index in bytes.indices where bytes[index] == UInt8(ascii: "\n") {
      if pending.isEmpty {
        onMessage(Array(bytes[start..<index]))
      } else {
        pending += bytes[start..<index]
        onMessage(pending)
        pending.removeAll(keepingCapacity: true)
      }
      start = index + 1
    }
    if start < bytes.endIndex { pending += bytes[start..<bytes.endIndex] }
  }
}
