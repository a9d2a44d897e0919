/// Something that changes the system the engine arbitrates, as `sessionctl simulate` asks.
public enum SimulationAction: Sendable, Hashable {
  /// Attaches a device made from a preset (`headphones`).
  case plug(preset: String)
  /// Detaches a device by UID, or the most recently plugged device of a preset.
  case unplug(String)
  case call(active: Bool)
  case silentSwitch(on: Bool)
  case screenLock(on: Bool)
  case micMute(on: Bool)
  /// The media server goes away and comes back (mediaServicesWereLost, then …WereReset).
  case serverRestart
  /// The media services are lost (`lost` true) or reset, as two separate steps; between them
  /// every call that changes a session fails with mediaServicesFailed (docs/avaudiosession.md
  /// §6.4). The simulated backend's only.
  case mediaServices(lost: Bool)
  /// A call rings (answered by `call(active: true)`, declined by `call(active: false)`).
  case callRing(CallStyle)
  /// Siri starts listening, or goes away. The engine's only: no backend has a Siri.
  case siri(active: Bool)
  /// A system alarm (the Clock app) sounds, or is dismissed. The engine's only: no backend has
  /// a Clock app.
  case alarm(active: Bool)
  /// The system volume (`outputVolume`), 0…1: the PulseAudio backend sets its default sink's.
  case volume(Double)
  /// The user grants or denies the record permission. The engine's only.
  case recordPermission(RecordPermission)
}

/// What a backend saw on its own (``AudioBackend/observedEvents``).
public enum BackendEvent: Sendable, Hashable {
  /// A change for the engine: a device plugged, a call, the server lost or back.
  case input(EngineInput)
  /// Other programs' streams changed.
  case streams(ServerStreamEvent)
}

/// Where devices, calls and switches come from, and where the engine's decisions are applied.
///
/// Contract (checked by `AudioBackendContractTests` for every conformer):
/// - ``start(catalog:initialDevices:)`` returns the devices present, built-in first;
/// - ``perform(_:)`` returns, once the backend has settled, the engine inputs the action caused,
///   in order; a bad action throws a ``SessionError`` and changes nothing;
/// - ``apply(_:status:)`` makes real audio follow the engine (the simulated backend has none);
///   it is called after every command that may change state, with the notifications it caused;
/// - ``observedEvents`` carries the changes the backend saw on its own (a device a user plugged,
///   a call that arrived, another program's stream), never those a ``perform(_:)`` returned, in
///   the one order they happened in.
public protocol AudioBackend: AnyObject, Sendable {
  /// The status with what the real hardware reports in place of the simulated values (a
  /// session's sample rate, channel counts and latencies come from its route's sink and
  /// source); the status as given for a backend with no real hardware.
  func withRealHardware(_ status: EngineStatus) async -> EngineStatus
  /// `simulated` or `pulse`.
  var name: String { get }
  func start(catalog: DeviceCatalog, initialDevices: [String]) async throws(SessionError)
    -> [Device]
  func perform(_ action: SimulationAction) async throws(SessionError) -> [EngineInput]
  func apply(_ notifications: [SessionNotification], status: EngineStatus) async
  func stop() async
  /// What the backend observed on its own, in the order it saw it: engine inputs and other
  /// programs' streams (docs/apps.md), a ``ServerStreamEvent/snapshot(_:)`` of these first; it
  /// finishes when the backend stops. One stream, so that a call seen as a program's phone
  /// stream and as the server's call signal reaches the arbiter as facts in one order.
  var observedEvents: AsyncStream<BackendEvent> { get }
  /// The real media server's state (connected, or lost and reconnecting since when); nil for a
  /// backend with no server (the simulated one).
  var serverStatus: MediaServerStatus? { get async }
  /// What the last ``perform(_:)`` did beyond the simulation, for the user (a virtual device
  /// loaded on a real server they use); the command reports them as warnings. Taking them
  /// empties them.
  func takeSimulationNotes() async -> [String]
  /// Which session each of other programs' streams belongs to; the host calls it whenever that
  /// changes, before the ``apply(_:status:)`` of the decisions that follow.
  func assign(_ assignment: StreamAssignment) async
  /// Whether the backend reports other programs' streams (``observedEvents`` begins with their
  /// snapshot): the daemon then waits for it before it plays a player a previous daemon left
  /// paused, as a call may be going on.
  var reportsStreams: Bool { get }
  /// Whether ``apply(_:status:)`` reads the status's sessions. One that does not (the simulated
  /// backend, whose `apply` does nothing) is handed a status without them, so that a change
  /// costs nothing in proportion to the sessions there are (one `set` with 10,000 sessions
  /// held: docs/protocol.md "The state file").
  var followsSessions: Bool { get }
}

extension AudioBackend {
  /// A backend whose simulation stays inside it (the simulated one) has nothing to add.
  public func takeSimulationNotes() async -> [String] { [] }

  /// A backend that observes nothing on its own (the simulated one): an empty, finished stream.
  public var observedEvents: AsyncStream<BackendEvent> {
    AsyncStream { $0.finish() }
  }

  /// A backend with no other programs' streams ignores assignments.
  public func assign(_ assignment: StreamAssignment) async {}

  /// A backend with no real server (the simulated one): nil.
  public var serverStatus: MediaServerStatus? { nil }

  /// A backend reports no streams unless it says so.
  public var reportsStreams: Bool { false }

  /// Backends follow every session unless they say otherwise.
  public var followsSessions: Bool { true }
}

extension AudioBackend {
  public func withRealHardware(_ status: EngineStatus) async -> EngineStatus { status }
}
