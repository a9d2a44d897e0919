public import AudioSession
import AudioSessionSystem
import FoundationEssentials
public import Logging

#if canImport(Glibc)
  import Glibc
#endif

/// What the commands need from the PulseAudio backend, which `sessionctl` does not link: the
/// daemon program, `audiosessiond`, provides it (`LivePulseSupport`) and passes it to the
/// commands it runs for `sessionctl` (docs/modules.md "What sessionctl links").
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

/// The daemon program, `audiosessiond`: the one with the backends (libpulse, sd-bus) and the
/// socket server (NIO). `sessionctl daemon` runs it in its place, a live command starts it when
/// no daemon answers, and the two commands that need the PulseAudio backend on the command line
/// (`scenario run --backend pulse`, `policy check` of a directory with `pulse.json`) are handed
/// to it, which runs them with the backend (docs/modules.md "What sessionctl links").
public enum DaemonProgram {
  /// Its file name.
  public static let name = "audiosessiond"

  /// Where it is: beside the running program (`/proc/self/exe`, symbolic links resolved: an
  /// installed `sessionctl` and its `audiosessiond` share `PREFIX/bin`), else the first
  /// executable `audiosessiond` in `PATH`.
  static func locate() throws(DaemonProgramError) -> String {
    let beside = PathText.normalized(DaemonLauncher.ownExecutable() + "/..") + "/" + name
    var candidates = [beside]
    if let path = getenv("PATH") {
      for folder in String(cString: path).split(separator: ":") where folder.hasPrefix("/") {
        candidates.append(folder + "/" + name)
      }
    }
    guard let found = candidates.first(where: { access($0, X_OK) == 0 }) else {
      throw .missing(candidates: candidates)
    }
    return found
  }

  /// Runs the daemon program in this process's place with `arguments` (`execv`: same process,
  /// same pid); returns only by throwing.
  static func exec(_ arguments: [String]) throws(DaemonProgramError) -> Never {
    let path = try locate()
    let words = [path] + arguments
    let pointers = words.map { strdup($0) } + [nil]
    execv(path, pointers)
    let reason = String(cString: strerror(errno))
    throw .cannotRun(path: path, reason: reason)
  }

  /// Hands this command, as it was typed, to the daemon program, which has the PulseAudio
  /// backend and runs it the same way (``HandedOverCommand``); returns only by throwing. Only a
  /// command that was typed is handed over: one run in-process without the backend (a test) gets
  /// an error instead.
  static func handOver() throws(DaemonProgramError) -> Never {
    let arguments = CommandLineWords.normalized(Array(CommandLine.arguments.dropFirst()))
    guard HandedOverCommand.handles(arguments) else { throw .notTyped }
    try exec(arguments)
  }

  /// The support, or, when there is none (in `sessionctl`), this command handed over to the
  /// daemon program.
  static func support(_ given: (any PulseSupport)?) throws -> any PulseSupport {
    if let given { return given }
    try handOver()
  }
}

/// Why a command could not run the daemon program.
enum DaemonProgramError: Error, CustomStringConvertible {
  case missing(candidates: [String])
  case cannotRun(path: String, reason: String)
  case notTyped

  var description: String {
    switch self {
    case .missing(let candidates):
      "this command needs the daemon program, \(DaemonProgram.name), which has the backends, "
        + "but it is not installed; looked for "
        + candidates.joined(separator: ", ")
        + " (make install installs both programs)"
    case .cannotRun(let path, let reason):
      "cannot run the daemon program \(path): \(reason)"
    case .notTyped:
      "this command needs the PulseAudio backend, which was not given to it, and is not the "
        + "command line that \(DaemonProgram.name) could run instead"
    }
  }
}
