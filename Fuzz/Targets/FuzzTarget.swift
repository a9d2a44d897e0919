/// The fuzzing targets (docs/fuzzing.md): one entry point for each reader of outside input,
/// which libFuzzer drives with mutated bytes (`make fuzz`, `Fuzz/Driver`) and the test suite
/// replays with the seeds and the regressions kept in `Fuzz/` (FuzzRegressionTests).
///
/// An entry point takes any bytes and returns; it traps (and so the fuzzer reports a crash)
/// only when the code under test does, or when an answer breaks what its document promises
/// (a reply that is not one JSON object, a request that reads back differently).
public enum FuzzTarget: String, CaseIterable, Sendable {
  /// The daemon's line framing, bytes as they come from a socket in reads of any size.
  case wireFrames = "wire-frames"
  /// One line read as a request (`DaemonRequest(message:)`).
  case wireRequest = "wire-request"
  /// One line read as a reply, by the client (`DaemonReply(object:)` and what it carries).
  case wireReply = "wire-reply"
  /// Lines that reach a daemon core on the simulated backend and are run.
  case daemonRequest = "daemon-request"
  /// The JSON reader as the wire reads (strict: 64-bit integers, no repeated member).
  case jsonWire = "json-wire"
  /// The JSON reader as documents are read (policies: duplicates reported, a byte-order mark).
  case jsonDocument = "json-document"
  /// A scenario file: YAML, then its steps parsed as commands.
  case scenario
  /// One policy file's contents, the others the repository's.
  case policy
  /// The daemon's state file: the snapshot and its journal.
  case stateFile = "state-file"
  /// The media players a previous daemon paused.
  case pausedPlayers = "paused-players"
  /// The PulseAudio backend's changes file and its intent file, and what is undone of them.
  case changesFile = "changes-file"

  /// The document section that says what the target's reader must do.
  public var section: String {
    switch self {
    case .wireFrames: "docs/protocol.md \"Framing\""
    case .wireRequest: "docs/protocol.md \"Requests and replies\""
    case .wireReply: "docs/protocol.md \"Requests and replies\""
    case .daemonRequest: "docs/protocol.md \"Request timeout\""
    case .jsonWire: "docs/protocol.md \"Framing\""
    case .jsonDocument: "docs/style.md §3.5"
    case .scenario: "docs/contract.md \"Scenario files (`sessionctl scenario run`)\""
    case .policy: "docs/contract.md \"Policies (`policies/`)\""
    case .stateFile: "docs/protocol.md \"The state file\""
    case .pausedPlayers: "docs/mpris.md \"A daemon that stops\""
    case .changesFile: "docs/apps.md \"A daemon that was killed\""
    }
  }

  /// Feeds `bytes` to the target's reader.
  public func run(_ bytes: [UInt8]) async {
    switch self {
    case .wireFrames: Self.wireFrames(bytes)
    case .wireRequest: Self.wireRequest(bytes)
    case .wireReply: Self.wireReply(bytes)
    case .daemonRequest: await Self.daemonRequest(bytes)
    case .jsonWire: Self.json(bytes, document: false)
    case .jsonDocument: Self.json(bytes, document: true)
    case .scenario: Self.scenario(bytes)
    case .policy: Self.policy(bytes)
    case .stateFile: Self.stateFile(bytes)
    case .pausedPlayers: Self.pausedPlayers(bytes)
    case .changesFile: Self.changesFile(bytes)
    }
  }

  /// Splits `bytes` at the first NUL byte: two inputs of one (a file and the one beside it).
  static func split(_ bytes: [UInt8]) -> ([UInt8], [UInt8]?) {
    guard let nul = bytes.firstIndex(of: 0) else { return (bytes, nil) }
    return (Array(bytes[..<nul]), Array(bytes[(nul + 1)...]))
  }
}
