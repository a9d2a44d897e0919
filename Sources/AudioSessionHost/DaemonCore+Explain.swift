import AudioSession
import AudioSessionWire

/// The daemon's last decisions about each session, and why (docs/contract.md "Seeing why"):
/// every notification it delivers with its reason (``Because``), the last
/// ``DaemonCore/historyLimit`` per session, forgotten with the session.
extension DaemonCore {
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
  func record(_ notifications: [SessionNotification], because: [Because]) {
    for (notification, reason) in zip(notifications, because) {
      record(Decision(what: .notification(notification), because: reason))
    }
  }

  /// Records a refused call on a session.
  func record(refusal error: SessionError, of session: String, because: Because) {
    record(Decision(what: .refusal(session: session, error), because: because))
  }

  private func record(_ decision: Decision) {
    let name = decision.session
    if history[name] == nil { historyOrder.append(name) }
    var decisions = history[name] ?? []
    if decisions.count == Self.historyLimit { decisions.removeFirst() }
    decisions.append(decision)
    history[name] = decisions
  }

  /// Forgets the decisions about sessions that are gone.
  func forgetHistory(of names: [String]) {
    guard !names.isEmpty else { return }
    for name in names { history[name] = nil }
    historyOrder.removeAll { history[$0] == nil }
  }

  /// The reasons of engine outcomes, each triggered by its input (a program's stream, the
  /// server's own event).
  func because(_ outcomes: [EngineOutcome], inputs: [EngineInput]) async -> [Because] {
    var reasons: [Because] = []
    for (input, outcome) in zip(inputs, outcomes) {
      reasons += await coordinator.because(outcome, trigger: input.triggerText).notifications
    }
    return reasons
  }

  /// The reason of a `player` event: the daemon's MPRIS rule, triggered by the notification
  /// that caused it.
  func playerBecause(_ cause: SessionNotification) -> Because {
    Because(
      source: DecisionSource(spec: "\"What the daemon does\"", document: "docs/mpris.md"),
      profile: identity.profile,
      trigger: "\(cause.session) \(TranscriptText.event(cause.event))")
  }

  /// The `explain` reply: `{"decisions":[{"session":…,"event":…,…,"because":{…}}]}`, oldest
  /// first, for one session or every session (in the order they were first decided about).
  func explain(_ session: String?, requestID: Int?) async -> DaemonReply {
    if let session, history[session] == nil {
      guard await coordinator.session(named: session) != nil else {
        return DaemonReply(id: requestID, error: .session(noSession(session)))
      }
    }
    let names = session.map { [$0] } ?? historyOrder
    var decisions: [JSONValue] = []
    for name in names {
      for decision in history[name] ?? [] { decisions.append(.object(decision.json)) }
    }
    return DaemonReply(id: requestID, body: [.init(key: "decisions", value: .array(decisions))])
  }
}
