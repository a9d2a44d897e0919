// Carrying out what the arbiter decided: the shell's only work, in the arbiter's order.
import AudioSession
import AudioSessionArbiter
import AudioSessionSystem
import AudioSessionWire
import Logging

extension DaemonCore {
  /// Carries out one fact's effects, in order; returns the replies, sent to their connections
  /// unless `sendingReplies` is false.
  func carryOut(_ effects: [ArbiterEffect], sendingReplies: Bool) async -> [DaemonReply] {
    var replies: [DaemonReply] = []
    var notSaved: String?
    for effect in effects {
      switch effect {
      case .send(let id, let message):
        peers[id]?.send(message)
      case .reply(let id, let pending):
        var reply = await finish(pending)
        if case .command = pending, let notSaved {
          // Made, but it will not survive a restart: the client says so (docs/protocol.md
          // "The state file").
          reply.body.append(.init(key: "notSaved", value: .string(Self.notSavedText(notSaved))))
        }
        replies.append(reply)
        if sendingReplies, let peer = peers[id] {
          let text = reply.json.serialized
          if let refusal = peer.sendReply(text) {
            logger.warning("\(refusal)")
            let busy = ProtocolError(.busy, refusal)
            peer.send(DaemonReply(id: reply.id, error: .protocolError(busy)).json.serialized)
          }
        }
      case .apply(let notifications, let status):
        await backend.apply(notifications, status: status)
      case .assign(let assignment):
        await backend.assign(assignment)
      case .player(let command, let bus):
        players?.send(command, to: bus)
      case .save(let change, let all):
        if let failure = save(change, all: all) { notSaved = failure }
      case .foldState(let held):
        if let store, let failure = store.fold(held.entries) {
          logger.error(
            "state file: \(failure); the daemon's sessions will not survive a restart until a change is saved",
            metadata: ["path": "\(store.path)"])
        }
      case .keepPausedPlayers(let entries):
        guard var journal = pausedPlayers else { continue }
        do throws(SafeFile.Failure) {
          try journal.store(entries)
        } catch {
          logger.warning("cannot keep the players we paused for the next daemon: \(error)")
        }
        pausedPlayers = journal
      case .log(let line):
        logger.log(level: line.level.logging, "\(line.message)", metadata: line.metadata.logging)
      case .timeHold(let hold):
        timeHold(hold)
      }
    }
    return replies
  }

  /// Hands a hold back to the arbiter once its time is up (docs/apps.md "Speech"), as one more
  /// fact in the loop's order; the timer thread keeps the daemon's rule of no Dispatch.
  private nonisolated func timeHold(_ hold: AppHold) {
    let core = self
    Task(executorPreference: executor) {
      try? await TimerThread.sleep(for: .milliseconds(hold.milliseconds))
      await core.submit(.holdEnded(hold))
    }
  }

  /// A reply with what only the backend and the state file know.
  private func finish(_ pending: ArbiterReply) async -> DaemonReply {
    switch pending {
    case .ready(let reply):
      return reply
    case .session(let requestID, let session):
      var single = arbiter.engine.status(withSessions: false)
      single.sessions = [session]
      let status = await backend.withRealHardware(single).sessions.first ?? session
      return DaemonReply(
        id: requestID, body: [.init(key: "session", value: .object(WireSession.json(status)))])
    case .recording(let requestID):
      var recording = recorder.recording()
      let identity = arbiter.setup.identity
      let server = await backend.serverStatus.map { status in
        status.name + (status.address.map { " (\($0))" } ?? "")
      }
      recording.daemon = DesktopRecording.Daemon(
        version: PackageVersion.current, pid: identity.pid, backend: backend.name,
        profile: identity.profile, server: server, started: startedAt, recorded: WallTime.now())
      return DaemonReply(
        id: requestID, body: [.init(key: "record", value: .object(recording.json))])
    case .command(let requestID, var result):
      if case .status(var status)? = result.reply {
        // The daemon's status also says how its backend stands with the real server, whose
        // each session is, and how its state file stands.
        status = await backend.withRealHardware(status)
        status.server = await backend.serverStatus
        status.stateFile = stateFileStatus()
        for index in status.sessions.indices {
          status.sessions[index].ownership = arbiter.ownership(of: status.sessions[index].name)
        }
        result.reply = .status(status)
      }
      return DaemonReply(id: requestID, result: result)
    }
  }

  /// Saves one change to the state file; nil, or why it could not be saved (logged as an error
  /// too, except while the file is frozen: that was said at start-up).
  private func save(_ change: SavedChange, all: HeldSessions) -> String? {
    guard let store else { return nil }
    guard let failure = store.record(change, all: { all.entries }) else { return nil }
    if store.isFrozen { return failure }
    logger.error(
      "state file: \(failure); the daemon's sessions will not survive a restart until a change is saved",
      metadata: ["path": "\(store.path)"])
    return failure
  }
}

extension LogLine.Level {
  var logging: Logger.Level {
    switch self {
    case .debug: .debug
    case .info: .info
    case .notice: .notice
    case .warning: .warning
    case .error: .error
    }
  }
}

extension [String: LogLine.Value] {
  var logging: Logger.Metadata? {
    guard !isEmpty else { return nil }
    var metadata: Logger.Metadata = [:]
    for (key, value) in self {
      switch value {
      case .string(let text): metadata[key] = .string(text)
      case .list(let items): metadata[key] = .array(items.map { .string($0) })
      }
    }
    return metadata
  }
}
