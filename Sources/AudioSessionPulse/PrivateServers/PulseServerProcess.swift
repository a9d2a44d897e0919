/// A private server the backend (or a test) started and owns: it can be restarted
/// (`simulate server-restart`), killed (fault tests) and stopped. Conformers:
/// ``PulsePrivateServer`` (pulseaudio) and ``PipeWirePrivateServer`` (pipewire-pulse).
import AudioSession

public protocol PulseServerProcess: AnyObject, Sendable {
  /// The address clients connect to (`unix:<runtime>/pulse/native`).
  var serverString: String { get }
  /// The authentication cookie clients pass, if the server uses one.
  var cookieFile: String? { get }
  /// The directory the server lives in.
  var runtimeDirectory: String { get }
  /// Whether the server process is alive.
  var isRunning: Bool { get }
  /// Stops the server if it runs and starts it again at the same address, empty.
  func restart() throws(PulseServerError)
  /// Kills the server process with SIGKILL, as a crash would.
  func kill()
  /// Stops everything and removes the runtime directory. Idempotent.
  func stop()
}

extension PulsePrivateServer: PulseServerProcess {
  package var cookieFile: String? { cookiePath }
}
