import AudioSession
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

extension BackendChoice {
  /// The backend this choice names; the PulseAudio one talks to the server the environment names
  /// (`PULSE_SERVER`, else `$XDG_RUNTIME_DIR/pulse/native`) and tracks every device on it, mapped
  /// by `pulse.json` from the policy directory. With `spawn`, it starts a private server of that
  /// kind instead, and stops it when it stops.
  func makeBackend(
    policyDirectory: String, spawn: PulseBackendConfiguration.Kind? = nil
  ) throws -> any AudioBackend {
    switch self {
    case .simulated:
      return InMemoryAudioBackend()
    case .pulse:
      let pulsePolicy: PulsePolicy
      do {
        pulsePolicy = try PulsePolicy.load(directory: policyDirectory)
      } catch {
        throw PolicyOptions.LoadError.invalid(directory: policyDirectory, error)
      }
      return PulseAudioBackend(
        configuration: PulseBackendConfiguration(
          server: spawn.map { .spawn($0) } ?? .environment, devices: .system,
          policy: pulsePolicy))
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
  static func answers(_ path: String) -> Bool {
    guard let connection = try? DaemonConnectionProbe(path: path) else { return false }
    connection.close()
    return true
  }
}

/// A bare connect to a Unix socket, to see whether a server listens there.
struct DaemonConnectionProbe {
  let fd: Int32

  init(path: String) throws {
    fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let capacity = MemoryLayout.size(ofValue: address.sun_path)
    guard fd >= 0, path.utf8.count < capacity else {
      if fd >= 0 { Glibc.close(fd) }
      throw CocoaError(.fileReadInvalidFileName)
    }
    withUnsafeMutableBytes(of: &address.sun_path) { buffer in
      for (index, byte) in path.utf8.enumerated() { buffer[index] = byte }
    }
    let result = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard result == 0 else {
      Glibc.close(fd)
      throw CocoaError(.fileReadNoSuchFile)
    }
  }

  func close() { Glibc.close(fd) }
}
