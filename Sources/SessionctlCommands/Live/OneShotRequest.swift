import ArgumentParser
import AudioSessionCore
import AudioSessionWire

/// One live command as plain values: the library command, `--json`, and how to reach the
/// daemon. `SessionctlMain` runs it on the main thread with no task and no reader thread: one
/// request, its reply printed (docs/modules.md "What sessionctl links").
struct OneShotRequest: Equatable {
  var command: Command
  var json: Bool
  var endpoint: LiveEndpoint

  /// What ArgumentParser parsed.
  init(_ live: any LiveCommand) {
    command = live.command()
    json = (live as? any JSONOutputCommand)?.json ?? false
    endpoint = live.connection.endpoint
  }

  /// Sends the command to the daemon (starting one if none runs) and prints what it answered
  /// and the notifications it caused.
  ///
  /// - Throws: The connection's failures; ``LiveCommandError`` (or, with `--json`, a failure exit
  ///   code after the printed reply) when the daemon refused the command.
  func run() throws {
    let client = try LiveClient.connect(endpoint, readingOnCaller: true)
    let reply = try LiveClient.request(
      .command(command), on: client, socketPath: endpoint.socketPath)
    LiveOutput(json: json).lines(for: reply, session: command.session).forEach { print($0) }
    if let error = reply.error {
      throw json ? ExitCode.failure : LiveCommandError(error: error)
    }
  }
}

// MARK: - The fast path

extension OneShotRequest {
  /// The simplest live commands, read without ArgumentParser: a one-shot's start-up was mostly
  /// ArgumentParser building its parser (reflection, generic metadata, conformance scans over
  /// the whole binary), several times what the request and its reply cost (issue 9 item 7,
  /// against `pactl info`). Each takes its flags, `--socket PATH` and `--timeout SECONDS`, and
  /// if `session`, `--session NAME`; each option once, its value as the next word.
  ///
  /// Anything else (another command, `--help`, `--socket=PATH`, a repeated option, a value that
  /// starts with `-`, a value ArgumentParser would refuse) is not read here: ArgumentParser
  /// reads it as always, with its messages. `OneShotFastPathTests` checks that every command
  /// line read here is read the same by ArgumentParser.
  private struct Shape {
    var flags: [String]
    var session: Bool
    var make: @Sendable (_ session: String, _ flags: Set<String>) -> Command
  }

  private static let shapes: [String: Shape] = [
    "status": Shape(flags: ["--json"], session: false) { _, _ in .status },
    "devices": Shape(flags: ["--json"], session: false) { _, _ in .devices },
    "route": Shape(flags: ["--json"], session: true) { session, _ in .route(session: session) },
    "activate": Shape(flags: [], session: true) { session, _ in .activate(session: session) },
    "deactivate": Shape(flags: ["--notify-others"], session: true) { session, flags in
      .deactivate(session: session, notifyOthers: flags.contains("--notify-others"))
    },
    "play": Shape(flags: [], session: true) { session, _ in .play(session: session) },
    "stop": Shape(flags: [], session: true) { session, _ in .stop(session: session) },
    "remove": Shape(flags: [], session: true) { session, _ in .remove(session: session) },
  ]

  /// The command names the fast path reads.
  static var fastCommands: [String] { shapes.keys.sorted() }

  /// The request `arguments` (the command line without the program) stand for, when it is one
  /// the fast path reads; else nil, and ArgumentParser reads it.
  init?(arguments: [String]) {
    guard let name = arguments.first, let shape = Self.shapes[name] else { return nil }
    var flags: Set<String> = []
    var values: [String: String] = [:]
    var index = arguments.index(after: arguments.startIndex)
    while index < arguments.endIndex {
      let word = arguments[index]
      if shape.flags.contains(word) {
        guard flags.insert(word).inserted else { return nil }
        index += 1
        continue
      }
      let takesValue =
        word == "--socket" || word == "--timeout" || (shape.session && word == "--session")
      guard takesValue, values[word] == nil, index + 1 < arguments.endIndex else { return nil }
      let value = arguments[index + 1]
      guard !value.isEmpty, !value.hasPrefix("-") else { return nil }
      values[word] = value
      index += 2
    }
    var seconds: Double?
    if let text = values["--timeout"] {
      guard let value = Double(text), LiveConnectionOptions.isUsable(value) else { return nil }
      seconds = value
    }
    let session = values["--session"] ?? Command.defaultSession
    if values["--session"] != nil, StepParser.sessionNameProblem(session) != nil { return nil }
    command = shape.make(session, flags)
    json = flags.contains("--json")
    endpoint = LiveEndpoint(socket: values["--socket"], seconds: seconds)
  }
}
