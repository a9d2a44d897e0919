// Running one request: ownership first, then the engine, then delivery and the state file.
import AudioSession
import AudioSessionSystem
public import AudioSessionWire

extension DaemonCore {
  /// Runs a request for a connection and returns its reply; the notifications it caused have
  /// been delivered (to their sessions' owners and the watchers) when it returns.
  public func perform(_ request: DaemonRequest, from id: ConnectionID) async -> DaemonReply {
    await onEngine { await performOnEngine(request, from: id) }
  }

  func performOnEngine(_ request: DaemonRequest, from id: ConnectionID) async -> DaemonReply {
    guard connections[id] != nil else {
      return DaemonReply(
        id: request.id,
        error: .protocolError(ProtocolError(.invalidMessage, "the connection is closed")))
    }
    if let deadline = request.deadline {
      // The deadline is the client's number: any Int64 may come, so the difference may not fit
      // (a deadline near Int64.min is late by more than Int64 holds, and is late all the same).
      let (late, overflow) = WallClock.milliseconds().subtractingReportingOverflow(deadline)
      if overflow || late > 0 {
        let error = ProtocolError(
          .deadlineExceeded,
          """
          the request reached the daemon \(overflow ? "long" : "\(late) ms") after its client's \
          deadline and was not run: the daemon was busy; send it again, with a longer timeout if \
          need be
          """)
        return DaemonReply(id: request.id, error: .protocolError(error))
      }
    }
    if let session = request.session, request.changesSession,
      let error = ownershipError(session, for: id)
    {
      return DaemonReply(id: request.id, error: .protocolError(error))
    }
    switch request.operation {
    case .hello(let client):
      connections[id]?.client = client
      return DaemonReply(id: request.id, body: [.init(key: "daemon", value: .object(hello(id)))])
    case .watch(let filter):
      connections[id]?.filter = filter
      watchers[id] = filter == .none ? nil : filter
      return DaemonReply(id: request.id)
    case .explain(let session):
      return await explain(session, requestID: request.id)
    case .open(let session):
      return await open(session, for: id, requestID: request.id)
    case .follow(let session):
      let reply = await open(session, for: id, requestID: request.id)
      if reply.error == nil {
        streams.followedSessions.insert(session)
        // Streams tagged for it may already play.
        await applyStreamInputs(streams.reconcileFollowed())
      }
      return reply
    case .session(let session):
      guard let status = await coordinator.sessionWithRealHardware(named: session) else {
        return DaemonReply(id: request.id, error: .session(noSession(session)))
      }
      let json = WireSession.json(status)
      return DaemonReply(id: request.id, body: [.init(key: "session", value: .object(json))])
    case .command(let command):
      // One call: the result also tells the session's state after it, whether the command made
      // it, and for `status` the backend's server.
      var result = await coordinator.run(command, firstMention: .createsOnSuccess)
      if case .status(var status)? = result.reply {
        // The daemon's status also says how its backend stands with the real server, and how
        // its state file does.
        status.server = result.server
        status.stateFile = stateFileStatus()
        for index in status.sessions.indices {
          status.sessions[index].ownership = ownership(of: status.sessions[index].name)
        }
        result.reply = .status(status)
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
      let notSaved = recordHeld(after: command, result)
      let reconfigured = await reconfigureHeld(after: result.notifications)
      deliver(reconfigured)
      result.notifications += reconfigured
      var reply = DaemonReply(id: request.id, result: result)
      if let notSaved {
        // Made, but it will not survive a restart: the client says so (issue 25 item 5).
        reply.body.append(.init(key: "notSaved", value: .string(Self.notSavedText(notSaved))))
      }
      return reply
    }
  }

  /// Whose a session is, for `status`: a client's (its pid and hello name), another program's
  /// (an app session), or the command line's (held by the daemon).
  func ownership(of session: String) -> SessionOwnership {
    if let id = owners[session] {
      let connection = connections[id]
      let players = playerOwner(of: session).map(arbiter.players(of:)) ?? []
      return SessionOwnership(
        kind: streams.followedSessions.contains(session) ? "run" : "client",
        pid: connection?.credentials?.pid, application: connection?.client, players: players)
    }
    if let app = streams.appSessions[session] {
      let players = playerOwner(of: session).map(arbiter.players(of:)) ?? []
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
      "protocol": .int(WireProtocol.version), "pid": .int(Int(identity.pid)),
      "backend": .string(backendName), "profile": .string(identity.profile),
      "connection": .int(id.rawValue),
    ]
  }

  func noSession(_ name: String) -> SessionError {
    SessionError(.expiredSession, "no session named '\(name)'")
  }

  func exists(_ session: String?) async -> Bool {
    guard let session else { return false }
    return await coordinator.session(named: session) != nil
  }

  func open(_ session: String, for id: ConnectionID, requestID: Int?) async -> DaemonReply {
    if await exists(session) {
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
    let outcome = await coordinator.handle(.createSession(session))
    if let error = outcome.error { return DaemonReply(id: requestID, error: .session(error)) }
    owners[session] = id
    connections[id]?.sessions.append(session)
    deliver(outcome.notifications)
    // The client's own streams on the server now belong to this session (docs/apps.md).
    await clientProcessesChanged()
    return DaemonReply(id: requestID, notifications: outcome.notifications)
  }
}
