public import AudioSession
import AudioSessionSystem
import Logging

#if canImport(Glibc)
  import Glibc
#endif

/// The connection: the server to use, connecting, losing it, and coming back (docs/pulseaudio.md
/// §5: a context is single-use; after a restart indices start again and what was loaded is
/// gone, so the backend re-creates it and resyncs).
extension PulseAudioBackend {
  /// Starts the private server if the configuration asks for one, and notes the address.
  func startServer() async throws(SessionError) {
    switch configuration.server {
    case .environment:
      address = nil
      cookieFile = nil
    case .address(let server, let cookie):
      address = server
      cookieFile = cookie
    case .spawn(let kind):
      let server: any PulseServerProcess
      do {
        switch kind {
        case .pulseaudio:
          serverName = "private PulseAudio server"
          // If sessionctl dies without stopping it, the daemon exits once idle for 20 s.
          server = try PulsePrivateServer.start(
            modules: [
              .init("module-role-cork", arguments: "trigger_roles=phone cork_roles=music,video")
            ], exitIdleTime: 20)
        case .pipewire:
          serverName = "private PipeWire server"
          server = try await PipeWirePrivateServer.start()
        }
      } catch {
        throw SessionError(.mediaServicesFailed, error.message)
      }
      spawned = server
      address = server.serverString
      cookieFile = server.cookieFile
      configuration.logger.debug(
        "started a \(serverName)", metadata: ["server": "\(server.serverString)"])
    }
  }

  /// Connects a new context with its monitor and takes in the first snapshot.
  func establish() async throws(PulseError) {
    let context = try PulseContext(
      name: "sessionctl", properties: ["application.id": "org.audiosession.sessionctl"])
    try await context.connect(to: address, cookieFile: cookieFile)
    let number = connection + 1
    let executor = configuration.executor
    // Armed again for this connection's streams once they are assigned.
    let unplugGuard = unplugGuard
    unplugGuard.disarm()
    let monitor = PulseServerMonitor(
      context: context,
      onSettled: { [weak self] snapshot in
        Task(executorPreference: executor) { await self?.received(snapshot, connection: number) }
      },
      onEnded: { [weak self] state in
        Task { await self?.lost(state, connection: number) }
      },
      onSinkRemoved: { [weak context] _, streams, sequence in
        guard let context else { return }
        unplugGuard.fire(streams, sequence: sequence) { index in
          context.setSinkInputMute(index, muted: true) { _ in }
        }
      })
    let first: PulseServerSnapshot
    do {
      first = try await monitor.start()
    } catch {
      monitor.stop()
      context.disconnect()
      throw error
    }
    connection = number
    connectionChanged = .now()
    snapshot = nil
    // Indices of the last connection's streams mean nothing on this one.
    otherModel.forgetAll()
    link = Link(
      context: context, monitor: monitor, clientIndex: context.clientIndex, server: first.server)
    // A killed daemon's changes are undone once, on the first connection; on a later one the
    // server restarted and the streams they were about are gone with it.
    flavor = first.server?.isPipeWire == true ? .pipewire : .pulseaudio
    if number == 1 { await undoJournal(first) } else { writeJournal() }
    if let server = first.server, spawned == nil {
      serverName = server.isPipeWire ? "PipeWire server" : "PulseAudio server"
    }
    var metadata: Logger.Metadata = ["server": "\(serverDescription)"]
    if let server = first.server {
      metadata["serverName"] = "\(server.serverName)"
      metadata["serverVersion"] = "\(server.serverVersion)"
    }
    if number == 1 {
      // Debug: the daemon's own first line says which backend it uses.
      configuration.logger.debug("connected to the \(serverName)", metadata: metadata)
    } else {
      metadata["attempts"] = "\(reconnectionAttempts)"
      configuration.logger.notice("connected to the \(serverName) again", metadata: metadata)
    }
    received(first, connection: number)
  }

