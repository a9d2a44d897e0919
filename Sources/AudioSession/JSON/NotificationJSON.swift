// Notifications: `{"session":S,"event":E,…}` with the event's own members, a transcript's line
// (after `step`) and the wire's pushed message (after `v`) alike (docs/contract.md "The
// transcript"; docs/protocol.md "Notifications").

extension JSONKey {
  /// The members of a notification.
  package enum Notification {
    package static let session = "session", event = "event"
    static let type = "type", reason = "reason", by = "by", options = "options"
    static let previousRoute = "previousRoute", currentRoute = "currentRoute"
    static let action = "action", player = "player", cause = "cause", style = "style"
    static let source = "source", recommendation = "recommendation", muted = "muted"
  }
}

/// The `event` values: AVAudioSession's notification name, or what the system did.
enum EventName: String, CaseIterable {
  case interruption, routeChange, silenceSecondaryAudioHint, mediaServicesWereLost
  case mediaServicesWereReset, duck, unduck, mute, unmute, pause, player, promptStyle
  case didBecomeActive, didBecomeInactive, resumptionRecommendation, outputMuteStateChange
  case userIntentToUnmuteOutput, inputMuteStateChange, availableInputsChange

  init(_ event: SessionEvent) {
    switch event {
    case .interruptionBegan, .interruptionEnded: self = .interruption
    case .routeChange: self = .routeChange
    case .silenceSecondaryAudioHint: self = .silenceSecondaryAudioHint
    case .mediaServicesWereLost: self = .mediaServicesWereLost
    case .mediaServicesWereReset: self = .mediaServicesWereReset
    case .duck: self = .duck
    case .unduck: self = .unduck
    case .mute: self = .mute
    case .unmute: self = .unmute
    case .pause: self = .pause
    case .player: self = .player
    case .promptStyle: self = .promptStyle
    case .didBecomeActive: self = .didBecomeActive
    case .didBecomeInactive: self = .didBecomeInactive
    case .resumptionRecommendation: self = .resumptionRecommendation
    case .outputMuteStateChange: self = .outputMuteStateChange
    case .userIntentToUnmuteOutput: self = .userIntentToUnmuteOutput
    case .inputMuteStateChange: self = .inputMuteStateChange
    case .availableInputsChange: self = .availableInputsChange
    }
  }
}

extension TranscriptJSON {
  /// `{"step":N,"session":S,"event":E,…}` with the event's own fields.
  public static func notification(_ notification: SessionNotification, step: Int) -> JSONObject {
    var object: JSONObject = [
      JSONKey.Transcript.step: .int(step),
      JSONKey.Notification.session: .string(notification.session),
    ]
    appendEvent(notification.event, to: &object)
    return object
  }

  /// The transcript's `event` value: AVAudioSession's notification name, or what the system did.
  public static func eventName(_ event: SessionEvent) -> String { EventName(event).rawValue }

  /// `"event":E` and the event's own members: what follows `"session"` in a notification.
  package static func appendEvent(_ event: SessionEvent, to object: inout JSONObject) {
    typealias Key = JSONKey.Notification
    object.append(Key.event, .string(eventName(event)))
    switch event {
    case .interruptionBegan(let reason, let cause):
      object.append(Key.type, .string(InterruptionType.began.name))
      object.append(Key.reason, .string(reason.name))
      object.append(Key.by, .string(cause.name))
    case .interruptionEnded(let options, let cause):
      object.append(Key.type, .string(InterruptionType.ended.name))
      object.append(Key.options, .strings(options.names))
      object.append(Key.by, .string(cause.name))
    case .routeChange(let reason, let previous, let current):
      object.append(Key.reason, .string(reason.name))
      object.append(Key.previousRoute, .object(route(previous)))
      object.append(Key.currentRoute, .object(route(current)))
    case .silenceSecondaryAudioHint(let type):
      object.append(Key.type, .string(type.name))
    case .duck(let cause):
      object.append(Key.by, .string(cause.name))
    case .mute(let reason):
      object.append(Key.reason, .string(reason.rawValue))
    case .pause(let reason):
      object.append(Key.reason, .string(reason.name))
    case .player(let action):
      object.append(Key.action, .string(action.command.rawValue))
      object.append(Key.player, .string(action.player))
      object.append(Key.cause, .string(action.cause.name))
      switch action.cause {
      case .interruption(let cause), .interruptionEnded(let cause):
        object.append(Key.by, .string(cause.name))
      case .pause(let reason):
        object.append(Key.reason, .string(reason.name))
      }
    case .promptStyle(let style):
      object.append(Key.style, .string(style.name))
    case .didBecomeInactive(let source, let reason):
      object.append(Key.source, .string(source.name))
      if let reason { object.append(Key.reason, .string(reason.name)) }
    case .resumptionRecommendation(let recommendation):
      object.append(Key.recommendation, .string(recommendation.name))
    case .outputMuteStateChange(let muted), .inputMuteStateChange(let muted):
      object.append(Key.muted, .bool(muted))
    case .mediaServicesWereLost, .mediaServicesWereReset, .unduck, .unmute,
      .userIntentToUnmuteOutput, .availableInputsChange, .didBecomeActive:
      break
    }
  }
}

