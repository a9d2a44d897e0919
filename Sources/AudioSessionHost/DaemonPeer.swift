/// A client connection as ``DaemonCore`` sees it: somewhere to send messages.
///
/// The socket server wraps a channel in one; the embedded engine wraps an in-process client.
public protocol DaemonPeer: AnyObject, Sendable {
  /// Queues one message (a JSON object, no newline) for the client. It must not block: the core
  /// calls it while arbitrating for everyone.
  func send(_ message: String)

  /// Queues a reply, as ``send(_:)`` does, unless the peer has no room for one this large now;
  /// nil when queued, else why not (the core then sends that error as the reply instead, and
  /// the connection carries on: docs/protocol.md "Limits").
  func sendReply(_ message: String) -> String?
}

extension DaemonPeer {
  /// Every reply is queued.
  public func sendReply(_ message: String) -> String? {
    send(message)
    return nil
  }
}
