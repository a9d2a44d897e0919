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
    var body: [JSONObject.Member] = []
    switch result.reply {
    case .status(let status)?:
      body.append(.init(key: "status", value: .object(TranscriptJSON.status(status))))
    case .route(_, let route)?:
      body.append(.init(key: "route", value: .object(TranscriptJSON.route(route))))
    case .devices(let devices)?:
      body.append(
        .init(key: "devices", value: .array(devices.map { .object(TranscriptJSON.device($0)) })))
    case nil: break
    }
    self.init(
      id: id, error: result.error.map(DaemonError.session), warnings: result.warnings, body: body,
      notifications: result.notifications)
  }

  /// The value of a body member.
  public subscript(key: String) -> JSONValue? {
    body.first { $0.key == key }?.value
  }

  /// The reply as one wire message (no newline).
  public var json: JSONObject {
    var object: JSONObject = [
      "v": .int(WireProtocol.version), "id": id.map(JSONValue.int) ?? .null,
    ]
    if let error {
      object.append("result", "error")
      object.append("error", .object(error.json))
    } else {
      object.append("result", "ok")
    }
    if !warnings.isEmpty { object.append("warnings", .strings(warnings)) }
    for member in body { object.append(member.key, member.value) }
    if !notifications.isEmpty {
      object.append(
        "notifications", .array(notifications.map { .object(WireNotification.json($0)) }))
    }
    return object
  }

  /// Reads a reply (the client side).
  ///
  /// - Throws: ``WireDecodingError`` when the object is not a reply this library understands.
  public init(object: JSONObject) throws(WireDecodingError) {
    let reader = WireReader(object: object, path: "reply")
    switch object["id"] {
    case .int(let number)?: id = number
    case .null?, nil: id = nil
    default: throw WireDecodingError("reply: \"id\" must be an integer or null")
    }
    switch try reader.string("result") {
    case "ok": error = nil
    case "error": error = try WireDecoding.error(try reader.object("error"))
    case let other: throw WireDecodingError("reply: unknown result '\(other)'")
    }
    warnings = try reader.optionalStrings("warnings") ?? []
    if case .array(let items)? = object["notifications"] {
      notifications = try items.map { item throws(WireDecodingError) in
        guard case .object(let notification) = item else {
          throw WireDecodingError("reply: notifications must be objects")
        }
        return try WireNotification.decode(notification)
      }
    } else {
      notifications = []
    }
    let envelope: Set<String> = ["v", "id", "result", "error", "warnings", "notifications"]
    body = object.members.filter { !envelope.contains($0.key) }
  }
}
