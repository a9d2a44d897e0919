/// What the server says about itself. The corresponding C type is `pa_server_info`.
import AudioSession

package struct PulseServerInfo: Sendable, Hashable {
  /// `pulseaudio`, or `PulseAudio (on PipeWire 0.3.65)` for pipewire-pulse.
  package var serverName: String
  package var serverVersion: String
  package var userName: String
  package var hostName: String
  /// The sink new streams play to; nil when the server has none. pipewire-pulse may briefly
  /// report the placeholder `@DEFAULT_SINK@`.
  package var defaultSinkName: String?
  package var defaultSourceName: String?
  /// A random number identifying this server instance (changes on restart).
  package var cookie: UInt32

  package init(
    serverName: String, serverVersion: String, userName: String, hostName: String,
    defaultSinkName: String?, defaultSourceName: String?, cookie: UInt32
  ) {
    self.serverName = serverName
    self.serverVersion = serverVersion
    self.userName = userName
    self.hostName = hostName
    self.defaultSinkName = defaultSinkName
    self.defaultSourceName = defaultSourceName
    self.cookie = cookie
  }

  /// Whether the server is pipewire-pulse (no role modules, no stream events).
  package var isPipeWire: Bool { serverName.contains("PipeWire") }
}
