import AudioSession
import AudioSessionSystem
import AudioSessionWire
import PropertyBased
import Testing

/// Notifications on the wire (docs/protocol.md "Notifications"): the transcript's shape without
/// `step`, read back to the same typed event, and the fan-out's cached form equal to the plain one.
@Suite struct WireNotificationTests {
  static let speaker = RouteDescription(
    outputs: [
      PortDescription(portType: .builtInSpeaker, portName: "Speaker", uid: "builtin-speaker")
    ])
  static let headset = RouteDescription(
    inputs: [PortDescription(portType: .headsetMic, portName: "Headset Mic", uid: "headset-1:mic")],
    outputs: [PortDescription(portType: .headphones, portName: "Headset", uid: "headset-1:hp")])

  static let events: [SessionEvent] = [
    .interruptionBegan(reason: .default, by: .session("nav")),
    .interruptionBegan(reason: .builtInMicMuted, by: .system),
    .interruptionEnded(options: .shouldResume, by: .call),
    .interruptionEnded(options: [], by: .call),
    .routeChange(reason: .newDeviceAvailable, previous: speaker, current: headset),
    .routeChange(reason: .override, previous: headset, current: .empty),
    .silenceSecondaryAudioHint(.begin), .silenceSecondaryAudioHint(.end),
    .mediaServicesWereLost, .mediaServicesWereReset, .duck(by: .session("nav")), .unduck,
    .mute(reason: .silentSwitch), .mute(reason: .recording), .unmute,
    .pause(reason: .oldDeviceUnavailable),
    .player(.init(.pause, player: "org.mpris.MediaPlayer2.mpv", cause: .interruption(by: .call))),
    .player(
      .init(
        .pause, player: "org.mpris.MediaPlayer2.mpv", cause: .pause(reason: .oldDeviceUnavailable))),
    .player(
      .init(
        .play, player: "org.mpris.MediaPlayer2.vlc", cause: .interruptionEnded(by: .session("nav")))
    ),
    // docs/contract.md "More of AVAudioSession": Siri, the prompt style and iOS 27's pair.
    .interruptionBegan(reason: .default, by: .siri),
    .interruptionBegan(reason: .default, by: .alarm),
    .interruptionEnded(options: .shouldResume, by: .alarm),
    .interruptionBegan(reason: .routeDisconnected, by: .system),
    .interruptionBegan(reason: .appWasSuspended, by: .system),
    .promptStyle(.none), .promptStyle(.short), .promptStyle(.normal),
    .didBecomeActive, .didBecomeInactive(source: .app, reason: nil),
    .didBecomeInactive(source: .system, reason: .routeDisconnected),
    .resumptionRecommendation(.shouldResume), .resumptionRecommendation(.shouldNotResume),
    // iOS 26's own mute (docs/contract.md The transcript).
    .outputMuteStateChange(muted: true), .outputMuteStateChange(muted: false),
    .userIntentToUnmuteOutput, .inputMuteStateChange(muted: true),
    .inputMuteStateChange(muted: false), .availableInputsChange,
  ]
  static let sessions = ["music", "a\"b", "é", "x\\y"]

  @Test(
    "every event reads back equal; the cached fan-out form equals the plain one (docs/protocol.md)")
  func message_anyNotification_roundTripsAndMatchesCachedForm() async {
    await propertyCheck(
      input: Gen<SessionEvent?>.element(of: Self.events).compactMap { $0 },
      Gen<String?>.element(of: Self.sessions).compactMap { $0 }
    ) { event, session in
      let notification = SessionNotification(session: session, event: event)
      let plain = WireNotification.message(notification).serialized
      let cached = WireNotification.message(
        session: session, eventTail: WireNotification.eventTail(notification))
      #expect(cached == plain)
      guard case .object(let object)? = try? JSONParser.parse(plain) else {
        Issue.record("not an object: \(plain)")
        return
      }
      #expect(object["v"] == 1)
      #expect((try? WireNotification.decode(object)) == notification)
    }
  }

