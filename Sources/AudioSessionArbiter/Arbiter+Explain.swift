import AudioSession
import AudioSessionWire

/// The daemon's last decisions about each session, and why (docs/contract.md "Seeing why"):
/// every notification it delivers with its reason (``Because``), the last
/// ``Arbiter/historyLimit`` per session, forgotten with the session.
extension Arbiter {
  /// How many decisions are kept per session.
  public static let historyLimit = 16

  /// One decision: what a session was told (or what was done to its audio), or a call on it
  /// that was refused, and why.
  struct Decision: Sendable {
    enum What: Sendable {
      case notification(SessionNotification)
      case refusal(session: String, SessionError)
    }

    var what: What
    var because: Because

    var session: String {
      switch what {
      case .notification(let notification): notification.session
      case .refusal(let session, _): session
      }
    }

    /// `{"session":…,"event":…,…,"because":{…}}`, or for a refusal
    /// `{"session":…,"error":{"code","rawValue","message"},"because":{…}}`.
    var json: JSONObject {
      var object: JSONObject
      switch what {
      case .notification(let notification):
        let message = WireNotification.message(notification)
        object = JSONObject(message.members.filter { $0.key != "v" }.map { ($0.key, $0.value) })
      case .refusal(let session, let error):
        object = ["session": .string(session), "error": .object(TranscriptJSON.error(error))]
      }
      object.append("because", .object(TranscriptJSON.because(because)))
      return object
    }
  }

  /// Records the decisions behind notifications that are being delivered; `because` is parallel
  /// to `notifications` (a shorter list records the first ones).
  mutating func record(_ notifications: [SessionNotification], because: [Because]) {
    for (notification, reason) in zip(notifications, because) {
      record(Decision(what: .notification(notification), because: reason))
    }
  }

  /// Records a refused call on a session.
  mutating func record(refusal error: SessionError, of session: String, because: Because) {
    record(Decision(what: .refusal(session: session, error), because: because))
  }

  private mutating func record(_ decision: Decision) {
    let name = decision.session
    if history[name] == nil { historyOrder.append(name) }
    var decisions = history[name] ?? []
    if decisions.count == Self.historyLimit { decisions.removeFirst() }
    decisions.append(decision)
    history[name] = decisions
  }

  /// Forgets the decisions about sessions that are gone.
  mutating func forgetHistory(of names: [String]) {
    guard !names.isEmpty else { return }
    for name in names { history[name] = nil }
    historyOrder.removeAll { history[$0] == nil }
  }

  /// The reason of a `player` event: the daemon's MPRIS rule, triggered by the notification
  /// that caused it.
  func playerBecause(_ cause: SessionNotification) -> Because {
    Because(
      source: DecisionSource(spec: "\"What the daemon does\"", document: "docs/mpris.md"),
      profile: setup.identity.profile,
      trigger: "\(cause.session) \(TranscriptText.event(cause.event))")
  }

  /// The `explain` reply: `{"decisions":[{"session":…,"event":…,…,"because":{…}}]}`, oldest
  /// first, for one session or every session (in the order they were first decided about).
  func explain(_ session: String?, requestID: Int?) -> DaemonReply {
    if let session, history[session] == nil, engine.session(named: session) == nil {
      return DaemonReply(id: requestID, error: .session(noSession(session)))
    }
    let names = session.map { [$0] } ?? historyOrder
    var decisions: [JSONValue] = []
    for name in names {
      for decision in history[name] ?? [] { decisions.append(.object(decision.json)) }
    }
    return DaemonReply(id: requestID, body: [.init(key: "decisions", value: .array(decisions))])
  }
}
