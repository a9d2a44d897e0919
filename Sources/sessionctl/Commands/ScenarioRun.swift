import ArgumentParser
import AudioSession
import Foundation

extension Sessionctl.ScenarioCommand {
  /// `sessionctl scenario run FILE [--backend simulated|pulse] [--json] [--policies DIR]
  /// [--profile NAME]`.
  struct Run: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Replays a scenario file and prints its transcript.",
      discussion: """
        A scenario file (YAML, or JSON) has a 'name' and 'steps', and optionally a \
        'description', the 'devices' present at start and a policy 'profile'. Each step is a \
        sessionctl command line; when its first word is not a command it names a session: \
        'music activate' is 'activate --session music'.

        Every step is parsed before any runs: a malformed file runs nothing and exits 1. A step \
        that fails (an AVAudioSession error) is part of the transcript; the scenario goes on and \
        exits 0. The profile is --profile, else the file's 'profile:', else the policy's default.
        """)

    @Argument(help: "The scenario file (YAML, or JSON).", completion: .file())
    var file: String

    @Option(help: "The backend to replay on (pulse is not available yet).")
    var backend: BackendChoice = .simulated

    @Flag(help: "Print the transcript as JSON lines, one object per line.")
    var json = false

    @OptionGroup var policy: PolicyOptions

    func run() async throws {
      try await perform { print($0) }
    }

    /// Runs the scenario and hands each line of the transcript to `output` as soon as it exists.
    func perform(output: (String) -> Void) async throws {
      guard backend == .simulated else { throw ScenarioRunError.pulseUnavailable }
      let (plan, policy) = try prepare()
      let text = TranscriptText(commands: plan.scenario.steps.map(\.text))
      if !json {
        let scenario = plan.scenario
        text.header(name: scenario.name, description: scenario.description, file: file)
          .forEach(output)
      }
      let entries = try await plan.run(policy: policy, backend: InMemoryAudioBackend()) { entry in
        (json ? entry.jsonLines : text.lines(entry)).forEach(output)
      }
      if !json {
        output("")
        output(TranscriptText.summary(entries))
      }
    }

    /// Reads the file and the policy and parses every step; nothing has run yet.
    func prepare() throws -> (ScenarioPlan, Policy) {
      let scenario = try Scenario(yaml: try ScenarioRunError.read(file), file: file)
      var options = policy
      let fileProfile = options.profile == nil ? scenario.profile : nil
      if let fileProfile { options.profile = fileProfile.value }
      let loaded: PolicyOptions.Loaded
      do {
        loaded = try options.load()
      } catch let error as SessionError {
        // An unknown profile: point at the file's `profile:` when that is where it came from.
        guard let fileProfile else { throw error }
        throw ScenarioError(error.message, at: fileProfile.location)
      }
      let plan = try StepParser.plan(scenario, catalog: loaded.policy.table.devices)
      return (plan, loaded.policy)
    }
  }
}

/// Why `scenario run` could not start.
enum ScenarioRunError: Error, CustomStringConvertible, Equatable {
  case unreadable(String)
  case notText(String)
  case pulseUnavailable

  var description: String {
    switch self {
    case .unreadable(let file):
      "cannot read the scenario file '\(file)': it does not exist or is not readable"
    case .notText(let file):
      "cannot read the scenario file '\(file)': it is not UTF-8 text"
    case .pulseUnavailable:
      "the PulseAudio backend cannot run scenarios yet; use --backend simulated (the default)"
    }
  }

  /// The contents of a scenario file.
  static func read(_ file: String) throws(ScenarioRunError) -> String {
    guard let data = FileManager.default.contents(atPath: file) else { throw .unreadable(file) }
    guard let text = String(data: data, encoding: .utf8) else { throw .notText(file) }
    return text
  }
}