  @Test(
    "a pushed notification is the transcript line without step, after v (docs/contract.md transcript)"
  )
  func message_interruption_isTranscriptShape() {
    let notification = SessionNotification(
      session: "music", event: .interruptionBegan(reason: .default, by: .session("nav")))
    #expect(
      WireNotification.message(notification).serialized
        == #"{"v":1,"session":"music","event":"interruption","type":"began","reason":"default","by":"nav"}"#
    )
  }

  @Test(
    "the new events' wire shape; `watch interruptions` passes iOS 27's pair, not promptStyle (docs/protocol.md Notifications)"
  )
  func appLifeEvents_shapeAndFilter() {
    let inactive = SessionNotification(
      session: "music", event: .didBecomeInactive(source: .system, reason: .routeDisconnected))
    #expect(
      WireNotification.message(inactive).serialized
        == #"{"v":1,"session":"music","event":"didBecomeInactive","source":"system","reason":"routeDisconnected"}"#
    )
    let resume = SessionNotification(
      session: "music", event: .resumptionRecommendation(.shouldNotResume))
    #expect(
      WireNotification.message(resume).serialized
        == #"{"v":1,"session":"music","event":"resumptionRecommendation","recommendation":"shouldNotResume"}"#
    )
    let prompt = SessionNotification(session: "nav", event: .promptStyle(.short))
    #expect(
      WireNotification.message(prompt).serialized
        == #"{"v":1,"session":"nav","event":"promptStyle","style":"short"}"#)
    let interruptions = DaemonRequest.WatchFilter.interruptions
    #expect(interruptions.admits(inactive.event) && interruptions.admits(resume.event))
    #expect(
      !interruptions.admits(prompt.event) && DaemonRequest.WatchFilter.all.admits(prompt.event))
  }

  @Test(
    "a player event reads back, and `watch interruptions` passes only those an interruption caused (docs/mpris.md)"
  )
  func player_event_shapeAndFilter() throws {
    let pause = SessionNotification(
      session: "mpv.42",
      event: .player(
        .init(.pause, player: "org.mpris.MediaPlayer2.mpv", cause: .interruption(by: .call))))
    #expect(
      WireNotification.message(pause).serialized
        == #"{"v":1,"session":"mpv.42","event":"player","action":"pause","player":"org.mpris.MediaPlayer2.mpv","cause":"interruption","by":"call"}"#
    )
    #expect(DaemonRequest.WatchFilter.interruptions.admits(pause.event))
    let unplugged = SessionEvent.player(
      .init(
        .pause, player: "org.mpris.MediaPlayer2.mpv", cause: .pause(reason: .oldDeviceUnavailable)))
    #expect(!DaemonRequest.WatchFilter.interruptions.admits(unplugged))
    #expect(DaemonRequest.WatchFilter.all.admits(unplugged))
    #expect(!DaemonRequest.WatchFilter.routes.admits(unplugged))
    let bad: JSONObject = [
      "session": "mpv.42", "event": "player", "action": "stop", "player": "x", "cause": "pause",
    ]
    #expect(throws: WireDecodingError.self) { try WireNotification.decode(bad) }
  }

  @Test("a reply reads back with its error, warnings, body and notifications (docs/protocol.md)")
  func reply_roundTrip_keepsEverything() throws {
    let reply = DaemonReply(
      id: 4, error: .session(SessionError(.cannotInterruptOthers, "no")), warnings: ["w"],
      body: [], notifications: [SessionNotification(session: "m", event: .unduck)])
    let text = reply.json.serialized
    #expect(
      text
        == #"{"v":1,"id":4,"result":"error","error":{"code":"cannotInterruptOthers","rawValue":560557684,"message":"no"},"warnings":["w"],"notifications":[{"session":"m","event":"unduck"}]}"#
    )
    guard case .object(let object) = try JSONParser.parse(text) else {
      Issue.record("not an object")
      return
    }
    #expect(try DaemonReply(object: object) == reply)
  }
}
