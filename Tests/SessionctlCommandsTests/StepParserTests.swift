import AudioSession
import AudioSessionScenario
import AudioSessionSystem
import AudioSessionWire
import Testing

@testable import SessionctlCommands

// docs/contract.md "Scenario files": steps are sessionctl command lines; a first word that is not a
// command is a session name (`music activate` = `activate --session music`).
@Suite struct StepParserTests {
  static let catalog = DeviceCatalog(
    presets: [
      "builtInSpeaker": DevicePreset(
        name: "builtInSpeaker", displayName: "Speaker",
        ports: [PresetPort(type: .builtInSpeaker, direction: .output, name: "Speaker")],
        uid: "builtin-speaker", pulseProperties: [:]),
      "headphones": DevicePreset(
        name: "headphones", displayName: "Headphones",
        ports: [PresetPort(type: .headphones, direction: .output, name: "Headphones")], uid: nil,
        pulseProperties: [:]),
    ], presetOrder: ["builtInSpeaker", "headphones"], defaultDevices: ["builtInSpeaker"])

  static let location = FileLocation(file: "s.yaml", line: 3, column: 5)

  func parse(_ text: String) throws(ScenarioError) -> Command {
    try StepParser.command(
      for: ScenarioStep(text: text, location: Self.location), catalog: Self.catalog)
  }

  /// The error's description, or nil when the step parses.
  func problem(_ text: String) -> String? {
    do {
      _ = try parse(text)
      return nil
    } catch {
      return error.description
    }
  }

  static let commands =
    "set, mode, activate, deactivate, play, stop, override, app-state, now-playing, prefer, "
    + "input-gain, data-source, polar-pattern, output-muted, input-muted, remove, status, route, "
    + "devices, simulate, heard"

