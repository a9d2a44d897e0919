import ArgumentParser
import AudioSession
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
  ///   code after the printed reply) when the daemon refused the command; ``NotSavedError`` (or,
  ///   with `--json`, a failure exit code) when it made the change but could not save it.
  func run() throws {
    let client = try LiveClient.connect(endpoint, readingOnCaller: true)
    let reply = try LiveClient.request(
      .command(command), on: client, socketPath: endpoint.socketPath)
    LiveOutput(json: json).lines(for: reply, session: command.session).forEach { print($0) }
    if let error = reply.error {
      throw json ? ExitCode.failure : LiveCommandError(error: error)
    }
    if case .string(let notSaved)? = reply["notSaved"] {
      // Made, but lost at the daemon's next restart: not a success (docs/protocol.md "The state
      // file").
      throw json ? ExitCode.failure : NotSavedError(message: notSaved)
    }
  }
}

/// The daemon made a change but could not save it in its state file (the reply's `notSaved`);
/// ArgumentParser prints it after "Error: " on standard error and exits with status 1.
struct NotSavedError: Error, CustomStringConvertible {
  var message: String

  var description: String { message }
}

// MARK: - The fast path

extension OneShotRequest {
  /// The simplest live commands, read without ArgumentParser: a one-shot's start-up was mostly
  /// ArgumentParser building its parser (reflection, generic metadata, conformance scans over
  /// the whole binary), several times what the request and its reply cost (docs/modules.md
  /// "What `sessionctl` links"). Each takes its flags, its options, `--socket PATH` and `--timeout
  /// SECONDS`, each once, each value as the next word, and `set` its category as the one word
  /// that is neither an option nor a value. Names are read by the same functions ArgumentParser
  /// calls (`Category(argument:)`, …).
  ///
  /// Anything else (another command, `--help`, `--socket=PATH`, a repeated option, a value that
  /// starts with `-`, a value ArgumentParser would refuse, a wrong name) is not read here:
  /// ArgumentParser reads it as always, with its messages. `OneShotFastPathTests` checks that
  /// every command line read here is read the same by ArgumentParser.
  private struct Shape {
    var flags: [String] = []
    /// Options with a value, besides `--socket` and `--timeout`.
    var options: [String] = ["--session"]
    var takesCategory = false
    /// The command, or nil when a value does not read (ArgumentParser then says why).
    var make: @Sendable (Words) -> Command?
  }

  /// What a command line gave.
  private struct Words {
    var flags: Set<String>
    var values: [String: String]
    var positional: String?
    var session: String { values["--session"] ?? Command.defaultSession }
  }

  private static let shapes: [String: Shape] = [
    "status": Shape(flags: ["--json"], options: []) { _ in .status },
    "devices": Shape(flags: ["--json"], options: []) { _ in .devices },
    "route": Shape(flags: ["--json"]) { .route(session: $0.session) },
    "activate": Shape { .input(.setActive(session: $0.session, active: true, options: [])) },
    "deactivate": Shape(flags: ["--notify-others"]) {
      .input(
        .setActive(
          session: $0.session, active: false,
          options: $0.flags.contains("--notify-others") ? .notifyOthersOnDeactivation : []))
    },
    "play": Shape { .input(.startIO(session: $0.session)) },
    "stop": Shape { .input(.stopIO(session: $0.session)) },
    "remove": Shape { .input(.removeSession($0.session)) },
    "set": Shape(options: ["--session", "--mode", "--options", "--policy"], takesCategory: true) {
      words in
      guard let name = words.positional, let category = Category(argument: name) else {
        return nil
      }
      var mode: Mode?
      if let text = words.values["--mode"] {
        guard let read = Mode(argument: text) else { return nil }
        mode = read
      }
      var options: CategoryOptions = []
      if let text = words.values["--options"] {
        guard let read = CategoryOptionList(argument: text) else { return nil }
        options = read.bits
      }
      var policy = RouteSharingPolicy.default
      if let text = words.values["--policy"] {
        guard let read = RouteSharingPolicy(argument: text) else { return nil }
        policy = read
      }
      return .input(
        .setCategory(
          session: words.session, category: category, mode: mode, options: options, policy: policy))
    },
  ]

  /// The command names the fast path reads.
  static var fastCommands: [String] { shapes.keys.sorted() }

  /// The request `arguments` (the command line without the program) stand for, when it is one
  /// the fast path reads; else nil, and ArgumentParser reads it.
  init?(arguments: [String]) {
    guard let name = arguments.first, let shape = Self.shapes[name] else { return nil }
    var words = Words(flags: [], values: [:], positional: nil)
    var index = arguments.index(after: arguments.startIndex)
    while index < arguments.endIndex {
      let word = arguments[index]
      if shape.flags.contains(word) {
        guard words.flags.insert(word).inserted else { return nil }
        index += 1
        continue
      }
      if shape.takesCategory, words.positional == nil, !word.isEmpty, !word.hasPrefix("-") {
        words.positional = word
        index += 1
        continue
      }
      let takesValue =
        word == "--socket" || word == "--timeout" || shape.options.contains(word)
      guard takesValue, words.values[word] == nil, index + 1 < arguments.endIndex else {
        return nil
      }
      let value = arguments[index + 1]
      guard !value.isEmpty, !value.hasPrefix("-") else { return nil }
      words.values[word] = value
      index += 2
    }
    var seconds: Double?
    if let text = words.values["--timeout"] {
      guard let value = Double(text), LiveConnectionOptions.isUsable(value) else { return nil }
      seconds = value
    }
    if words.values["--session"] != nil, StepParser.sessionNameProblem(words.session) != nil {
      return nil
    }
    guard let command = shape.make(words) else { return nil }
    self.command = command
    json = words.flags.contains("--json")
    endpoint = LiveEndpoint(socket: words.values["--socket"], seconds: seconds)
  }
}
