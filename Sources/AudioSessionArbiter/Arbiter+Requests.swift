// Connections and requests: ownership first, then the engine, then delivery and the state file.
public import AudioSession
import AudioSessionWire

extension Arbiter {
  mutating func connect(_ id: ConnectionID, credentials: PeerCredentials?) {
    connections[id] = Connection(credentials: credentials)
    log(.debug, "\(id) opened", Self.metadata(id, credentials))
  }

  /// Forgets a connection: its sessions end as a vanished app's do (deactivated; the sessions
  /// they interrupted get what the policy's `vanishedApp` says), and the others are told.
  mutating func disconnect(_ id: ConnectionID) {
    guard let connection = connections.removeValue(forKey: id) else { return }
    var metadata = Self.metadata(id, connection.credentials)
    if !connection.sessions.isEmpty { metadata["sessions"] = .list(connection.sessions) }
    log(.debug, "\(id) closed", metadata)
    watchers[id] = nil
    for name in connection.sessions {
      owners[name] = nil
      streams.followedSessions.remove(name)
      let result = run(
        .input(.removeSession(name)), firstMention: .creates,
        trigger: "\(name)'s client disconnected")
      deliver(result.notifications, because: result.because)
      forgetHistory(of: [name])
    }
    clientProcessesChanged()
  }

  /// The library clients' processes changed (a connection came, went, or made a session).
  mutating func clientProcessesChanged() {
    var processes: [Int32: String] = [:]
    for connection in connections.values {
      if let pid = connection.credentials?.pid, let session = connection.sessions.last {
        processes[pid] = session
      }
    }
    guard processes != streams.clientProcesses else { return }
    applyStreamInputs(streams.setClientProcesses(processes))
  }

  /// Whether a request came after its client's deadline (`now` and the deadline in
  /// milliseconds since the epoch), and by how much (nil: by more than Int64 holds).
  static func isLate(_ request: DaemonRequest, now: Int) -> (late: Bool, by: Int?) {
    guard let deadline = request.deadline else { return (false, 0) }
    // The deadline is the client's number: any Int64 may come, so the difference may not fit
    // (a deadline near Int64.min is late by more than Int64 holds, and is late all the same).
    let (late, overflow) = now.subtractingReportingOverflow(deadline)
    if overflow { return (true, nil) }
    return (late > 0, late)
  }

  /// Runs a request for a connection and returns its reply; the notifications it caused are
  /// among the effects before it.
  mutating func perform(
    _ request: DaemonRequest, from id: ConnectionID, now: Int,
    performed: Result<SimulationOutcome, SessionError>?
  ) -> ArbiterReply {
    guard connections[id] != nil else {
      return .ready(
        DaemonReply(
          id: request.id,
          error: .protocolError(ProtocolError(.invalidMessage, "the connection is closed"))))
    }
    let lateness = Self.isLate(request, now: now)
    if lateness.late {
      let error = ProtocolError(
        .deadlineExceeded,
        """
        the request reached the daemon \(lateness.by.map { "\($0) ms" } ?? "long") after its \
        client's deadline and was not run: the daemon was busy; send it again, with a longer \
        timeout if need be
        """)
      return .ready(DaemonReply(id: request.id, error: .protocolError(error)))
    }
    if let session = request.session, request.changesSession,
      let error = ownershipError(session, for: id)
    {
      return .ready(DaemonReply(id: request.id, error: .protocolError(error)))
    }
    switch request.operation {
    case .hello(let client):
      connections[id]?.client = client
      return .ready(
        DaemonReply(id: request.id, body: [.init(key: "daemon", value: .object(hello(id)))]))
    case .watch(let filter):
      watchers[id] = filter == .none ? nil : filter
      return .ready(DaemonReply(id: request.id))
    case .explain(let session):
      return .ready(explain(session, requestID: request.id))
    case .record:
      return .recording(requestID: request.id)
    case .open(let session):
      return .ready(open(session, for: id, requestID: request.id))
    case .follow(let session):
      let reply = open(session, for: id, requestID: request.id)
      if reply.error == nil {
        streams.followedSessions.insert(session)
        // Streams tagged for it may already play.
        applyStreamInputs(streams.reconcileFollowed())
      }
      return .ready(reply)
    case .session(let session):
      guard let status = engine.session(named: session) else {
        return .ready(DaemonReply(id: request.id, error: .session(noSession(session))))
      }
      return .session(requestID: request.id, status)
    case .command(let command):
      let result = runDelivering(command, firstMention: .createsOnSuccess, performed: performed)
      return .command(requestID: request.id, result)
    }
  }