  @Test("the step commands are the live commands of docs/contract.md Commands")
  func stepCommands_areTheLiveCommands() {
    #expect(StepParser.stepCommandList == Self.commands)
    #expect(
      StepParser.stepCommands.filter(\.actsOnSession).map(\.name) == [
        "set", "mode", "activate", "deactivate", "play", "stop", "override", "app-state",
        "now-playing", "prefer", "input-gain", "data-source", "polar-pattern", "output-muted",
        "input-muted",
        "remove",
        "route",
      ])
  }

  @Test(
    "each live command line becomes its Command (docs/contract.md Commands)",
    arguments: [
      ("activate", Command.input(.setActive(session: "default", active: true, options: []))),
      ("music activate", .input(.setActive(session: "music", active: true, options: []))),
      ("music mode spokenAudio", .input(.setMode(session: "music", mode: .spokenAudio))),
      ("clip output-muted on", .input(.setOutputMuted(session: "clip", true))),
      ("output-muted off --session clip", .input(.setOutputMuted(session: "clip", false))),
      ("memo input-muted on", .input(.setInputMuted(session: "memo", true))),
      ("activate --session music", .input(.setActive(session: "music", active: true, options: []))),
      (
        "set playback",
        .input(.setCategory(session: "default", category: .playback, mode: nil, options: []))
      ),
      (
        "nav set playback --mode voicePrompt --options duckOthers,interruptSpokenAudioAndMixWithOthers",
        .input(
          .setCategory(
            session: "nav", category: .playback, mode: .voicePrompt,
            options: [.duckOthers, .interruptSpokenAudioAndMixWithOthers]))
      ),
      (
        "voip set playAndRecord --mode voiceChat --options allowBluetooth",
        .input(
          .setCategory(
            session: "voip", category: .playAndRecord, mode: .voiceChat, options: .allowBluetoothHFP
          ))
      ),
      (
        "set ambient --options ''",
        .input(.setCategory(session: "default", category: .ambient, mode: nil, options: []))
      ),
      ("music deactivate", .input(.setActive(session: "music", active: false, options: []))),
      (
        "nav deactivate --notify-others",
        .input(.setActive(session: "nav", active: false, options: .notifyOthersOnDeactivation))
      ),
      ("music play", .input(.startIO(session: "music"))),
      ("music stop", .input(.stopIO(session: "music"))),
      ("voip override speaker", .input(.overrideOutput(session: "voip", .speaker))),
      ("override none --session voip", .input(.overrideOutput(session: "voip", .none))),
      ("music remove", .input(.removeSession("music"))),
      ("status", .status),
      ("status --json", .status),
      ("devices", .devices),
      ("music route", .route(session: "music")),
      ("simulate plug headphones", .simulate(.plug(preset: "headphones"))),
      ("simulate unplug headphones-1", .simulate(.unplug("headphones-1"))),
      ("simulate unplug 'my device'", .simulate(.unplug("my device"))),
      ("simulate call begin", .simulate(.call(active: true))),
      ("simulate call end", .simulate(.call(active: false))),
      ("simulate silent on", .simulate(.silentSwitch(on: true))),
      ("simulate lock off", .simulate(.screenLock(on: false))),
      ("simulate mic-mute on", .simulate(.micMute(on: true))),
      ("simulate server-restart", .simulate(.serverRestart)),
      ("my.app_2-x play", .input(.startIO(session: "my.app_2-x"))),
    ])
  func command_validStep_becomesCommand(text: String, expected: Command) throws {
    #expect(try parse(text) == expected)
  }

  func expectProblem(
    _ text: String, _ message: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) {
    #expect(
      problem(text) == "s.yaml:3:5: step '\(text)': \(message)", sourceLocation: sourceLocation)
  }

  @Test(
    "a wrong category lists the valid names (docs/contract.md Commands: wrong names list the valid ones)"
  )
  func command_unknownCategory_listsCategories() {
    expectProblem(
      "music set loud",
      """
      The value 'loud' is invalid for '<category>'. Please provide one of the following:
        - ambient
        - soloAmbient
        - playback
        - record
        - playAndRecord
        - audioProcessing
        - multiRoute
      """)
  }

  @Test("a wrong port override lists none and speaker (docs/contract.md Commands)")
  func command_unknownOverride_listsValues() {
    expectProblem(
      "voip override receiver",
      "The value 'receiver' is invalid for '<port>'. Please provide one of 'none' and 'speaker'.")
  }

  @Test("a non-live command is not a step (docs/contract.md Scenario files)")
  func command_policy_isNotAStep() {
    expectProblem(
      "policy show",
      "'policy' is not a live command and cannot be a step; steps use: \(Self.commands)")
    expectProblem(
      "watch all", "'watch' is not a live command and cannot be a step; steps use: \(Self.commands)"
    )
    expectProblem(
      "scenario run x.yaml",
      "'scenario' is not a live command and cannot be a step; steps use: \(Self.commands)")
  }

  @Test("a session name alone is not a step (docs/contract.md Scenario files)")
  func command_sessionNameOnly_asksForCommand() {
    expectProblem(
      "activte",
      "'activte' is not a command, so it is read as a session name, but no command follows; "
        + "commands are: \(Self.commands)")
  }

  @Test(
    "an unknown command after a session name lists the commands (docs/contract.md Scenario files)")
  func command_unknownCommandAfterSession_listsCommands() {
    expectProblem(
      "music activte",
      "unknown command 'activte' after the session name 'music'; commands are: \(Self.commands)")
  }

  @Test(
    "a command about all sessions cannot follow a session name (docs/contract.md Scenario files)")
  func command_statusAfterSession_isRejected() {
    expectProblem(
      "music status",
      "'status' does not act on one session, so it cannot follow a session name; write 'status'")
    expectProblem(
      "music simulate call begin",
      "'simulate' does not act on one session, so it cannot follow a session name; write 'simulate call begin'"
    )
  }

  @Test("a session named twice is rejected (docs/contract.md Scenario files)")
  func command_prefixAndSessionOption_isRejected() {
    expectProblem(
      "music activate --session nav",
      "the session is named twice: by the prefix 'music' and by --session")
  }

  @Test(
    "call and system cannot name sessions: the transcript's by uses them (docs/contract.md The transcript)"
  )
  func command_reservedSessionName_isRejected() {
    expectProblem(
      "call activate",
      "'call' cannot name a session: transcripts use it for interruptions by a phone call")
    expectProblem(
      "activate --session system",
      "'system' cannot name a session: transcripts use it for interruptions by the system")
  }

  @Test("session names are at most 64 bytes (docs/contract.md Commands)")
  func command_longSessionName_isRejected() {
    expectProblem(
      "activate --session \(String(repeating: "n", count: 65))",
      "session name '\(String(repeating: "n", count: 24))…' is 65 bytes long; session names are "
        + "at most 64 bytes")
  }

  @Test("session names are limited to letters, digits, _ . - (docs/contract.md Scenario files)")
  func command_badSessionName_isRejected() {
    expectProblem(
      "mu$ic activate", "session name 'mu$ic' may only contain letters, digits, '_', '.' and '-'")
    expectProblem(
      "activate --session status", "'status' cannot name a session: it is a sessionctl command")
    expectProblem(
      "--json status",
      "a step starts with a command or a session name, not '--json'; commands are: \(Self.commands)"
    )
  }

  @Test("an unknown preset lists the catalog's presets (docs/contract.md Device presets)")
  func command_unknownPreset_listsPresets() {
    expectProblem(
      "simulate plug speakerphone",
      "unknown device preset 'speakerphone'; valid presets are: builtInSpeaker, headphones")
  }

  @Test("a command group alone names its subcommands (docs/contract.md Commands)")
  func command_simulateAlone_listsSubcommands() {
    expectProblem(
      "simulate",
      "'simulate' needs a subcommand: plug, unplug, call, silent, lock, mic-mute, server-restart, "
        + "media-services, siri, alarm, volume, permission, program, user, daemon, "
        + "wait, role-policy")
  }

  @Test("ArgumentParser's errors are kept, at the step's location (docs/contract.md Bad input)")
  func command_argumentErrors_areReported() {
    expectProblem("music set", "Missing expected argument '<category>'")
    expectProblem(
      "simulate call dial",
      "The value 'dial' is invalid for '<phase>'. Please provide one of 'ring', 'begin' or 'end'.")
    expectProblem("simulate call begin --style banner", "--style goes with 'call ring' only")
    expectProblem(
      "podcast app-state asleep",
      "The value 'asleep' is invalid for '<state>'. Please provide one of 'foreground', 'background' or 'suspended'."
    )
    expectProblem(
      "music prefer loudness on",
      "unknown preference 'loudness'; valid keys are: input, sampleRate, ioBufferDuration, "
        + "inputNumberOfChannels, outputNumberOfChannels, noInterruptionsFromSystemAlerts, "
        + "interruptionOnRouteDisconnect, aggregatedIO, echoCancelledInput")
    expectProblem(
      "music prefer sampleRate fast", "'sampleRate' takes a number greater than 0, not 'fast'")
    expectProblem("music play --loud", "Unknown option '--loud'")
    expectProblem("activate --help", "a step must be a command, not a request for help")
  }

  @Test(
    "a negative number in a step is a value, as on the command line (docs/contract.md Commands)")
  func command_negativeNumber_isAValue() throws {
    #expect(try parse("mic input-gain -0.5") == .input(.setInputGain(session: "mic", -0.5)))
    #expect(
      try parse("input-gain -0.5 --session mic") == .input(.setInputGain(session: "mic", -0.5)))
    expectProblem(
      "music prefer sampleRate -5", "'sampleRate' takes a number greater than 0, not '-5'")
  }

  @Test("a step that cannot be split says why (docs/contract.md Bad input)")
  func command_unterminatedQuote_isReported() {
    expectProblem("simulate unplug 'x", "unterminated single quote at column 17; close it with '")
    expectProblem("", "a step needs a command; commands are: \(Self.commands)")
  }

  @Test(
    "plan reports every bad step and device at once, in file order (docs/contract.md Scenario files)"
  )
  func plan_severalProblems_reportsAll() throws {
    let scenario = try Scenario(
      yaml: """
        name: n
        devices: [builtInSpeaker, earpiece]
        steps:
          - music set loud
          - music activate
          - simulate plug x
        """, file: "s.yaml")
    #expect(throws: ScenarioErrors.self) { try StepParser.plan(scenario, catalog: Self.catalog) }
    do {
      _ = try StepParser.plan(scenario, catalog: Self.catalog)
    } catch {
      #expect(
        error.errors.map(\.location.description) == ["s.yaml:2:27", "s.yaml:4:5", "s.yaml:6:5"])
      #expect(
        error.errors.last?.message
          == "step 'simulate plug x': unknown device preset 'x'; valid presets are: builtInSpeaker, headphones"
      )
    }
  }

  @Test("plan keeps one command per step, in order (docs/contract.md Scenario files)")
  func plan_validScenario_hasCommandsInOrder() throws {
    let scenario = try Scenario(yaml: "name: n\nsteps: [music activate, status]\n", file: "s.yaml")
    let plan = try StepParser.plan(scenario, catalog: Self.catalog)
    #expect(
      plan.commands == [.input(.setActive(session: "music", active: true, options: [])), .status])
  }
}
