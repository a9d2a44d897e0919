/// A client connection as ``DaemonCore`` sees it: somewhere to send messages.
///
/// The socket server wraps a channel in one; the embedded engine wraps an in-process client.
public protocol DaemonPeer: AnyObject, Sendable {
  /// Queues one message (a JSON object, no newline) for the client. It must not block: the core
  /// calls it while arbitrating for everyone.
  func send(_ message: String)
}