  /// Runs a command as the daemon does for a request: the result also tells the session's
  /// state after it, whether the command made it, and for `status` the backend's server; its
  /// notifications are delivered with the player commands they caused (which the result lists
  /// too), the held sessions recorded, and after a reset configured again.
  mutating func runDelivering(
    _ command: Command, firstMention: FirstMention, trigger: String? = nil,
    performed: Result<SimulationOutcome, SessionError>?
  ) -> CommandResult {
    var result = run(
      command, firstMention: firstMention, trigger: trigger, performed: performed)
    if case .simulate(.call(let active)) = command, result.error == nil {
      simulatedCall = active
    }
    // With the player commands they caused, which the reply lists too.
    result.notifications = deliver(result.notifications, because: result.because)
    if let error = result.error, let session = result.session?.name,
      let because = result.errorBecause
    {
      record(refusal: error, of: session, because: because)
    }
    if case .input(.removeSession(let session)) = command, result.error == nil {
      forgetHistory(of: [session])
    }
    recordHeld(after: command, result)
    let reconfigured = reconfigureHeld(after: result.notifications)
    deliver(reconfigured)
    result.notifications += reconfigured
    if result.notifications.contains(where: { $0.event == .mediaServicesWereReset }) {
      mediaServicesWereReset()
    }
    return result
  }

  /// Whose a session is, for `status`: a client's (its pid and hello name), another program's
  /// (an app session), or the command line's (held by the daemon).
  public func ownership(of session: String) -> SessionOwnership {
    if let id = owners[session] {
      let connection = connections[id]
      let players = playerOwner(of: session).map(self.players.players(of:)) ?? []
      return SessionOwnership(
        kind: streams.followedSessions.contains(session) ? "run" : "client",
        pid: connection?.credentials?.pid, application: connection?.client, players: players)
    }
    if let app = streams.appSessions[session] {
      let players = playerOwner(of: session).map(self.players.players(of:)) ?? []
      return SessionOwnership(
        kind: "app", pid: app.pid, application: app.application, players: players)
    }
    return SessionOwnership(kind: "cli")
  }

  /// Why `id` may not change `session`, or nil when it may: a library session belongs to its
  /// connection; daemon-held sessions are anyone's.
  func ownershipError(_ session: String, for id: ConnectionID) -> ProtocolError? {
    if let app = streams.appSessions[session] {
      let program = [app.application, app.pid.map { "pid \($0)" }].compactMap { $0 }
      return ProtocolError(
        .notOwner,
        "session '\(session)' belongs to a program on the media server"
          + (program.isEmpty ? "" : " (\(program.joined(separator: ", ")))")
          + "; it lives with that program's streams, and the daemon arbitrates it like any "
          + "session (docs/apps.md)")
    }
    guard let owner = owners[session], owner != id else { return nil }
    return ProtocolError(
      .notOwner,
      "session '\(session)' belongs to another client (\(describe(owner))); a client can change "
        + "only its own sessions and those held by the daemon for the command line")
  }

  func describe(_ id: ConnectionID) -> String {
    guard let connection = connections[id] else { return "\(id)" }
    var parts: [String] = []
    if let client = connection.client { parts.append("'\(client)'") }
    if let pid = connection.credentials?.pid { parts.append("pid \(pid)") }
    parts.append("\(id)")
    return parts.joined(separator: ", ")
  }

  func hello(_ id: ConnectionID) -> JSONObject {
    [
      "protocol": .int(WireProtocol.version), "pid": .int(Int(setup.identity.pid)),
      "backend": .string(setup.backendName), "profile": .string(setup.identity.profile),
      "connection": .int(id.rawValue),
    ]
  }

  func noSession(_ name: String) -> SessionError {
    SessionError(.expiredSession, "no session named '\(name)'")
  }

  mutating func open(_ session: String, for id: ConnectionID, requestID: Int?) -> DaemonReply {
    if engine.session(named: session) != nil {
      let holder =
        owners[session].map { "belongs to \(describe($0))" }
        ?? (streams.appSessions[session] != nil
          ? "belongs to a program on the media server" : "is held by the daemon")
      return DaemonReply(
        id: requestID,
        error: .protocolError(
          ProtocolError(
            .sessionExists,
            "a session named '\(session)' already exists and \(holder); choose another name")))
    }
    let outcome = handleInputs([.createSession(session)])[0]
    if let error = outcome.error { return DaemonReply(id: requestID, error: .session(error)) }
    owners[session] = id
    connections[id]?.sessions.append(session)
    deliver(outcome.notifications)
    // The client's own streams on the server now belong to this session (docs/apps.md).
    clientProcessesChanged()
    return DaemonReply(id: requestID, notifications: outcome.notifications)
  }