  /// The connection of `number` failed or ended: tell the engine (unless an action is running)
  /// and reconnect.
  func lost(_ state: PulseContextState, connection number: Int) {
    guard number == connection, let link else { return }
    link.monitor.stop()
    self.link = nil
    unplugGuard.disarm()
    connectionChanged = .now()
    configuration.logger.warning(
      "lost the connection to the \(serverName) (\(state)); reconnecting",
      metadata: ["server": "\(serverDescription)"])
    snapshot = nil
    assembled = []
    targets = [:]
    // The meters died with the connection; the streams they listened to too.
    stopSilenceMeters()
    // The streams failed with their context; the sessions' state in the engine says what to
    // re-create once it comes back.
    sessions = [:]
    ownModel.connectionLost()
    calls.reset()
    endCall(keepWanted: true)
    failWaitersOnLoss()
    stateChanged()
    guard !stopped, reconnection == nil else { return }
    reconnectionAttempts = 0
    reconnection = Task { [weak self] in await self?.reconnect() }
  }

  /// Tries to connect again, waiting longer after each failure, until it works or the backend
  /// stops; then re-creates what the backend simulated and resyncs.
  func reconnect() async {
    defer { reconnection = nil }
    var backoff = ReconnectBackoff(
      first: configuration.reconnectDelays.first, longest: configuration.reconnectDelays.longest)
    while !stopped, !Task.isCancelled {
      reconnectionAttempts += 1
      holding += 1
      let restored = await restore()
      holding -= 1
      if restored {
        restoredConnection = connection
        stateChanged()
        return
      }
      configuration.logger.debug(
        "the \(serverName) does not answer yet",
        metadata: ["server": "\(serverDescription)", "attempts": "\(reconnectionAttempts)"])
      try? await TimerThread.sleep(for: backoff.nextDelay())
    }
  }

  /// One attempt: connect, re-create the simulated devices (same UIDs, same order), the
  /// simulated call and mute, and settle. False when the server is not back yet.
  private func restore() async -> Bool {
    do {
      try await establish()
    } catch {
      return false
    }
    var loaded: [UInt32] = []
    do throws(SessionError) {
      for index in simulated.indices {
        simulated[index].modules = try await load(simulated[index].device)
        loaded += simulated[index].modules
        try await wait(for: .device(uid: simulated[index].device.uid, present: true))
      }
      if call != nil { try await startCall() }
      if let muted = micMuteWanted { try await muteMicrophone(muted) }
    } catch {
      // The server went away again, or refuses: the next attempt starts over, without the
      // devices this one made (loaded twice, a device's second sink would get another name).
      for module in loaded.reversed() { try? await link?.context.unloadModule(module) }
      link?.monitor.stop()
      link?.context.disconnect()
      link = nil
      snapshot = nil
      return false
    }
    _ = await link?.monitor.settle()
    return link != nil
  }
}

extension PulseAudioBackend {
  /// Connected since when, or lost since when and how many attempts to reconnect so far.
  public var serverStatus: MediaServerStatus? {
    guard !stopped else { return nil }
    return MediaServerStatus(
      name: serverName, address: address ?? Self.environmentAddress(),
      state: link != nil
        ? .connected(since: connectionChanged)
        : .reconnecting(since: connectionChanged, attempts: reconnectionAttempts))
  }

  /// The server's address for the log: the one named, else the one libpulse finds.
  var serverDescription: String { address ?? Self.environmentAddress() ?? "default" }

  /// The server libpulse connects to when none is named: `PULSE_SERVER`, else the user's
  /// socket (`$XDG_RUNTIME_DIR/pulse/native`); nil when neither is set.
  static func environmentAddress() -> String? {
    if let server = getenv("PULSE_SERVER") { return String(cString: server) }
    if let runtime = getenv("XDG_RUNTIME_DIR") {
      return "unix:" + String(cString: runtime) + "/pulse/native"
    }
    return nil
  }
}
