import Testing

@testable import AudioSession

// docs/contract.md "The transcript (--json)": the exact shape of every line.
@Suite struct TranscriptJSONTests {
  static let speaker = PortDescription(
    portType: .builtInSpeaker, portName: "Speaker", uid: "builtin-speaker")
  static let headphones = PortDescription(
    portType: .headphones, portName: "Headphones", uid: "headphones-1")
  static let mic = PortDescription(
    portType: .builtInMic, portName: "iPhone Microphone", uid: "builtin-mic")
  static let speakerJSON =
    #"{"portType":"builtInSpeaker","portName":"Speaker","uid":"builtin-speaker"}"#
  static let headphonesJSON =
    #"{"portType":"headphones","portName":"Headphones","uid":"headphones-1"}"#

  func line(_ event: SessionEvent, session: String = "music", step: Int = 9) -> String {
    TranscriptJSON.notification(SessionNotification(session: session, event: event), step: step)
      .serialized
  }

  @Test(
    "iOS 27's didBecomeActive is a notification line with nothing more, in JSON and text (docs/contract.md The transcript, docs/avaudiosession.md §13.1)"
  )
  func notification_didBecomeActive_isALine() {
    #expect(line(.didBecomeActive) == #"{"step":9,"session":"music","event":"didBecomeActive"}"#)
    #expect(TranscriptText.event(.didBecomeActive) == "didBecomeActive")
  }

  @Test("an ok result has step, command and result only (docs/contract.md The transcript)")
  func result_ok_hasThreeKeys() {
    let entry = TranscriptEntry(step: 2, command: "music activate", result: CommandResult())
    #expect(entry.jsonLines == [#"{"step":2,"command":"music activate","result":"ok"}"#])
  }

