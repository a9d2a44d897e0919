import AudioSession
import AudioSessionSystem
import FoundationEssentials
import Logging

#if canImport(Glibc)
  import Glibc
#endif

extension BackendChoice {
  /// The backend this choice names; the PulseAudio one talks to the server the environment names
  /// (`PULSE_SERVER`, else `$XDG_RUNTIME_DIR/pulse/native`) and tracks every device on it, mapped
  /// by `pulse.json` from the policy directory. With `spawn`, it starts a private server of that
  /// kind instead, and stops it when it stops.
  /// `support`: the PulseAudio backend, which the daemon program has; without it (in
  /// `sessionctl`) the command is handed over to that program (``DaemonProgram/handOver()``).
  func makeBackend(
    policyDirectory: String, spawn: PulseServerKind? = nil, simulatedDevices: Bool = false,
    support: (any PulseSupport)?,
    logger: Logger = Logger(label: "sessionctl", factory: { _ in SwiftLogNoOpLogHandler() }),
    executor: (any TaskExecutor)? = nil, changesFile: String? = nil
  ) throws -> any AudioBackend {
    switch self {
    case .simulated:
      return InMemoryAudioBackend()
    case .pulse:
      let support = try DaemonProgram.support(support)
      do throws(PolicyValidationError) {
        return try support.makeBackend(
          policyDirectory: policyDirectory, spawn: spawn, simulatedDevices: simulatedDevices,
          logger: logger, executor: executor, changesFile: changesFile)
      } catch {
        throw PolicyOptions.LoadError.invalid(directory: policyDirectory, error)
      }
    }
  }

  /// The backend a daemon started by a live command uses: PulseAudio when a server is reachable,
  /// the simulated one otherwise, with the reason in words.
  static func automatic(environment: [String: String] = ProcessInfo.processInfo.environment)
    -> (BackendChoice, reason: String)
  {
    if let server = environment["PULSE_SERVER"], !server.isEmpty {
      return (.pulse, "PULSE_SERVER names a PulseAudio server: \(server)")
    }
    guard let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty else {
      return (.simulated, "no PulseAudio server: neither PULSE_SERVER nor XDG_RUNTIME_DIR is set")
    }
    let socket = runtime + "/pulse/native"
    if answers(socket) { return (.pulse, "a PulseAudio server answers on \(socket)") }
    return (.simulated, "no PulseAudio server answers on \(socket)")
  }

  /// Whether something accepts connections on a Unix socket.
  static func answers(_ path: String) -> Bool { UnixSocketAddress.answers(path) }
}
