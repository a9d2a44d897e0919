import ArgumentParser
import AudioSession
import AudioSessionSoak
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// `audiosession-soak` (`make soak`, docs/soak.md).
@main
struct SoakCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "audiosession-soak",
    abstract: "Checks the simulated desktop against the real one, by ear.",
    discussion: """
      Makes seeded random histories of what real programs do on a desktop (mpv with \
      mpv-mpris, pacat with media roles, headless Chromium, espeak-ng, a phone call, the \
      user's playerctl play and pause, headphones pulled out, the daemon killed and started \
      again). Each history is written as a scenario with a 'heard' step after every act; \
      'sessionctl scenario run' predicts what each program is heard at. The same history is \
      then acted out by the real programs on a fresh private server with the daemon, while the \
      speaker's monitor is recorded; after each act settles, half a second of the recording \
      is judged by ear (a Goertzel filter per program's tone; speech by the energy the tones \
      leave). A step agrees when every program is heard as predicted (0, ducked or full). Each \
      disagreement is saved as a scenario under --output/<server>/ that replays the \
      prediction, with what was heard as comments. Nothing touches the user's own audio \
      server or session bus. See docs/soak.md.
      """)

  @Option(help: "The server configurations: pulse, pipewire, pipewire-roles or all.")
  var server = "all"

  @Option(help: "The most histories to run on each server configuration.")
  var histories = 200

  @Option(help: "The acts of each history.")
  var steps = 10

  @Option(
    help: "How long each server configuration may run, in seconds (no new history starts after).")
  var seconds = 3600.0

  @Option(help: "Run only this history (from 1) of the seed: to replay a disagreement.")
  var only: Int?

  @Option(help: "The seed of the histories: the same seed gives the same histories.")
  var seed: UInt64 = 1

  @Option(help: "Where disagreements are saved, one folder per server configuration.")
  var output = ".build/soak"

  @Option(
    help:
      "The sessionctl program that predicts and runs the daemon (default: the one beside this program)."
  )
  var sessionctl: String?

  @Option(help: "The policy folder (default: policies).")
  var policies = "policies"

  @Flag(
    help:
      "Print the summary as one JSON object on standard output (the steps go to standard error).")
  var json = false

  @Flag(help: "Print only the summary.")
  var quiet = false

  @Option(
    help: "Histories run at once on each server configuration, each on a private server of its own."
  )
  var jobs = 1

  @Flag(help: "Print what was heard (and measured) at every step, not only at disagreements.")
  var verbose = false

  func validate() throws {
    guard server == "all" || SoakServer(rawValue: server) != nil else {
      throw ValidationError(
        "unknown server '\(server)'; valid servers are: pulse, pipewire, pipewire-roles, all")
    }
    guard histories > 0, steps > 0, seconds > 0, jobs > 0 else {
      throw ValidationError("--histories, --steps, --seconds and --jobs must be greater than 0")
    }
  }

  mutating func run() async throws {
    let own = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path
    let policies = URL(fileURLWithPath: self.policies).standardizedFileURL.path
    let tools = SoakTools(
      sessionctl: sessionctl ?? own + "/sessionctl", policies: policies)
    let missing = tools.missing
    guard missing.isEmpty else {
      throw ValidationError(
        "missing: \(missing.joined(separator: ", ")); run scripts/install-deps.sh all")
    }
    let work = NSTemporaryDirectory() + "audiosession-soak-\(getpid())"
    try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: work) }
    Shell.scratch = work
    signal(SIGINT) { _ in soakInterrupted = 1 }
    signal(SIGTERM) { _ in soakInterrupted = 1 }
    let ear = SoakEar(duckLevel: SoakCommand.duckLevel(policies))
    let material = try SoakMaterial(folder: work + "/material", amplitude: ear.toneAmplitude)
    let settings = SoakSettings(
      servers: server == "all"
        ? SoakServer.allCases
        : [SoakServer(rawValue: server)].compactMap {
          $0
        }, histories: histories, steps: steps, seconds: seconds, seed: seed,
      output: URL(fileURLWithPath: output).standardizedFileURL.path, json: json, quiet: quiet,
      verbose: verbose,
      jobs: jobs, ear: ear, only: only.map { $0 - 1 })
    let runner = SoakRunner(settings: settings, tools: tools, material: material, work: work)
    var tallies: [SoakTally] = []
    for server in settings.servers {
      guard soakInterrupted == 0 else { break }
      tallies.append(runner.run(server))
    }
    if json {
      let summary: JSONValue = .object([
        "seed": .int(Int(truncatingIfNeeded: seed)), "stepsPerHistory": .int(steps),
        "interrupted": .bool(soakInterrupted != 0), "servers": .array(tallies.map(\.json)),
      ])
      print(summary.serialized)
    } else {
      print("\nSummary (seed \(seed), \(steps) acts a history):")
      for tally in tallies {
        let perStep = tally.steps == 0 ? 0 : tally.seconds / Double(tally.steps)
        print(
          "  \(tally.server.rawValue.padding(toLength: 15, withPad: " ", startingAt: 0))"
            + "\(tally.agreeing)/\(tally.steps) steps agree (\(String(format: "%.1f", tally.percent)) %), "
            + "\(tally.histories) histories, \(tally.unsettled) unsettled, \(tally.late) late, "
            + "\(tally.failures.count) failures, \(String(format: "%.0f", tally.seconds)) s "
            + "(\(String(format: "%.2f", perStep)) s a step)")
        for failure in tally.failures { print("    failure: \(failure)") }
        for path in tally.disagreements { print("    disagreement: \(path)") }
      }
    }
    let agreed = tallies.allSatisfy { $0.agreeing == $0.steps && $0.failures.isEmpty }
    if !agreed || soakInterrupted != 0 { throw ExitCode(1) }
  }

  /// `pulse.json`'s `streams.duckDecibels` as an amplitude (0.1 when absent), as `heard` says
  /// it (docs/contract.md "Desktop steps").
  static func duckLevel(_ policies: String) -> Double {
    guard let data = FileManager.default.contents(atPath: policies + "/pulse.json"),
      case .object(let file)? = try? JSONParser.parse([UInt8](data)),
      case .object(let streams)? = file["streams"]
    else { return 0.1 }
    switch streams["duckDecibels"] {
    case .int(let value)?: return pow(10, Double(value) / 20)
    case .double(let value)?: return pow(10, value / 20)
    default: return 0.1
    }
  }
}
