import AudioSession
public import Logging

/// How a ``PulseAudioBackend`` finds its server, which devices it tracks, and its limits.
public struct PulseBackendConfiguration: Sendable {
  /// Where the server comes from.
  public enum Server: Sendable, Hashable {
    /// The server the environment names: `PULSE_SERVER`, else `$XDG_RUNTIME_DIR/pulse/native`
    /// (libpulse's own lookup; never autospawned).
    case environment
    /// A server address (`unix:/run/user/1000/pulse/native`) and its cookie file, if any.
    case address(String, cookieFile: String?)
    /// A private server the backend starts, restarts for `simulate server-restart`, and stops.
    case spawn(Kind)
  }

  /// The kind of private server to start.
  public enum Kind: String, Sendable, Hashable, CaseIterable {
    /// `pulseaudio`, with module-role-cork (`trigger_roles=phone cork_roles=music,video`).
    case pulseaudio
    /// `pipewire` + `wireplumber` + `pipewire-pulse` on a private D-Bus session bus.
    case pipewire
  }

  /// Which devices become the engine's devices.
  public enum Devices: Sendable, Hashable {
    /// Only the devices this backend simulates: the scenario's built-in devices, created at
    /// start from their presets, and `simulate plug`. Anything else on the server is ignored,
    /// so a scenario gives the same transcript on any server.
    case simulated
    /// Every sink and source on the server (a user's machine), mapped by `policies/pulse.json`;
    /// the initial presets are created only on a server the backend spawned (it starts empty).
    case system
  }

  public var server: Server
  public var devices: Devices
  /// `policies/pulse.json`.
  public var policy: PulsePolicy
  /// The first and the longest pause between reconnection attempts (doubling in between).
  public var reconnectDelays: (first: Duration, longest: Duration)
  /// How long an action may take to show its effect on the server before it fails.
  public var settleLimit: Duration
  /// Where the backend tells an operator about its server (connected, lost, back) and about
  /// decisions it could not apply to a session's streams; metadata `server` and `session`.
  /// Default: nowhere.
  public var logger: Logger
  /// Where the backend takes in what the server reports (nil: the cooperative pool). The daemon
  /// passes its engine thread, so that a change on the server reaches the engine with no thread
  /// switch in between (docs/apps.md "Speed").
  public var executor: (any TaskExecutor)?
  /// The file where the backend keeps what it changed on other programs' streams (muted,
  /// ducked), so that a daemon started after one that was killed undoes what it left
  /// (docs/apps.md "A daemon that was killed"). Nil: kept in memory only.
  public var changesFile: String?

  public init(
    server: Server, devices: Devices, policy: PulsePolicy,
    reconnectDelays: (first: Duration, longest: Duration) = (.milliseconds(100), .seconds(2)),
    settleLimit: Duration = .seconds(10),
    logger: Logger = Logger(
      label: "audiosession.pulse", factory: { _ in SwiftLogNoOpLogHandler() }),
    executor: (any TaskExecutor)? = nil, changesFile: String? = nil
  ) {
    self.executor = executor
    self.changesFile = changesFile
    self.server = server
    self.devices = devices
    self.policy = policy
    self.reconnectDelays = reconnectDelays
    self.settleLimit = settleLimit
    self.logger = logger
  }
}
