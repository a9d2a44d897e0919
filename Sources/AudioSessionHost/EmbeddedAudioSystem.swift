public import AudioSession
import AudioSessionPolicies
import AudioSessionSystem
public import AudioSessionWire
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// An audio system inside the process: the daemon's core and engine on the simulated backend,
/// with no daemon and no socket. Sessions made with ``AudioSession/Connection/embedded(_:)`` are
/// arbitrated against each other exactly as the daemon would, so an app's interruption and
/// route-change handling can be tested in-process.
///
/// The engine runs on a thread of its own; calls block until it has decided, as they do against
/// the daemon.
public final class EmbeddedAudioSystem: EmbeddedEngine {
  let executor: DedicatedThreadExecutor
  let core: DaemonCore
  private let control: DaemonConnection

  /// Starts a simulated system with the given policy and devices (preset names; nil: the policy's
  /// default devices).
  public init(policy: Policy, devices: [String]? = nil) throws(SessionError) {
    let executor = DedicatedThreadExecutor(name: "audiosession-embedded")
    let result = executor.runBlocking { () async -> Result<DaemonCore, SessionError> in
      do throws(SessionError) {
        return .success(
          try await DaemonCore(
            policy: policy, backend: InMemoryAudioBackend(), devices: devices, stateFile: nil,
            identity: DaemonCore.Identity(pid: getpid(), profile: policy.profile.name),
            executor: executor))
      } catch {
        return .failure(error)
      }
    }
    self.executor = executor
    switch result {
    case .success(let core): self.core = core
    case .failure(let error):
      executor.stop()
      throw error
    }
    control = DaemonConnection(
      link: EmbeddedLineConnection(core: core, executor: executor), handlers: .init())
  }

  /// Starts a simulated system with the policy tables of a directory (nil: the default lookup,
  /// ``PolicyLoader/search(packaged:)``, which ends with the tables shipped as the package's
  /// resources, so that `EmbeddedAudioSystem()` works in a package that depends on this one) and
  /// a profile (nil: the default one).
  public convenience init(
    policyDirectory: String? = nil, profile: String? = nil, devices: [String]? = nil
  ) throws {
    let search =
      policyDirectory == nil ? PolicyLoader.search(packaged: PackagedPolicies.directory) : nil
    guard let directory = policyDirectory ?? search?.directory else {
      throw SessionError(
        .badParam,
        """
        no policy directory found: pass policyDirectory, or set \
        \(PolicyLoader.environmentVariable); looked in:
        \(search?.report ?? "")
        """
      )
    }
    let table = try PolicyLoader.load(directory: directory)
    try self.init(policy: try Policy(table: table, profile: profile), devices: devices)
  }

  deinit {
    control.close()
    executor.stop()
  }

  /// Changes the simulated system (`sessionctl simulate …`): plugs a device, starts a call, …
  public func simulate(_ action: SimulationAction) throws(SessionError) {
    try perform(.command(.simulate(action)))
  }

  /// The whole state, as `sessionctl status` shows it.
  public func status() -> EngineStatus {
    let core = self.core
    return executor.runBlocking { await core.status() }
  }

  public func connect(_ handlers: DaemonConnection.Handlers) -> DaemonConnection {
    DaemonConnection(
      link: EmbeddedLineConnection(core: core, executor: executor), handlers: handlers)
  }

  private func perform(_ operation: DaemonRequest.Operation) throws(SessionError) {
    let reply: DaemonReply
    do {
      reply = try control.request(operation)
    } catch {
      throw SessionError(.mediaServicesFailed, error.description)
    }
    switch reply.error {
    case .session(let error)?: throw error
    case .protocolError(let error)?: throw SessionError(.badParam, error.message)
    case nil: return
    }
  }
}

/// The in-process link to an embedded core: messages go to the core as tasks on its thread, and
/// come back through a peer.
final class EmbeddedLineConnection: LineConnection, Sendable {
  private let core: DaemonCore
  private let executor: DedicatedThreadExecutor
  /// The core's number for this connection and what to call once it closes; nil when closed.
  private let link = Mutex<(id: ConnectionID?, onClose: (@Sendable () -> Void)?)>((nil, nil))

  init(core: DaemonCore, executor: DedicatedThreadExecutor) {
    self.core = core
    self.executor = executor
  }

  /// Delivers the core's messages to the client.
  private final class Peer: DaemonPeer {
    let onMessage: @Sendable ([UInt8]) -> Void

    init(_ onMessage: @escaping @Sendable ([UInt8]) -> Void) { self.onMessage = onMessage }

    func send(_ message: String) { onMessage(Array(message.utf8)) }
  }

  func start(
    onMessage: @escaping @Sendable ([UInt8]) -> Void, onClose: @escaping @Sendable () -> Void
  ) {
    let core = self.core
    let peer = Peer(onMessage)
    let id = executor.runBlocking { await core.connect(peer) }
    link.withLock { $0 = (id, onClose) }
  }

  func write(_ message: String) throws(ConnectionFailure) {
    guard let id = link.withLock({ $0.id }) else {
      throw ConnectionFailure("the embedded connection is closed")
    }
    let core = self.core
    let bytes = Array(message.utf8)
    Task(executorPreference: executor) { await core.receive(bytes, from: id) }
  }

  func close() {
    let (id, onClose) = link.withLock { link in
      defer { link = (nil, nil) }
      return link
    }
    guard let id else { return }
    let core = self.core
    Task(executorPreference: executor) {
      await core.disconnect(id)
      onClose?()
    }
  }
}
