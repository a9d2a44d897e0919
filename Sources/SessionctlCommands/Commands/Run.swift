import ArgumentParser
import AudioSession
import AudioSessionSystem
import AudioSessionWire
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

extension Sessionctl {
  /// `sessionctl run [--session NAME] [CATEGORY] [--mode M] [--options a,b] -- COMMAND [ARGS...]`.
  struct Run: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "run",
      abstract: "Runs a program whose audio belongs to a session of its own.",
      discussion: """
        The session is configured as given (playback when no category is given) and belongs to \
        this run. COMMAND's streams are tagged for it (audiosession.session=NAME, through \
        PULSE_PROP, which PulseAudio clients read); the session activates while one of them plays \
        and deactivates, notifying others, when none does, and ends when COMMAND exits. Signals \
        (INT, TERM, HUP, QUIT) are passed on to COMMAND, and run exits with COMMAND's status \
        (128 + the signal's number when a signal ended it). Example: \
        sessionctl run playback --mode moviePlayback -- mpv film.mkv
        """)

    @Argument(help: "The category, by its Swift name (default: playback).")
    var category: AudioSession.Category?

    @Option(help: "The mode, by its Swift name.")
    var mode: Mode?

    @Option(
      help: ArgumentHelp(
        "Category options, comma-separated (allowBluetooth is accepted for allowBluetoothHFP).",
        valueName: "option,…"))
    var options: CategoryOptionList?

    @Option(
      name: .customLong("session"),
      help: ArgumentHelp(
        "The session's name (default: the program's name and run's pid).",
        valueName: "name"))
    var session: String?

    @OptionGroup var connection: LiveConnectionOptions

    @Argument(parsing: .postTerminator, help: "The program to run and its arguments, after --.")
    var command: [String] = []

    func validate() throws {
      guard let program = command.first, !program.isEmpty else {
        throw ValidationError(
          "give the program to run after --: sessionctl run playback -- mpv film.mkv")
      }
      if let session, let problem = StepParser.sessionNameProblem(session) {
        throw ValidationError(problem)
      }
    }

    /// The session's name: `--session`, else the program's name and this process's pid.
    var sessionName: String {
      if let session { return session }
      let base = (command.first ?? "run").split(separator: "/").last.map(String.init) ?? "run"
      let reduced = String(
        String.UnicodeScalarView(
          base.unicodeScalars.filter {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
              || $0 == "_" || $0 == "-"
          }))
      return "\(reduced.isEmpty ? "run" : reduced).\(getpid())"
    }

    func run() async throws {
      let name = sessionName
      let client = try LiveClient.connect(connection)
      defer { client.close() }
      let socketPath = connection.socketPath
      let program = command[0].split(separator: "/").last.map(String.init) ?? command[0]
      for operation: DaemonRequest.Operation in [
        .hello(client: program), .follow(session: name),
        .command(
          .input(
            .setCategory(
              session: name, category: category ?? .playback, mode: mode,
              options: options?.bits ?? []))),
      ] {
        let reply = try LiveClient.request(operation, on: client, socketPath: socketPath)
        if let error = reply.error { throw RunError.refused(error.description) }
      }
      var environment = ProcessInfo.processInfo.environment
      let tag = "audiosession.session=\(name)"
      environment["PULSE_PROP"] = [environment["PULSE_PROP"], tag].compactMap { $0 }
        .filter { !$0.isEmpty }.joined(separator: " ")
      let status = try RunChild.run(command, environment: environment)
      client.close()
      throw ExitCode(status)
    }
  }
}

/// Why `run` could not start its program.
enum RunError: Error, CustomStringConvertible {
  case refused(String)
  case cannotStart(String, reason: String)

  var description: String {
    switch self {
    case .refused(let message): message
    case .cannotStart(let program, let reason): "cannot run \(program): \(reason)"
    }
  }
}

/// The child of `sessionctl run`: looked up in PATH, with this process's standard streams and
/// nothing else of it, sent the signals run receives, and waited for.
enum RunChild {
  /// The running child's pid, for the signal handler (which cannot capture context).
  nonisolated(unsafe) static var pid: pid_t = 0

  /// Runs `arguments` (searched in PATH) and returns its exit status: its code, or 128 + the
  /// number of the signal that ended it.
  static func run(_ arguments: [String], environment: [String: String]) throws -> Int32 {
    for number in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] {
      signal(number) { received in
        if RunChild.pid > 0 { kill(RunChild.pid, received) }
      }
    }
    // The child starts with no signal blocked and every signal's default action
    // (`ChildProcess`): run's own thread (a libdispatch worker) blocks them all, and a spawned
    // program inherits its spawner's mask.
    let child: ChildProcess
    do {
      child = try ChildProcess.spawn(
        arguments[0], arguments: Array(arguments.dropFirst()), environment: environment,
        input: .inherited, output: .inherited, error: .inherited, searchingPath: true)
    } catch {
      throw RunError.cannotStart(arguments[0], reason: error.reason)
    }
    pid = child.pid
    defer { pid = 0 }
    return child.waitUntilExit()
  }
}
