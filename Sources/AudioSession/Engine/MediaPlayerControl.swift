/// The media players on the session bus, for the daemon (docs/mpris.md): what it learns of them,
/// and a way to send them `Pause` and `Play`. The MPRIS module implements it over D-Bus; tests
/// may give their own.
public protocol MediaPlayerControl: Sendable {
  /// What the bus reports, in order, until ``stop()``: a snapshot first (empty while there is no
  /// bus), then changes.
  var events: AsyncStream<MediaPlayerEvent> { get }
  /// Starts watching the bus (once; later calls do nothing).
  func start()
  /// Sends a player a command; returns at once (a failure is logged by the control).
  func send(_ command: PlayerAction.Command, to player: String)
  /// Stops watching and closes the connection.
  func stop()
}
