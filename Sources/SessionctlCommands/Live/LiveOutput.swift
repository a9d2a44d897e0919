import AudioSession
import AudioSessionWire

/// How a live command prints the daemon's reply: for people, the table or line it answered and
/// one aligned line per notification; with `--json`, the reply as one object (the transcript's
/// result line without `step` and `command`) and then one object per notification.
struct LiveOutput {
  var json: Bool

  func lines(for reply: DaemonReply, session: String?) -> [String] {
    json ? jsonLines(reply) : textLines(reply, session: session)
  }

  private func jsonLines(_ reply: DaemonReply) -> [String] {
    var object: JSONObject = [:]
    for member in reply.json.members
    where !["v", "id", "notifications"].contains(member.key) {
      object.append(member.key, member.value)
    }
    return [object.serialized]
      + reply.notifications.map { WireNotification.json($0).serialized }
  }

  private func textLines(_ reply: DaemonReply, session: String?) -> [String] {
    var lines = reply.warnings.map { "warning: \($0)" }
    if let answer = Self.commandReply(reply, session: session) {
      lines += TranscriptText.replyLines(answer)
    }
    lines += Self.notificationLines(reply.notifications)
    return lines
  }

  /// The typed answer of `status`, `route` or `devices`, if the reply carries one.
  static func commandReply(_ reply: DaemonReply, session: String?) -> CommandReply? {
    if case .object(let object)? = reply["status"], let status = try? WireDecoding.status(object) {
      return .status(status)
    }
    if case .object(let object)? = reply["route"], let route = try? WireDecoding.route(object) {
      return .route(session: session ?? Command.defaultSession, route)
    }
    if case .array(let items)? = reply["devices"] {
      let devices = items.compactMap { item -> Device? in
        guard case .object(let object) = item else { return nil }
        return try? WireDecoding.device(object)
      }
      return .devices(devices)
    }
    return nil
  }

  /// `music  interruption began (reason: default, by: nav)`, sessions aligned.
  static func notificationLines(_ notifications: [SessionNotification]) -> [String] {
    let width = notifications.map(\.session.count).max() ?? 0
    return notifications.map { notification in
      let padding = String(repeating: " ", count: width - notification.session.count)
      return "\(notification.session)\(padding)  \(TranscriptText.event(notification.event))"
    }
  }
}
