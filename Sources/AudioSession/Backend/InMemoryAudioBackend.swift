// PLACEHOLDER API (being written in main by the lead; do not edit in worktrees).
/// The simulated backend: in-memory devices, calls and switches; deterministic.
public final class InMemoryAudioBackend: AudioBackend {
  public init() {}
  public let name = "simulated"
  public func start(catalog: DeviceCatalog, initialDevices: [String]) async throws(SessionError) -> [Device] { fatalError() }
  public func perform(_ action: SimulationAction) async throws(SessionError) -> [EngineInput] { fatalError() }
  public func apply(_ notifications: [SessionNotification], status: EngineStatus) async {}
  public func stop() async {}
}
