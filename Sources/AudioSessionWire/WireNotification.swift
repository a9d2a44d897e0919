public import AudioSession

/// Notifications on the wire: the transcript's notification object without `step`, pushed as
/// `{"v":1,"session":"music","event":"interruption","type":"began",…}` (docs/protocol.md). The
/// object's members are the codec's (AudioSession's NotificationJSON.swift); this is its framing.
public enum WireNotification {
  /// The notification's members, as in a transcript but without `step`.
  public static func json(_ notification: SessionNotification) -> JSONObject {
    var object: JSONObject = [JSONKey.Notification.session: .string(notification.session)]
    TranscriptJSON.appendEvent(notification.event, to: &object)
    return object
  }

  /// The pushed message: `"v"` first, then the notification's members.
  public static func message(_ notification: SessionNotification) -> JSONObject {
    var object: JSONObject = [
      WireProtocol.versionKey: .int(WireProtocol.version),
      JSONKey.Notification.session: .string(notification.session),
    ]
    TranscriptJSON.appendEvent(notification.event, to: &object)
    return object
  }

  /// What follows `"session":…,` in a pushed message: the event's members and the closing brace.
  /// A fan-out serialises it once per distinct event (a device plugged in gives every session
  /// the same route change).
  public static func eventTail(_ notification: SessionNotification) -> Substring {
    var object: JSONObject = [:]
    TranscriptJSON.appendEvent(notification.event, to: &object)
    return object.serialized.dropFirst()
  }

  /// The pushed message built from a session name and an ``eventTail(_:)``; equal to
  /// ``message(_:)``'s serialisation.
  public static func message(session: String, eventTail: Substring) -> String {
    var text = sessionPrefix
    JSONValue.writeString(session, to: &text)
    text += ","
    text += eventTail
    return text
  }

  /// `{"v":1,"session":`, what every pushed message begins with.
  private static let sessionPrefix: String = {
    var text = "{"
    JSONValue.writeString(WireProtocol.versionKey, to: &text)
    text += ":\(WireProtocol.version),"
    JSONValue.writeString(JSONKey.Notification.session, to: &text)
    return text + ":"
  }()

  /// Reads a notification (pushed, or in a reply's `notifications`).
  public static func decode(_ object: JSONObject) throws(WireDecodingError) -> SessionNotification {
    try WireDecoding.notification(object)
  }
}