  @Test(
    "an error carries the code name, raw value and message (docs/contract.md The transcript, docs/avaudiosession.md §1.4)"
  )
  func result_error_carriesCodeRawValueAndMessage() {
    let error = SessionError(.cannotInterruptOthers, "Cannot activate 'nav': \"call\" holds it")
    let entry = TranscriptEntry(
      step: 5, command: "nav activate", result: CommandResult(error: error))
    #expect(
      entry.jsonLines == [
        #"{"step":5,"command":"nav activate","result":"error","error":{"code":"cannotInterruptOthers","rawValue":560557684,"message":"Cannot activate 'nav': \"call\" holds it"}}"#
      ])
    let badParam = TranscriptJSON.error(SessionError(.badParam, "m")).serialized
    #expect(badParam == #"{"code":"badParam","rawValue":-50,"message":"m"}"#)
  }

  @Test(
    "warnings follow the result (docs/contract.md The transcript, docs/avaudiosession.md §12 D4)")
  func result_warnings_areListed() {
    let entry = TranscriptEntry(
      step: 1, command: "set record --mode spokenAudio",
      result: CommandResult(warnings: ["w1", "w2"]))
    #expect(
      entry.jsonLines == [
        #"{"step":1,"command":"set record --mode spokenAudio","result":"ok","warnings":["w1","w2"]}"#
      ])
  }

  @Test("the command is written as the step's text, escaped (docs/contract.md The transcript)")
  func result_commandWithQuotes_isEscaped() {
    let entry = TranscriptEntry(
      step: 3, command: #"simulate unplug "a b""#, result: CommandResult())
    #expect(entry.jsonLines == [#"{"step":3,"command":"simulate unplug \"a b\"","result":"ok"}"#])
  }

  @Test("route adds the session's route (docs/contract.md The transcript)")
  func result_route_addsRoute() {
    let route = RouteDescription(inputs: [Self.mic], outputs: [Self.speaker])
    let entry = TranscriptEntry(
      step: 4, command: "music route", result: CommandResult(reply: .route(session: "music", route))
    )
    #expect(
      entry.jsonLines == [
        #"{"step":4,"command":"music route","result":"ok","route":{"inputs":[{"portType":"builtInMic","portName":"iPhone Microphone","uid":"builtin-mic"}],"outputs":[\#(Self.speakerJSON)]}}"#
      ])
  }

  static let headset = Device(
    uid: "headset-1", name: "Wired Headset", preset: "headset",
    ports: [
      DevicePort(
        type: .headphones, direction: .output, name: "Headphones", uid: "headset-1:headphones"),
      DevicePort(
        type: .headsetMic, direction: .input, name: "Headset Mic", uid: "headset-1:headsetMic"),
    ])
  static let headsetJSON =
    #"{"uid":"headset-1","name":"Wired Headset","preset":"headset","ports":[{"portType":"headphones","portName":"Headphones","uid":"headset-1:headphones","direction":"output"},{"portType":"headsetMic","portName":"Headset Mic","uid":"headset-1:headsetMic","direction":"input"}]}"#

  @Test(
    "devices adds each device with its ports; preset only when it has one (docs/contract.md The transcript)"
  )
  func result_devices_addsDevices() {
    let bare = Device(
      uid: "x", name: "X",
      ports: [DevicePort(type: .lineOut, direction: .output, name: "Line", uid: "x")])
    let entry = TranscriptEntry(
      step: 1, command: "devices", result: CommandResult(reply: .devices([Self.headset, bare])))
    #expect(
      entry.jsonLines == [
        #"{"step":1,"command":"devices","result":"ok","devices":[\#(Self.headsetJSON),{"uid":"x","name":"X","ports":[{"portType":"lineOut","portName":"Line","uid":"x","direction":"output"}]}]}"#
      ])
  }

  /// A session's app-life members as a fresh session has them (docs/contract.md "More of
  /// AVAudioSession").
  static let appLife =
    #""appState":"foreground","nowPlaying":false,"outputMuted":false,"inputMuted":false,"promptStyle":"normal","prefersNoInterruptionsFromSystemAlerts":false,"prefersInterruptionOnRouteDisconnect":null,"prefersEchoCancelledInput":false,"echoCancelledInputAvailable":false,"echoCancelledInputEnabled":false,"preferredInput":null,"inputGain":null,"inputDataSource":null,"inputPolarPattern":null,"sampleRate":48000.0,"ioBufferDuration":0.0,"inputNumberOfChannels":0,"outputNumberOfChannels":0,"inputLatency":null,"outputLatency":null,"preferredSampleRate":null,"preferredIOBufferDuration":null,"preferredInputNumberOfChannels":null,"preferredOutputNumberOfChannels":null,"aggregatedIOPreference":null,"availableInputs":[],"otherAudioPlaying":false,"secondaryAudioShouldBeSilencedHint":false,"outputVolume":1.0"#

  @Test(
    "status lists sessions in order, devices and the system state (docs/contract.md The transcript)"
  )
  func result_status_hasSessionsDevicesAndSystem() {
    func session(
      _ name: String, _ category: AudioSession.Category, _ options: CategoryOptions,
      active: Bool
    ) -> SessionStatus {
      SessionStatus(
        name: name,
        configuration: SessionConfiguration(
          category: category, mode: .spokenAudio, options: options),
        options: options, active: active, playing: active, interrupted: !active, ducked: active,
        muted: false, route: RouteDescription(outputs: [Self.headphones]), portOverride: .none,
        preferredInput: nil, secondaryAudioShouldBeSilencedHint: false, isOtherAudioPlaying: false)
    }
    let status = EngineStatus(
      sessions: [
        session("zeta", .playback, [.duckOthers, .mixWithOthers], active: true),
        session("alpha", .ambient, .mixWithOthers, active: false),
      ],
      devices: [Self.headset], callActive: true, silentSwitch: false, screenLocked: true,
      builtInMicMuted: false, mediaServicesAvailable: true)
    let entry = TranscriptEntry(
      step: 10, command: "status", result: CommandResult(reply: .status(status)))
    let route = #"{"inputs":[],"outputs":[\#(Self.headphonesJSON)]}"#
    #expect(
      entry.jsonLines == [
        #"{"step":10,"command":"status","result":"ok","status":{"sessions":{"zeta":{"category":"playback","mode":"spokenAudio","options":["mixWithOthers","duckOthers"],"policy":"default","active":true,"playing":true,"interrupted":false,"ducked":true,"muted":false,"route":\#(route),\#(Self.appLife)},"alpha":{"category":"ambient","mode":"spokenAudio","options":["mixWithOthers"],"policy":"default","active":false,"playing":false,"interrupted":true,"ducked":false,"muted":false,"route":\#(route),\#(Self.appLife)}},"devices":[\#(Self.headsetJSON)],"system":{"call":true,"silentSwitch":false,"screenLock":true,"micMuted":false,"callRinging":null,"siri":false}}}"#
      ])
  }

  @Test(
    "the result line comes first, then notifications in posting order (docs/contract.md The transcript)"
  )
  func jsonLines_notifications_followResultInOrder() {
    let result = CommandResult(notifications: [
      SessionNotification(session: "music", event: .interruptionBegan(reason: .default, by: .call)),
      SessionNotification(session: "game", event: .unmute),
    ])
    let entry = TranscriptEntry(step: 8, command: "simulate call begin", result: result)
    #expect(
      entry.jsonLines == [
        #"{"step":8,"command":"simulate call begin","result":"ok"}"#,
        #"{"step":8,"session":"music","event":"interruption","type":"began","reason":"default","by":"call"}"#,
        #"{"step":8,"session":"game","event":"unmute"}"#,
      ])
  }

  @Test(
    "interruption began has reason and by (docs/contract.md The transcript, docs/avaudiosession.md §6.1)"
  )
  func notification_interruptionBegan_hasReasonAndBy() {
    #expect(
      line(.interruptionBegan(reason: .default, by: .session("nav")), step: 5)
        == #"{"step":5,"session":"music","event":"interruption","type":"began","reason":"default","by":"nav"}"#
    )
    #expect(
      line(.interruptionBegan(reason: .builtInMicMuted, by: .system))
        == #"{"step":9,"session":"music","event":"interruption","type":"began","reason":"builtInMicMuted","by":"system"}"#
    )
  }

  @Test(
    "interruption ended has options and by (docs/contract.md The transcript, docs/avaudiosession.md §6.1)"
  )
  func notification_interruptionEnded_hasOptionsAndBy() {
    #expect(
      line(.interruptionEnded(options: .shouldResume, by: .session("nav")), step: 6)
        == #"{"step":6,"session":"music","event":"interruption","type":"ended","options":["shouldResume"],"by":"nav"}"#
    )
    #expect(
      line(.interruptionEnded(options: [], by: .call))
        == #"{"step":9,"session":"music","event":"interruption","type":"ended","options":[],"by":"call"}"#
    )
  }

  @Test(
    "routeChange has reason and both routes (docs/contract.md The transcript, docs/avaudiosession.md §6.2)"
  )
  func notification_routeChange_hasReasonAndRoutes() {
    let event = SessionEvent.routeChange(
      reason: .newDeviceAvailable, previous: RouteDescription(outputs: [Self.speaker]),
      current: RouteDescription(outputs: [Self.headphones]))
    #expect(
      line(event, step: 7)
        == #"{"step":7,"session":"music","event":"routeChange","reason":"newDeviceAvailable","previousRoute":{"inputs":[],"outputs":[\#(Self.speakerJSON)]},"currentRoute":{"inputs":[],"outputs":[\#(Self.headphonesJSON)]}}"#
    )
  }

  @Test(
    "silenceSecondaryAudioHint has its type (docs/contract.md The transcript, docs/avaudiosession.md §6.3)"
  )
  func notification_silenceSecondaryAudioHint_hasType() {
    #expect(
      line(.silenceSecondaryAudioHint(.begin), session: "game")
        == #"{"step":9,"session":"game","event":"silenceSecondaryAudioHint","type":"begin"}"#)
    #expect(
      line(.silenceSecondaryAudioHint(.end), session: "game")
        == #"{"step":9,"session":"game","event":"silenceSecondaryAudioHint","type":"end"}"#)
  }

  @Test("duck has by; mute and pause have a reason (docs/contract.md The transcript)")
  func notification_duckMutePause_haveTheirFields() {
    #expect(
      line(.duck(by: .session("nav"))) == #"{"step":9,"session":"music","event":"duck","by":"nav"}"#
    )
    #expect(
      line(.mute(reason: .silentSwitch))
        == #"{"step":9,"session":"music","event":"mute","reason":"silentSwitch"}"#)
    #expect(
      line(.pause(reason: .oldDeviceUnavailable))
        == #"{"step":9,"session":"music","event":"pause","reason":"oldDeviceUnavailable"}"#)
  }

  @Test(
    "unduck, unmute and media services events carry nothing more (docs/contract.md The transcript, docs/avaudiosession.md §6.4)"
  )
  func notification_bareEvents_haveNoExtraFields() {
    #expect(line(.unduck) == #"{"step":9,"session":"music","event":"unduck"}"#)
    #expect(line(.unmute) == #"{"step":9,"session":"music","event":"unmute"}"#)
    #expect(
      line(.mediaServicesWereLost)
        == #"{"step":9,"session":"music","event":"mediaServicesWereLost"}"#)
    #expect(
      line(.mediaServicesWereReset)
        == #"{"step":9,"session":"music","event":"mediaServicesWereReset"}"#)
  }
}