  /// The metadata of a connection's events: its number and, when known, its peer's pid and uid.
  static func metadata(_ id: ConnectionID, _ credentials: PeerCredentials?) -> [String: LogLine
    .Value]
  {
    var metadata: [String: LogLine.Value] = ["connection": "\(id.rawValue)"]
    if let credentials {
      metadata["pid"] = "\(credentials.pid)"
      metadata["uid"] = "\(credentials.uid)"
    }
    return metadata
  }

  /// The deactivations, with notifyOthersOnDeactivation, of the app sessions whose
  /// interruption just ended but whose players the user paused meanwhile: no Play goes to them,
  /// so they do not resume, and the apps they interrupted before are not left waiting for them
  /// (as when the user pauses a player that nothing interrupts, ``pausedByUser(_:)``): what the
  /// user hears after a call does not depend on whether the call came (docs/arbiter.md "The
  /// user's word").
  func stoppedByUser(after notifications: [SessionNotification]) -> [EngineInput] {
    var played: Set<String> = []
    var ended: [String] = []
    for notification in notifications {
      switch notification.event {
      case .player(let action) where action.command == .play: played.insert(action.player)
      case .interruptionEnded where !ended.contains(notification.session):
        ended.append(notification.session)
      default: continue
      }
    }
    var inputs: [EngineInput] = []
    for session in ended where streams.appSessions[session] != nil {
      guard let owner = playerOwner(of: session),
        engine.session(named: session).map({ !$0.active && !$0.interrupted }) == true
      else { continue }
      let own = players.players(of: owner)
      guard !own.isEmpty,
        own.allSatisfy({ $0.status != .playing && !played.contains($0.bus) })
      else { continue }
      inputs.append(
        .setActive(session: session, active: false, options: .notifyOthersOnDeactivation))
    }
    return inputs
  }

  /// Sends each notification to its session's owner and to the watchers it passes, serialising
  /// each distinct event once.
  /// Returns them, followed by the `player` events they caused (``playerCommands(for:)``).
  /// `because`, parallel to `notifications`, is recorded for `explain`.
  @discardableResult
  mutating func deliver(
    _ notifications: [SessionNotification], because: [Because] = []
  ) -> [SessionNotification] {
    guard !notifications.isEmpty else { return [] }
    let commands = playerCommands(for: notifications)
    if !commands.isEmpty { keepPausedPlayers() }
    record(notifications, because: because)
    let commandReasons = commands.map { playerBecause($0.1) }
    record(commands.map(\.0), because: commandReasons)
    if deliveries != nil {
      for (index, notification) in notifications.enumerated() {
        deliveries?.append(
          Delivery(
            notification: notification,
            because: because.indices.contains(index) ? because[index] : nil))
      }
      for (command, reason) in zip(commands, commandReasons) {
        deliveries?.append(Delivery(notification: command.0, because: reason))
      }
    }
    let notifications = notifications + commands.map(\.0)
    // A program whose player the user paused stays stopped: its stream playing on (silence,
    // a browser's) does not make it resume (docs/arbiter.md "The user's word").
    let resumptions = streams.resumptions(after: notifications).filter { input in
      guard let session = input.session, let owner = playerOwner(of: session) else { return true }
      let own = players.players(of: owner)
      return own.isEmpty || own.contains { $0.status == .playing }
    }
    // After this delivery, as a decision of its own (docs/apps.md).
    if !resumptions.isEmpty { followUps.append(resumptions) }
    let stopped = stoppedByUser(after: notifications)
    if !stopped.isEmpty { followUps.append(stopped) }
    var tails: [SessionEvent: Substring] = [:]
    for notification in notifications {
      var message: String?
      let owner = owners[notification.session]
      var recipients: [ConnectionID] = []
      if let owner, connections[owner] != nil { recipients.append(owner) }
      for (id, filter) in watchers where id != owner && filter.admits(notification.event) {
        recipients.append(id)
      }
      for id in recipients {
        if message == nil {
          let tail = tails[notification.event] ?? WireNotification.eventTail(notification)
          tails[notification.event] = tail
          message = WireNotification.message(session: notification.session, eventTail: tail)
        }
        if let message { emit(.send(id, message)) }
      }
    }
    return notifications
  }
}
