/// What the server says about itself. The corresponding C type is `pa_server_info`.
import AudioSession

public struct PulseServerInfo: Sendable, Hashable {
  /// `pulseaudio`, or `PulseAudio (on PipeWire 0.3.65)` for pipewire-pulse.
  public var serverName: String
  public var serverVersion: String
  public var userName: String
  public var hostName: String
  /// The sink new streams play to; nil when the server has none. pipewire-pulse may briefly
  /// report the placeholder `@DEFAULT_SINK@`.
  public var defaultSinkName: String?
  public var defaultSourceName: String?
  /// A random number identifying this server instance (changes on restart).
  public var cookie: UInt32

  public init(
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
  public var isPipeWire: Bool { serverName.contains("PipeWire") }
}
