public import AudioSession

/// The daemon's answer to one request: `{"v":1,"id":…,"result":"ok"|"error",…}` with the error,
/// the warnings, what the request reads (`status`, `route`, `devices`, `session`, `daemon`), and
/// the notifications the request caused, in posting order.
public struct DaemonReply: Sendable, Hashable {
  /// The request's `id`; nil when it had none or could not be read.
  public var id: Int?
  public var error: DaemonError?
  public var warnings: [String]
  /// What the request reads, as `(member, value)` pairs in wire order.
  public var body: [JSONObject.Member]
  public var notifications: [SessionNotification]

  public init(
    id: Int?, error: DaemonError? = nil, warnings: [String] = [], body: [JSONObject.Member] = [],
    notifications: [SessionNotification] = []
  ) {
    self.id = id
    self.error = error
    self.warnings = warnings
    self.body = body
    self.notifications = notifications
  }

  /// The reply to a command: its result, what it answered, and what it caused.
  public init(id: Int?, result: CommandResult) {
    var body: JSONObject = [:]
    if let reply = result.reply { body.append(reply: reply) }
    self.init(
      id: id, error: result.error.map(DaemonError.session), warnings: result.warnings,
      body: body.members, notifications: result.notifications)
  }

  /// The value of a body member.
  public subscript(key: String) -> JSONValue? {
    body.first { $0.key == key }?.value
  }

  /// The members of a reply besides its body.
  private enum Key {
    static let id = "id", notifications = "notifications"
    static let envelope: Set<String> = [
      WireProtocol.versionKey, id, JSONKey.Result.result, JSONKey.Result.error,
      JSONKey.Result.warnings, notifications,
    ]
  }

  /// The reply as one wire message (no newline).
  public var json: JSONObject {
    var object: JSONObject = [
      WireProtocol.versionKey: .int(WireProtocol.version), Key.id: id.map(JSONValue.int) ?? .null,
    ]
    TranscriptJSON.appendResult(error: error?.json, warnings: warnings, to: &object)
    for member in body { object.append(member.key, member.value) }
    if !notifications.isEmpty {
      object.append(
        Key.notifications, .array(notifications.map { .object(WireNotification.json($0)) }))
    }
    return object
  }

  /// ``json`` read back (the client side).
  ///
  /// - Throws: ``WireDecodingError`` when the object is not a reply this library understands.
  public init(object: JSONObject) throws(WireDecodingError) {
    let reader = WireReader(object: object, path: "reply")
    switch object[Key.id] {
    case .int(let number)?: id = number
    case .null?, nil: id = nil
    default: throw WireDecodingError("reply: \"id\" must be an integer or null")
    }
    switch try reader.string(JSONKey.Result.result) {
    case JSONKey.Result.ok: error = nil
    case JSONKey.Result.error:
      error = try DaemonError(json: try reader.object(JSONKey.Result.error))
    case let other: throw WireDecodingError("reply: unknown result '\(other)'")
    }
    warnings = try reader.optionalStrings(JSONKey.Result.warnings) ?? []
    if case .array(let items)? = object[Key.notifications] {
      notifications = try items.map { item throws(WireDecodingError) in
        guard case .object(let notification) = item else {
          throw WireDecodingError("reply: notifications must be objects")
        }
        return try WireDecoding.notification(notification)
      }
    } else {
      notifications = []
    }
    body = object.members.filter { !Key.envelope.contains($0.key) }
  }
}
