public import AudioSession

/// Notifications on the wire: the transcript's notification object without `step`, pushed as
/// `{"v":1,"session":"music","event":"interruption","type":"began",…}` (docs/protocol.md).
public enum WireNotification {
  /// The notification's members, as in a transcript but without `step`.
  public static func json(_ notification: SessionNotification) -> JSONObject {
    var object: JSONObject = [:]
    for member in TranscriptJSON.notification(notification, step: 0).members
    where member.key != "step" {
      object.append(member.key, member.value)
    }
    return object
  }

  /// The pushed message: `"v"` first, then the notification's members.
  public static func message(_ notification: SessionNotification) -> JSONObject {
    var object: JSONObject = ["v": .int(WireProtocol.version)]
    for member in json(notification).members { object.append(member.key, member.value) }
    return object
  }

  /// What follows `"session":…,` in a pushed message: the event's members and the closing brace.
  /// A fan-out serialises it once per distinct event (a device plugged in gives every session
  /// the same route change).
  public static func eventTail(_ notification: SessionNotification) -> Substring {
    var object: JSONObject = [:]
    for member in TranscriptJSON.notification(notification, step: 0).members
    where member.key != "step" && member.key != "session" {
      object.append(member.key, member.value)
    }
    return object.serialized.dropFirst()
  }

  /// The pushed message built from a session name and an ``eventTail(_:)``; equal to
  /// ``message(_:)``'s serialisation.
  public static func message(session: String, eventTail: Substring) -> String {
    var text = "{\"v\":\(WireProtocol.version),\"session\":"
    JSONValue.writeString(session, to: &text)
    text += ","
    text += eventTail
    return text
  }

  /// Reads a notification (pushed, or in a reply's `notifications`).
  public static func decode(_ object: JSONObject) throws(WireDecodingError) -> SessionNotification {
    let reader = WireReader(object: object, path: "notification")
    let session = try reader.string("session")
    let name = try reader.string("event")
    func cause() throws(WireDecodingError) -> Cause {
      switch try reader.string("by") {
      case "call": .call
      case "siri": .siri
      case "alarm": .alarm
      case "system": .system
      case let session: .session(session)
      }
    }
    let event: SessionEvent
    switch name {
    case "interruption":
      switch try reader.named("type", InterruptionType.self) {
      case .began:
        event = .interruptionBegan(
          reason: try reader.named("reason", InterruptionReason.self), by: try cause())
      case .ended:
        let options: InterruptionOptions =
          try reader.strings("options").contains("shouldResume") ? .shouldResume : []
        event = .interruptionEnded(options: options, by: try cause())
      }
    case "routeChange":
      event = .routeChange(
        reason: try reader.named("reason", RouteChangeReason.self),
        previous: try WireDecoding.route(try reader.object("previousRoute")),
        current: try WireDecoding.route(try reader.object("currentRoute")))
    case "silenceSecondaryAudioHint":
      event = .silenceSecondaryAudioHint(
        try reader.named("type", SilenceSecondaryAudioHintType.self))
    case "mediaServicesWereLost": event = .mediaServicesWereLost
    case "mediaServicesWereReset": event = .mediaServicesWereReset
    case "duck": event = .duck(by: try cause())
    case "unduck": event = .unduck
    case "mute":
      let reason = try reader.string("reason")
      guard let value = MuteReason(rawValue: reason) else {
        throw WireDecodingError("notification: unknown mute reason '\(reason)'")
      }
      event = .mute(reason: value)
    case "unmute": event = .unmute
    case "promptStyle": event = .promptStyle(try reader.named("style", PromptStyle.self))
    case "didBecomeActive": event = .didBecomeActive
    case "didBecomeInactive":
      event = .didBecomeInactive(
        source: try reader.named("source", DeactivationSource.self),
        reason: object["reason"] == nil
          ? nil : try reader.named("reason", InterruptionReason.self))
    case "resumptionRecommendation":
      event = .resumptionRecommendation(
        try reader.named("recommendation", ResumptionRecommendation.self))
    case "pause": event = .pause(reason: try reader.named("reason", RouteChangeReason.self))
    case "outputMuteStateChange": event = .outputMuteStateChange(muted: try reader.bool("muted"))
    case "userIntentToUnmuteOutput": event = .userIntentToUnmuteOutput
    case "inputMuteStateChange": event = .inputMuteStateChange(muted: try reader.bool("muted"))
    case "availableInputsChange": event = .availableInputsChange
    case "player":
      let actionName = try reader.string("action")
      guard let command = PlayerAction.Command(rawValue: actionName) else {
        throw WireDecodingError(
          "notification: unknown player action '\(actionName)'; expected pause or play")
      }
      let playerCause: PlayerCause
      switch try reader.string("cause") {
      case "interruption": playerCause = .interruption(by: try cause())
      case "interruptionEnded": playerCause = .interruptionEnded(by: try cause())
      case "pause":
        playerCause = .pause(reason: try reader.named("reason", RouteChangeReason.self))
      case let other:
        throw WireDecodingError(
          "notification: unknown player cause '\(other)'; expected interruption, "
            + "interruptionEnded or pause")
      }
      event = .player(
        PlayerAction(command, player: try reader.string("player"), cause: playerCause))
    default: throw WireDecodingError("notification: unknown event '\(name)'")
    }
    return SessionNotification(session: session, event: event)
  }
}
