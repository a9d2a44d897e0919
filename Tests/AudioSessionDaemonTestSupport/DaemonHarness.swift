package import AudioSession
package import AudioSessionClient
package import AudioSessionDaemon
package import AudioSessionHost
import AudioSessionSystem
package import AudioSessionTestSupport
package import AudioSessionWire
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A daemon served in-process by the real server on a private socket in a fresh temporary folder
/// (never the user's default path); tests talk to it through real sockets.
package final class DaemonHarness: Sendable {
  package let folder: String
  package let socketPath: String
  package let statePath: String
  package let server: DaemonServer

  private init(folder: String, server: DaemonServer, statePath: String) {
    self.folder = folder
    self.socketPath = server.socketPath
    self.statePath = statePath
    self.server = server
  }

  /// Starts a daemon on the simulated backend; its socket is `<folder>/d/daemon.sock`.
  ///
  /// - Parameter policy: The policy to arbitrate with (nil: the repository's, with `profile`).
  /// - Parameter limits: What the server holds at most (nil: the daemon's defaults).
  package static func start(
    folder: String? = nil, profile: String? = nil, policy: Policy? = nil,
    limits: DaemonLimits? = nil
  ) async throws -> DaemonHarness {
    let folder = try folder ?? TemporaryFolder.make()
    let socketPath = folder + "/d/daemon.sock"
    let statePath = WireProtocol.defaultStatePath(socketPath: socketPath)
    let core = try await DaemonCore(
      policy: policy ?? TestPolicies.policy(profile), backend: InMemoryAudioBackend(),
      stateFile: statePath, identity: DaemonCore.Identity(pid: getpid(), profile: "default"))
    let server = try await DaemonServer.start(
      core: core, socketPath: socketPath, limits: limits ?? .standard())
    return DaemonHarness(folder: folder, server: server, statePath: statePath)
  }

  /// The server's core, for what a test asks it directly (its sessions).
  package var core: DaemonCore { server.core }

  /// Stops the daemon (its socket is removed) and, unless `keepFolder`, removes the folder.
  package func stop(keepFolder: Bool = false) async {
    await server.stop()
    if !keepFolder { try? FileManager.default.removeItem(atPath: folder) }
  }

  /// A library-level connection.
  package func connect(_ recorder: NotificationRecorder? = nil) throws -> DaemonConnection {
    try DaemonConnection(
      socketPath: socketPath,
      handlers: .init(notification: { recorder?.record($0) }, closed: { recorder?.close() }))
  }

  /// A session of the client library, named `name`.
  package func session(_ name: String) throws -> AVAudioSession {
    try AVAudioSession(name: name, connection: .daemon(socketPath: socketPath))
  }
}
