import AudioSessionCore
import AudioSessionSystem
import FoundationEssentials

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

  public init(_ description: String, isTimeout: Bool = false) {
    self.description = description
    self.isTimeout = isTimeout
  }
}

/// A blocking Unix-socket client with one reader thread: writes happen on the caller's thread,
/// and every received line is handed to `onMessage` on the reader thread, in order.
final class SocketLineConnection: LineConnection, @unchecked Sendable {
  let path: String
  private let fd: Int32
  private let writeLock = Lock()
  private let stateLock = Lock()
  private var closed = false

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
    var pending: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if count < 0, errno == EINTR { continue }
      if count <= 0 { return }
      var start = 0
      for index in 0..<count where buffer[index] == UInt8(ascii: "\n") {
        if pending.isEmpty {
          onMessage(Array(buffer[start..<index]))
        } else {
          pending += buffer[start..<index]
          onMessage(pending)
          pending.removeAll(keepingCapacity: true)
        }
        start = index + 1
      }
      if start < count { pending += buffer[start..<count] }
    }
  }

  func write(_ message: String) throws(ConnectionFailure) {
    var bytes = Array(message.utf8)
    bytes.append(UInt8(ascii: "\n"))
    writeLock.lock()
    defer { writeLock.unlock() }
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

  func close() {
    stateLock.lock()
    let wasClosed = closed
    closed = true
    stateLock.unlock()
    // Wakes the reader thread, which then reports the end; the descriptor is closed in deinit.
    if !wasClosed { shutdown(fd, Int32(SHUT_RDWR)) }
  }

  static func errorText() -> String { String(cString: strerror(errno)) }
}