extension WireDecoding {
  /// ``TranscriptJSON/notification(_:step:)`` read back, without `step`: a pushed notification,
  /// or one of a reply's `notifications`.
  public static func notification(
    _ object: JSONObject
  ) throws(WireDecodingError) -> SessionNotification {
    typealias Key = JSONKey.Notification
    let reader = WireReader(object: object, path: "notification")
    let session = try reader.string(Key.session)
    let name = try reader.string(Key.event)
    // `by`: a session's name, unless it is one of the other causes' (no session is named so).
    func cause() throws(WireDecodingError) -> Cause {
      let name = try reader.string(Key.by)
      return [Cause.call, .siri, .alarm, .system].first { $0.name == name } ?? .session(name)
    }
    let event: SessionEvent
    switch EventName(rawValue: name) {
    case .interruption:
      switch try reader.named(Key.type, InterruptionType.self) {
      case .began:
        event = .interruptionBegan(
          reason: try reader.named(Key.reason, InterruptionReason.self), by: try cause())
      case .ended:
        let names = try reader.strings(Key.options)
        let options: InterruptionOptions =
          InterruptionOptions.shouldResume.names.allSatisfy(names.contains) ? .shouldResume : []
        event = .interruptionEnded(options: options, by: try cause())
      }
    case .routeChange:
      event = .routeChange(
        reason: try reader.named(Key.reason, RouteChangeReason.self),
        previous: try route(try reader.object(Key.previousRoute)),
        current: try route(try reader.object(Key.currentRoute)))
    case .silenceSecondaryAudioHint:
      event = .silenceSecondaryAudioHint(
        try reader.named(Key.type, SilenceSecondaryAudioHintType.self))
    case .mediaServicesWereLost: event = .mediaServicesWereLost
    case .mediaServicesWereReset: event = .mediaServicesWereReset
    case .duck: event = .duck(by: try cause())
    case .unduck: event = .unduck
    case .mute:
      let reason = try reader.string(Key.reason)
      guard let value = MuteReason(rawValue: reason) else {
        throw WireDecodingError("notification: unknown mute reason '\(reason)'")
      }
      event = .mute(reason: value)
    case .unmute: event = .unmute
    case .promptStyle: event = .promptStyle(try reader.named(Key.style, PromptStyle.self))
    case .didBecomeActive: event = .didBecomeActive
    case .didBecomeInactive:
      event = .didBecomeInactive(
        source: try reader.named(Key.source, DeactivationSource.self),
        reason: try reader.ifPresent(Key.reason) { key throws(WireDecodingError) in
          try reader.named(key, InterruptionReason.self)
        })
    case .resumptionRecommendation:
      event = .resumptionRecommendation(
        try reader.named(Key.recommendation, ResumptionRecommendation.self))
    case .pause: event = .pause(reason: try reader.named(Key.reason, RouteChangeReason.self))
    case .outputMuteStateChange: event = .outputMuteStateChange(muted: try reader.bool(Key.muted))
    case .userIntentToUnmuteOutput: event = .userIntentToUnmuteOutput
    case .inputMuteStateChange: event = .inputMuteStateChange(muted: try reader.bool(Key.muted))
    case .availableInputsChange: event = .availableInputsChange
    case .player: event = .player(try playerAction(reader, cause: cause))
    case nil: throw WireDecodingError("notification: unknown event '\(name)'")
    }
    return SessionNotification(session: session, event: event)
  }

  /// A `player` event's action, cause and player.
  private static func playerAction(
    _ reader: WireReader, cause: () throws(WireDecodingError) -> Cause
  ) throws(WireDecodingError) -> PlayerAction {
    typealias Key = JSONKey.Notification
    let actionName = try reader.string(Key.action)
    guard let command = PlayerAction.Command(rawValue: actionName) else {
      throw WireDecodingError(
        "notification: unknown player action '\(actionName)'; expected "
          + PlayerAction.Command.allCases.map(\.rawValue).joined(separator: " or "))
    }
    let playerCause: PlayerCause
    switch try reader.string(Key.cause) {
    case "interruption": playerCause = .interruption(by: try cause())
    case "interruptionEnded": playerCause = .interruptionEnded(by: try cause())
    case "pause": playerCause = .pause(reason: try reader.named(Key.reason, RouteChangeReason.self))
    case let other:
      throw WireDecodingError(
        "notification: unknown player cause '\(other)'; expected interruption, "
          + "interruptionEnded or pause")
    }
    return PlayerAction(command, player: try reader.string(Key.player), cause: playerCause)
  }
}
