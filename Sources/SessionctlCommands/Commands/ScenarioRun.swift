import ArgumentParser
import AudioSession
import AudioSessionScenario
import AudioSessionSystem
import FoundationEssentials
import Logging

#if canImport(Glibc)
  import Glibc
#endif

extension Sessionctl.ScenarioCommand {
  /// `sessionctl scenario run FILE [--backend simulated|pulse] [--spawn-server] [--server-kind
  /// pulseaudio|pipewire] [--json] [--policies DIR] [--profile NAME]`.
  struct Run: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "run",
      abstract: "Replays a scenario file and prints its transcript.",
      discussion: """
        A scenario file (YAML, or JSON) has a 'name' and 'steps', and optionally a \
        'description', the 'devices' present at start and a policy 'profile'. Each step is a \
        sessionctl command line; when its first word is not a command it names a session: \
        'music activate' is 'activate --session music'.

        Every step is parsed before any runs: a malformed file runs nothing and exits 1. A step \
        that fails (an AVAudioSession error) is part of the transcript; the scenario goes on and \
        exits 0. The profile is --profile, else the file's 'profile:', else the policy's default.

        With --backend pulse the steps run against a PulseAudio server: devices are null sinks \
        and sources, the call is a phone-role stream, players are real streams. The server is \
        the one PULSE_SERVER or XDG_RUNTIME_DIR names, or, with --spawn-server, a private one \
        started for the run (needed for 'simulate server-restart').

        On the simulated backend a scenario can also act out other programs ('simulate \
        program'), the user ('simulate user') and the daemon's restart ('simulate daemon \
        restart'), and ask what is heard ('heard'): it then runs as the daemon does, and the \
        transcript shows the commands sent to the programs' players and what the daemon did to \
        their streams (docs/contract.md "Desktop steps").

        With --explain every notification and every error says why: the policy file and key \
        path of the rule or table cell that decided it (or, for AVAudioSession's fixed \
        behaviour, the section of docs/avaudiosession.md), the profile, the profile switch when \
        one applied, and the step that triggered it; in JSON as "because", in text as an \
        indented line.

        With --timeline OUT.svg the run also draws the scenario: one lane per session across \
        the steps, with bands for active, playing, interrupted, ducked and muted, the output \
        route where it changes, each notification as a mark (hover for its text and reason), \
        and the steps along the axis. The SVG is self-contained (no script, no external font).
        """)

    @Argument(help: "The scenario file (YAML, or JSON).", completion: .file())
    var file: String

    @Option(help: "The backend to replay on.")
    var backend: BackendChoice = .simulated

    @Flag(help: "With --backend pulse: start a private server for the run, stopped after it.")
    var spawnServer = false

    @Option(help: "The private server --spawn-server starts.")
    var serverKind: ServerKind = .pulseaudio

    @Flag(help: "Print the transcript as JSON lines, one object per line.")
    var json = false

    @Flag(help: "Say why each notification was posted and each error returned.")
    var explain = false

    @Option(
      help: ArgumentHelp(
        "Also draw the scenario as a timeline, an SVG file.", valueName: "out.svg"),
      completion: .file(extensions: ["svg"]))
    var timeline: String?

    @OptionGroup var policy: PolicyOptions

    func validate() throws {
      if let timeline {
        let folder = PathText.normalized(timeline + "/..")
        guard access(folder, W_OK) == 0 else {
          throw ValidationError(
            "cannot write the timeline '\(timeline)': its folder '\(folder)' does not exist or is "
              + "not writable")
        }
      }
      if spawnServer, backend != .pulse {
        throw ValidationError(
          "--spawn-server starts a server for the PulseAudio backend; add --backend pulse")
      }
      if serverKind != .pulseaudio, !spawnServer {
        throw ValidationError(
          "--server-kind chooses the server --spawn-server starts; add --spawn-server")
      }
    }

    func run() async throws {
      try await perform(support: nil) { print($0) }
    }

    /// Runs the scenario and hands each line of the transcript to `output` as soon as it exists.
    /// `support`: the PulseAudio backend for `--backend pulse` (the daemon program's); without
    /// it, this command is handed over to the daemon program (``DaemonProgram/handOver()``).
    func perform(support: (any PulseSupport)?, output: (String) -> Void) async throws {
      let (plan, policy, directory) = try prepare()
      let audioBackend = try makeBackend(support: support)
      let text = TranscriptText(commands: plan.scenario.steps.map(\.text))
      if !json {
        let scenario = plan.scenario
        text.header(name: scenario.name, description: scenario.description, file: file)
          .forEach(output)
      }
      let entries = try await plan.run(
        policy: policy, backend: audioBackend, recordStates: timeline != nil, explain: explain,
        duckLevel: Self.duckLevel(policyDirectory: directory)
      ) { entry in
        (json ? entry.jsonLines : text.lines(entry)).forEach(output)
      }
      if let timeline {
        let svg = TimelineSVG.render(title: plan.scenario.name, entries: entries)
        if let reason = StandardStreams.writeFile(svg, atPath: timeline) {
          throw ValidationError("cannot write the timeline '\(timeline)': \(reason)")
        }
      }
      if !json {
        output("")
        output(TranscriptText.summary(entries))
      }
    }

    /// The backend to replay on; for pulse, with `pulse.json` from the policy directory.
    func makeBackend(support: (any PulseSupport)?) throws -> any AudioBackend {
      let directory = backend == .pulse ? try policy.load().directory : ""
      return try backend.makeBackend(
        policyDirectory: directory, spawn: spawnServer ? serverKind.kind : nil,
        simulatedDevices: true, support: support)
    }

    /// Reads the file and the policy and parses every step; nothing has run yet.
    func prepare() throws -> (ScenarioPlan, Policy, directory: String) {
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
      return (plan, loaded.policy, loaded.directory)
    }

    /// What `heard` gives a ducked program: `pulse.json`'s `streams.duckDecibels` as an
    /// amplitude (-20 dB: 0.1), as the PulseAudio backend ducks; 0.1 when the file has none.
    static func duckLevel(policyDirectory: String) -> Double {
      let path = policyDirectory + "/" + PolicyLoader.pulseFileName
      guard let data = ProcFile.bytes(path),
        case .object(let file)? = try? JSONParser.parse(data),
        case .object(let streams)? = file["streams"]
      else { return 0.1 }
      let decibels: Double
      switch streams["duckDecibels"] {
      case .int(let value)?: decibels = Double(value)
      case .double(let value)?: decibels = value
      default: return 0.1
      }
      return pow(10, decibels / 20)
    }
  }
}

/// The private servers `--spawn-server` can start.
enum ServerKind: String, CaseIterable, ExpressibleByArgument, Sendable {
  case pulseaudio, pipewire

  var kind: PulseServerKind {
    switch self {
    case .pulseaudio: .pulseaudio
    case .pipewire: .pipewire
    }
  }
}

/// Why `scenario run` could not start.
enum ScenarioRunError: Error, CustomStringConvertible, Equatable {
  case unreadable(String)
  case notText(String)

  var description: String {
    switch self {
    case .unreadable(let file):
      "cannot read the scenario file '\(file)': it does not exist or is not readable"
    case .notText(let file):
      "cannot read the scenario file '\(file)': it is not UTF-8 text"
    }
  }

  /// The contents of a scenario file.
  static func read(_ file: String) throws(ScenarioRunError) -> String {
    guard let data = ProcFile.bytes(file) else { throw .unreadable(file) }
    guard let text = String(validating: data, as: UTF8.self) else { throw .notText(file) }
    return text
  }
}
