import AudioSession
import AudioSessionClient
import AudioSessionDaemon
import AudioSessionHost
import AudioSessionSystem
import AudioSessionWire
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A daemon served in-process by the real server on a private socket in a fresh temporary folder
/// (never the user's default path); tests talk to it through real sockets.
final class DaemonHarness: Sendable {
  let folder: String
  let socketPath: String
  let statePath: String
  let server: DaemonServer

  private init(folder: String, server: DaemonServer, statePath: String) {
    self.folder = folder
    self.socketPath = server.socketPath
    self.statePath = statePath
    self.server = server
  }

  /// A fresh temporary folder with a short path (Unix socket paths are limited to 107 bytes).
  static func makeFolder() throws -> String {
    var template = Array("/tmp/as-test-XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else {
      throw ConnectionFailure("mkdtemp failed: \(String(cString: strerror(errno)))")
    }
    return String(cString: made)
  }

  /// Starts a daemon on the simulated backend; its socket is `<folder>/d/daemon.sock`.
  ///
  /// - Parameter policy: The policy to arbitrate with (nil: the repository's, with `profile`).
  /// - Parameter limits: What the server holds at most (nil: the daemon's defaults).
  static func start(
    folder: String? = nil, profile: String? = nil, policy: Policy? = nil,
    limits: DaemonLimits? = nil
  ) async throws -> DaemonHarness {
    let folder = try folder ?? makeFolder()
    let socketPath = folder + "/d/daemon.sock"
    let statePath = WireProtocol.defaultStatePath(socketPath: socketPath)
    let core = try await DaemonCore(
      policy: policy ?? TestPolicies.policy(profile), backend: InMemoryAudioBackend(),
      stateFile: statePath, identity: DaemonCore.Identity(pid: getpid(), profile: "default"))
    let server = try await DaemonServer.start(
      core: core, socketPath: socketPath, limits: limits ?? .standard())
    return DaemonHarness(folder: folder, server: server, statePath: statePath)
  }

  /// Stops the daemon (its socket is removed) and, unless `keepFolder`, removes the folder.
  func stop(keepFolder: Bool = false) async {
    await server.stop()
    if !keepFolder { try? FileManager.default.removeItem(atPath: folder) }
  }

  /// A library-level connection.
  func connect(_ recorder: NotificationRecorder? = nil) throws -> DaemonConnection {
    try DaemonConnection(
      socketPath: socketPath,
      handlers: .init(notification: { recorder?.record($0) }, closed: { recorder?.close() }))
  }

  /// A session of the client library, named `name`.
  func session(_ name: String) throws -> AVAudioSession {
    try AVAudioSession(name: name, connection: .daemon(socketPath: socketPath))
  }
}
