/// How the PulseAudio backend knows that another program's phone call is going on, as a value
/// (docs/pulseaudio.md §2, docs/apps.md "Calls"): it takes what each settled snapshot shows and
/// module-role-cork's requests on our own streams, and answers whether a call is in progress
/// and what to do. It does no I/O and reads no clock: the backend schedules the expiries it
/// asks for and carries out the mutes it undoes.
///
/// A call is seen two ways, and this is where they meet:
/// - another client plays a stream with a call role (`policies/pulse.json` `callRoles`): the
///   call lasts as long as the stream;
/// - module-role-cork asks to cork one of our streams (`request-cork`): the server does so when
///   a phone stream starts, before it announces the stream. The request counts as a call at
///   once, and each snapshot settled after it tells what it was (``resolve(_:)``).
struct PulseCallSignals: Sendable, Equatable {
  /// What a settled snapshot and the backend's own streams show about calls.
  struct Facts: Sendable, Equatable {
    /// The snapshot's sequence.
    var sequence: Int
    /// Another client (not this backend's) plays a stream with a call role.
    var foreignCall: Bool
    /// One of this backend's own sessions plays, uncorked, with a call role: its stream may be
    /// what made module-role-cork cork another session's.
    var ownCallPlaying: Bool
  }

  /// Whether a client other than ours (`ours`, and `besides`) plays a stream with one of the
  /// call roles in `snapshot`. The stream that repairs the server's memory of a gone call-role
  /// stream (it carries the role, corked, `audiosession.repair`) is no call; the simulated
  /// call's stream is one.
  static func foreignCall(
    in snapshot: PulseServerSnapshot, roles: Set<String>, ours: UInt32?, besides other: UInt32?
  ) -> Bool {
    snapshot.sinkInputs.contains {
      $0.clientIndex != ours && (other == nil || $0.clientIndex != other)
        && $0.properties[PulseSimulatedDevice.Key.repair] == nil
        && $0.role.map(roles.contains) == true
    }
  }

  /// A `request-cork` counted as a call until it is known better.
  struct Hold: Sendable, Equatable {
    /// The sequence of the last snapshot settled before the request: only a later one can show
    /// what caused it.
    var before: Int
    /// Tells this request from earlier ones of the same session.
    var serial: Int
    /// Whether a later snapshot showed another client's call-role stream.
    var confirmed = false
  }

  /// What the backend does for the model.
  enum Action: Sendable, Equatable {
    /// Call ``expire(_:serial:)`` for the session a second from now, unless something else
    /// settles the request first.
    case expireLater(session: String, serial: Int)
    /// The server muted (corked) the session's stream for our own call-role stream: undo it
    /// (the engine decides between our sessions).
    case restoreMute(session: String)
  }

  /// The sessions whose stream got `request-cork` and nothing that settled it yet.
  private(set) var holds: [String: Hold] = [:]
  private var serial = 0

  /// Whether a call is in progress: another client's call-role stream shows, or a cork request
  /// stands that our own call-role stream did not cause.
  func callActive(_ facts: Facts?) -> Bool {
    guard let facts else { return !holds.isEmpty }
    return facts.foreignCall || (!holds.isEmpty && !facts.ownCallPlaying)
  }

  /// A `request-cork` (`cork`) or `request-uncork` on a session's stream, with the sequence of
  /// the last snapshot settled before it and what the latest snapshot shows.
  mutating func corkRequested(
    session: String, cork: Bool, settled: Int, facts: Facts?
  ) -> [Action] {
    var actions: [Action] = []
    if cork {
      serial += 1
      holds[session] = Hold(before: settled, serial: serial)
      actions.append(.expireLater(session: session, serial: serial))
    } else {
      holds[session] = nil
    }
    if let facts { actions += resolve(facts) }
    return actions
  }

  /// What a snapshot settled after a request says about it:
  /// - another client's call-role stream is there: the request is confirmed (the call is
  ///   visible now, and ends when that stream goes);
  /// - it was confirmed and the stream is gone: the call came and went (its request-uncork may
  ///   never come: our stream was not corked yet when the call ended);
  /// - one of our own sessions plays with a call role: that stream caused it, and the server's
  ///   mute is undone;
  /// - none of these: the request stays, until it expires, as a snapshot may be settled before
  ///   the server announces the phone stream.
  mutating func resolve(_ facts: Facts) -> [Action] {
    var actions: [Action] = []
    for (session, hold) in holds.sorted(by: { $0.key < $1.key }) where facts.sequence > hold.before
    {
      if facts.foreignCall {
        holds[session]?.confirmed = true
      } else if hold.confirmed {
        holds[session] = nil
      } else if facts.ownCallPlaying {
        holds[session] = nil
        actions.append(.restoreMute(session: session))
      }
    }
    return actions
  }

  /// A request that nothing confirmed within its time ends (a phone stream that came and went
  /// before the backend could ask for its role); a later request of the session, or a confirmed
  /// one, stays. Returns whether it ended.
  mutating func expire(_ session: String, serial: Int) -> Bool {
    guard let hold = holds[session], hold.serial == serial, !hold.confirmed else { return false }
    holds[session] = nil
    return true
  }

  /// The session's streams closed: its request goes with them. Returns whether it had one.
  mutating func close(_ session: String) -> Bool {
    holds.removeValue(forKey: session) != nil
  }

  /// The connection went: every request goes with its streams.
  mutating func reset() {
    holds = [:]
  }
}
