public import AudioSessionCore
public import AudioSessionHost
import AudioSessionSystem
import FoundationEssentials
public import Logging

#if canImport(Glibc)
  import Glibc
#endif

/// What the commands need from the PulseAudio backend, which `sessionctl` does not link:
/// `sessionctl-pulse` provides it (docs/modules.md "What sessionctl links").
public protocol PulseSupport: Sendable {
  /// Reads `pulse.json` from `directory`: its problems, or how many port rules it has.
  func checkPolicy(directory: String) throws(PolicyValidationError) -> Int
  /// The PulseAudio backend, on the server the environment names or on a private server of
  /// `spawn`'s kind; with simulated devices (a scenario) or the server's own.
  /// `executor`: where it takes in what the server reports (the daemon's engine thread).
  /// `changesFile`: where it keeps what it changed on other programs' streams, for a daemon
  /// started after one that was killed (nil: nowhere).
  func makeBackend(
    policyDirectory: String, spawn: PulseServerKind?, simulatedDevices: Bool, logger: Logger,
    executor: (any TaskExecutor)?, changesFile: String?
  ) throws(PolicyValidationError) -> any AudioBackend
  /// The private server a backend started: its folder and the PULSE_SERVER string that reaches it.
  func privateServer(of backend: any AudioBackend) async -> (folder: String, server: String)?
  /// The media players on the environment's D-Bus session bus (docs/mpris.md).
  func makePlayers(environment: [String: String], logger: Logger) -> any MediaPlayerControl
}

/// The private servers `--spawn-server` can start.
public enum PulseServerKind: String, Sendable {
  case pulseaudio, pipewire
}

/// Where the commands find the PulseAudio backend.
public enum PulseLink {
  /// Set by `sessionctl-pulse` (and by tests that run commands in-process) before any command.
  nonisolated(unsafe) public static var support: (any PulseSupport)?

  /// The executable that has the backend, installed beside this one.
  static let executableName = "sessionctl-pulse"

  /// The backend support; without it, `sessionctl` runs `sessionctl-pulse` with the same
  /// arguments in this process's place (it does not return), and any other program (a test
  /// binary) gets an error.
  static func required() throws -> any PulseSupport {
    if let support { return support }
    let current = DaemonLauncher.ownExecutable()
    let folder = PathText.normalized(current + "/..")
    guard current.hasSuffix("/sessionctl") else { throw PulseLinkError.notLinked(program: current) }
    let candidates = [folder + "/" + executableName]
    guard let full = candidates.first(where: { access($0, X_OK) == 0 }) else {
      throw PulseLinkError.missing(candidates: candidates)
    }
    // argv[0] stays what it was, so that the process still shows as `sessionctl daemon …` (in
    // `ps`, and to live commands looking for a daemon that is starting).
    var arguments = CommandLine.arguments
    let pointers = arguments.indices.map { strdup(arguments[$0]) } + [nil]
    execv(full, pointers)
    arguments.removeAll()
    throw PulseLinkError.cannotRun(path: full, reason: String(cString: strerror(errno)))
  }
}

/// Why a command could not reach the PulseAudio backend.
enum PulseLinkError: Error, CustomStringConvertible {
  case notLinked(program: String)
  case missing(candidates: [String])
  case cannotRun(path: String, reason: String)

  var description: String {
    switch self {
    case .notLinked(let program):
      "\(program) was built without the PulseAudio backend; run sessionctl-pulse instead"
    case .missing(let candidates):
      "this command needs the PulseAudio backend, which sessionctl runs from "
        + "\(PulseLink.executableName), but it is not installed; looked for "
        + candidates.joined(separator: " and ")
        + " (make install installs both programs)"
    case .cannotRun(let path, let reason):
      "cannot run \(path) for the PulseAudio backend: \(reason)"
    }
  }
}
