import AudioSessionHost
package import Synchronization

/// Collects what the core sends a client.
package final class RecordingPeer: DaemonPeer, @unchecked Sendable {
  package let lines = Mutex<[String]>([])
  package init() {}
  package func send(_ message: String) { lines.withLock { $0.append(message) } }
}
