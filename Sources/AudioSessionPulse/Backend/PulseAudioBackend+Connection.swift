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
  /// The server to use: started by the backend (`spawned`), named by the configuration
  /// (`address`, `cookieFile`), or libpulse's default (both nil); and what kind it is.
  struct Endpoint {
    var spawned: (any PulseServerProcess)?
    var address: String?
    var cookieFile: String?
    /// PulseAudio or pipewire-pulse, as the first snapshot says.
    var flavor = PulseSimulatedDevice.Flavor.pulseaudio
    /// How messages name it ("private PulseAudio server", "PipeWire server").
    var name = "PulseAudio server"
  }

  /// The connection's ups and downs.
  struct ConnectionHistory {
    /// The last connection that was fully restored (devices re-created, resynced).
    var restored = 0
    /// The reconnection running while the connection is lost.
    var task: Task<Void, Never>?
    /// When the current connection was made, or the last one lost (docs/protocol.md "The server in
    /// `status`").
    var changed = WallTime.now()
    /// Connection attempts made since the connection was last lost (reset by a loss).
    var attempts = 0
  }

  /// Starts the private server if the configuration asks for one, and notes the address.
  func startServer() async throws(SessionError) {
    switch configuration.server {
    case .environment:
      endpoint.address = nil
      endpoint.cookieFile = nil
    case .address(let server, let cookie):
      endpoint.address = server
      endpoint.cookieFile = cookie
    case .spawn(let kind):
      let server: any PulseServerProcess
      do {
        switch kind {
        case .pulseaudio:
          endpoint.name = "private PulseAudio server"
          // If sessionctl dies without stopping it, the daemon exits once idle for 20 s.
          server = try PulsePrivateServer.start(
            modules: [
              .init("module-role-cork", arguments: "trigger_roles=phone cork_roles=music,video")
            ], exitIdleTime: 20)
        case .pipewire:
          endpoint.name = "private PipeWire server"
          server = try await PipeWirePrivateServer.start()
        }
      } catch {
        throw SessionError(.mediaServicesFailed, error.message)
      }
      endpoint.spawned = server
      endpoint.address = server.serverString
      endpoint.cookieFile = server.cookieFile
      configuration.logger.debug(
        "started a \(endpoint.name)", metadata: ["server": "\(server.serverString)"])
    }
  }

  /// Connects a new context with its monitor and takes in the first snapshot.
  func establish() async throws(PulseError) {
    let context = try PulseContext(
      name: "sessionctl", properties: ["application.id": "org.audiosession.sessionctl"])
    try await context.connect(to: endpoint.address, cookieFile: endpoint.cookieFile)
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
    history.changed = .now()
    snapshot = nil
    // The streams the backend had muted or ducked went with the last server, which may have
    // saved those changes for their role (docs/apps.md "On the server").
    let wentWithServer = number > 1 ? changedOtherStreams() : []
    // Indices of the last connection's streams mean nothing on this one.
    otherModel.forgetAll()
    claims.forgetAll()
    link = Link(
      context: context, monitor: monitor, clientIndex: context.clientIndex)
    // A killed daemon's changes are undone once, on the first connection; on a later one the
    // server restarted and the streams they were about are gone with it.
    endpoint.flavor = first.server?.isPipeWire == true ? .pipewire : .pulseaudio
    if number == 1 { await undoJournal(first) } else { writeJournal() }
    streamsWentWithServer(wentWithServer)
    if let server = first.server, endpoint.spawned == nil {
      endpoint.name = server.isPipeWire ? "PipeWire server" : "PulseAudio server"
    }
    var metadata: Logger.Metadata = ["server": "\(serverDescription)"]
    if let server = first.server {
      metadata["serverName"] = "\(server.serverName)"
      metadata["serverVersion"] = "\(server.serverVersion)"
    }
    if number == 1 {
      // Debug: the daemon's own first line says which backend it uses.
      configuration.logger.debug("connected to the \(endpoint.name)", metadata: metadata)
    } else {
      metadata["attempts"] = "\(history.attempts)"
      configuration.logger.notice("connected to the \(endpoint.name) again", metadata: metadata)
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
    history.changed = .now()
    configuration.logger.warning(
      "lost the connection to the \(endpoint.name) (\(state)); reconnecting",
      metadata: ["server": "\(serverDescription)"])
    snapshot = nil
    deviceView.connectionLost()
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
    guard !stopped, history.task == nil else { return }
    history.attempts = 0
    history.task = Task { [weak self] in await self?.reconnect() }
  }

  /// Tries to connect again, waiting longer after each failure, until it works or the backend
  /// stops; then re-creates what the backend simulated and resyncs.
  func reconnect() async {
    defer { history.task = nil }
    var backoff = ReconnectBackoff(
      first: configuration.reconnectDelays.first, longest: configuration.reconnectDelays.longest)
    while !stopped, !Task.isCancelled {
      history.attempts += 1
      waits.holding += 1
      let restored = await restore()
      waits.holding -= 1
      if restored {
        history.restored = connection
        stateChanged()
        return
      }
      configuration.logger.debug(
        "the \(endpoint.name) does not answer yet",
        metadata: ["server": "\(serverDescription)", "attempts": "\(history.attempts)"])
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
      for index in simulation.devices.indices {
        simulation.devices[index].modules = try await load(simulation.devices[index].device)
        loaded += simulation.devices[index].modules
        try await wait(for: .device(uid: simulation.devices[index].device.uid, present: true))
      }
      if simulation.call != nil { try await startCall() }
      if let muted = simulation.micMuteWanted { try await muteMicrophone(muted) }
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
      name: endpoint.name, address: endpoint.address ?? Self.environmentAddress(),
      state: link != nil
        ? .connected(since: history.changed)
        : .reconnecting(since: history.changed, attempts: history.attempts))
  }

  /// The server's address for the log: the one named, else the one libpulse finds.
  var serverDescription: String { endpoint.address ?? Self.environmentAddress() ?? "default" }

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
