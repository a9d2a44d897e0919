import Testing

@testable import AudioSession

// docs/contract.md "The transcript": "Text output (no --json) is for people: aligned, readable, one
// line per event."
@Suite struct TranscriptTextTests {
  static let speaker = PortDescription(
    portType: .builtInSpeaker, portName: "Speaker", uid: "builtin-speaker")
  static let headphones = PortDescription(
    portType: .headphones, portName: "Headphones", uid: "headphones-1")
  static let mic = PortDescription(
    portType: .builtInMic, portName: "Microphone", uid: "builtin-mic")

  let text = TranscriptText(
    commands: Array(repeating: "x", count: 9) + ["music set playback", "status"])

  @Test("results line up in one column after the widest command (docs/contract.md The transcript)")
  func lines_results_areAligned() {
    #expect(
      text.lines(TranscriptEntry(step: 1, command: "x", result: CommandResult())) == [
        " 1  x                   ok"
      ])
    #expect(
      text.lines(TranscriptEntry(step: 10, command: "music set playback", result: CommandResult()))
        == [
          "10  music set playback  ok"
        ])
  }

  @Test(
    "errors show code, raw value and message; warnings are indented (docs/contract.md The transcript)"
  )
  func lines_errorAndWarnings_areReadable() {
    let error = CommandResult(error: SessionError(.badParam, "category option 'x' is not valid"))
    #expect(
      text.lines(TranscriptEntry(step: 2, command: "status", result: error)) == [
        " 2  status              error: badParam (-50): category option 'x' is not valid"
      ])
    let warned = CommandResult(warnings: ["mode 'spokenAudio' is documented for 'playback' only"])
    #expect(
      text.lines(TranscriptEntry(step: 3, command: "x", result: warned)) == [
        " 3  x                   ok",
        "      warning: mode 'spokenAudio' is documented for 'playback' only",
      ])
  }

  @Test(
    "each notification is one indented line, sessions aligned (docs/contract.md The transcript)")
  func lines_notifications_oneAlignedLineEach() {
    let result = CommandResult(notifications: [
      SessionNotification(session: "music", event: .interruptionBegan(reason: .default, by: .call)),
      SessionNotification(
        session: "podcast", event: .interruptionEnded(options: .shouldResume, by: .session("nav"))),
      SessionNotification(
        session: "music",
        event: .routeChange(
          reason: .oldDeviceUnavailable, previous: RouteDescription(outputs: [Self.headphones]),
          current: RouteDescription(inputs: [Self.mic], outputs: [Self.speaker]))),
      SessionNotification(session: "music", event: .pause(reason: .oldDeviceUnavailable)),
      SessionNotification(session: "game", event: .silenceSecondaryAudioHint(.begin)),
      SessionNotification(session: "music", event: .duck(by: .session("nav"))),
      SessionNotification(session: "music", event: .unduck),
      SessionNotification(session: "game", event: .mute(reason: .silentSwitch)),
      SessionNotification(session: "game", event: .unmute),
      SessionNotification(session: "game", event: .mediaServicesWereLost),
      SessionNotification(session: "game", event: .mediaServicesWereReset),
      SessionNotification(session: "game", event: .interruptionEnded(options: [], by: .system)),
    ])
    #expect(
      text.lines(TranscriptEntry(step: 4, command: "x", result: result)) == [
        " 4  x                   ok",
        "      music    interruption began (reason: default, by: call)",
        "      podcast  interruption ended (options: [shouldResume], by: nav)",
        "      music    routeChange (oldDeviceUnavailable): out headphones -> out builtInSpeaker; in builtInMic",
        "      music    pause (reason: oldDeviceUnavailable)",
        "      game     silenceSecondaryAudioHint begin",
        "      music    duck (by: nav)",
        "      music    unduck",
        "      game     mute (reason: silentSwitch)",
        "      game     unmute",
        "      game     mediaServicesWereLost",
        "      game     mediaServicesWereReset",
        "      game     interruption ended (options: [], by: system)",
      ])
  }

  @Test(
    "status is a table of sessions, then devices and the system state (docs/contract.md The transcript)"
  )
  func lines_status_isATable() {
    let status = EngineStatus(
      sessions: [
        SessionStatus(
          name: "music", configuration: SessionConfiguration(category: .playback), options: [],
          active: true, playing: true, interrupted: false, ducked: true, muted: false,
          route: RouteDescription(outputs: [Self.speaker]), portOverride: .none,
          preferredInput: nil,
          secondaryAudioShouldBeSilencedHint: false, isOtherAudioPlaying: true),
        SessionStatus(
          name: "nav", configuration: SessionConfiguration(category: .playback, mode: .voicePrompt),
          options: [.mixWithOthers, .duckOthers], active: false, playing: false, interrupted: false,
          ducked: false, muted: false, route: .empty, portOverride: .none, preferredInput: nil,
          secondaryAudioShouldBeSilencedHint: false, isOtherAudioPlaying: true),
      ],
      devices: [
        Device(
          uid: "builtin-speaker", name: "Speaker",
          ports: [
            DevicePort(
              type: .builtInSpeaker, direction: .output, name: "Speaker", uid: "builtin-speaker")
          ])
      ],
      callActive: false, silentSwitch: true, screenLocked: false, builtInMicMuted: false,
      mediaServicesAvailable: true)
    #expect(
      text.lines(
        TranscriptEntry(step: 11, command: "status", result: CommandResult(reply: .status(status))))
        == [
          "11  status              ok",
          "      session  category  mode         options                   active  playing  interrupted  ducked  muted  route",
          "      music    playback  default      -                         yes     yes      no           yes     no     out builtInSpeaker",
          "      nav      playback  voicePrompt  mixWithOthers,duckOthers  no      no       no           no      no     no route",
          // What each app reads of the others (docs/avaudiosession.md §8).
          "      music: other audio playing",
          "      nav: other audio playing",
          "      devices: builtin-speaker",
          "      system: call none, silent switch on, screen lock off, built-in mic unmuted",
        ])
  }

  @Test("route and devices answers are shown under the step (docs/contract.md The transcript)")
  func lines_routeAndDevices_areShown() {
    let route = CommandResult(
      reply: .route(session: "music", RouteDescription(inputs: [Self.mic], outputs: [Self.speaker]))
    )
    #expect(
      text.lines(TranscriptEntry(step: 1, command: "x", result: route)) == [
        " 1  x                   ok",
        "      music: out builtInSpeaker; in builtInMic",
      ])
    let headset = Device(
      uid: "headset-1", name: "Wired Headset", preset: "headset",
      ports: [
        DevicePort(
          type: .headphones, direction: .output, name: "Headphones", uid: "headset-1:headphones"),
        DevicePort(type: .headsetMic, direction: .input, name: "Mic", uid: "headset-1:headsetMic"),
      ])
    let mic = Device(
      uid: "builtin-mic", name: "Microphone",
      ports: [
        DevicePort(type: .builtInMic, direction: .input, name: "Microphone", uid: "builtin-mic")
      ])
    #expect(
      text.lines(
        TranscriptEntry(
          step: 1, command: "x", result: CommandResult(reply: .devices([mic, headset])))) == [
          " 1  x                   ok",
          "      builtin-mic  Microphone     builtInMic (input)",
          "      headset-1    Wired Headset  headphones (output), headsetMic (input)",
        ])
  }

  @Test(
    "very long commands do not widen the column past 48 characters (docs/contract.md The transcript)"
  )
  func lines_longCommand_doesNotWidenColumn() {
    let long = String(repeating: "y", count: 60)
    let text = TranscriptText(commands: [long, "status"])
    #expect(
      text.lines(TranscriptEntry(step: 2, command: "status", result: CommandResult())) == [
        "2  status" + String(repeating: " ", count: 42) + "  ok"
      ])
    #expect(
      text.lines(TranscriptEntry(step: 1, command: long, result: CommandResult())) == [
        "1  \(long)  ok"
      ])
  }

  @Test("the header names the scenario, its description and file (docs/contract.md The transcript)")
  func header_namesScenario() {
    #expect(
      text.header(name: "n", description: "d", file: "f.yaml") == [
        "Scenario: n", "  d", "  (f.yaml)", "",
      ])
    #expect(
      text.header(name: "n", description: nil, file: "f.yaml") == ["Scenario: n", "  (f.yaml)", ""])
  }

  @Test("a long description is wrapped at 96 columns (docs/contract.md The transcript: readable)")
  func header_longDescription_isWrapped() {
    let words = Array(repeating: "word", count: 30).joined(separator: " ")
    let header = text.header(name: "n", description: words, file: "f.yaml")
    #expect(header.count == 5)
    #expect(header[1] == "  " + Array(repeating: "word", count: 19).joined(separator: " "))
    #expect(header[2] == "  " + Array(repeating: "word", count: 11).joined(separator: " "))
    #expect(header.allSatisfy { $0.count <= 96 })
  }

  @Test("the summary counts steps and names the failed ones (docs/contract.md The transcript)")
  func summary_entries_countsStepsAndErrors() {
    func entry(_ step: Int, failed: Bool) -> TranscriptEntry {
      TranscriptEntry(
        step: step, command: "x",
        result: CommandResult(error: failed ? SessionError(.badParam, "m") : nil))
    }
    #expect(TranscriptText.summary([entry(1, failed: false)]) == "1 step, no errors")
    #expect(
      TranscriptText.summary([entry(1, failed: false), entry(2, failed: true)])
        == "2 steps, 1 error (step 2)")
    #expect(
      TranscriptText.summary([
        entry(1, failed: true), entry(2, failed: false), entry(3, failed: true),
      ])
        == "3 steps, 2 errors (steps 1, 3)")
  }
}
