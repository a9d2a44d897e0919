/// `simulate …` on a real server: each action changes the server, waits until the change shows,
/// settles, and returns the inputs of the difference, so the engine sees what it would see if a
/// user had done it (docs/pulseaudio.md §1.2 simulated devices, §2 phone-role stream, §5 restart).
public import AudioSession

extension PulseAudioBackend {
  public func perform(_ action: SimulationAction) async throws(SessionError) -> [EngineInput] {
    switch action {
    case .silentSwitch(let on):
      // PulseAudio has no silent switch or screen lock: they stay the engine's.
      return [.silentSwitch(on: on)]
    case .screenLock(let on):
      return [.screenLock(on: on)]
    case .siri(let active):
      // Neither has Siri, nor a ringing phone: the engine's alone (docs/contract.md).
      return [.siri(active: active)]
    case .alarm(let active):
      // Nor a Clock app: a system alarm is the engine's alone too.
      return [.alarm(active: active)]
    case .volume(let volume):
      guard volume.isFinite, (0...1).contains(volume) else {
        throw SessionError(.badParam, "the volume is a number from 0.0 to 1.0, not \(volume)")
      }
      // The system volume is the default sink's (docs/api-coverage.md); a server with no
      // default sink has none, and the engine's is set alone.
      if link == nil || defaultSink == nil { return [.systemVolume(volume)] }
    case .recordPermission(let permission):
      return [.recordPermission(permission)]
    case .callRing(let style):
      guard !deviceView.published.callActive, !engineCallRinging else {
        throw SessionError(
          .badParam,
          deviceView.published.callActive
            ? "a call is already in progress" : "a call is already ringing")
      }
      return [.callRing(style)]
    case .call(false) where engineCallRinging && simulation.call == nil:
      // Declining a call that only rang: no stream to end.
      return [.call(active: false)]
    default:
      break
    }
    simulation.notes = []
    guard !stopped else {
      throw SessionError(.mediaServicesFailed, "the PulseAudio backend was stopped")
    }
    guard let current = link else { throw lostError("simulate \(action.stepText)") }
    waits.holding += 1
    defer { waits.holding -= 1 }
    // What `apply` sent earlier (a cork) is carried out before the action (a call's end), as it
    // would be if the user acted a moment later.
    _ = await current.monitor.settle()
    do throws(SessionError) {
      try await act(action)
      _ = await link?.monitor.settle()
    } catch {
      // What did change reaches the engine anyway, as observed inputs.
      if waits.holding == 1 { publish(currentState()) }
      throw error
    }
    return takeChanges()
  }

  private func act(_ action: SimulationAction) async throws(SessionError) {
    switch action {
    case .plug(let preset):
      let uid = try await createDevice(preset: preset)
      if let note = userServerNote(plugged: uid) { simulation.notes.append(note) }
    case .unplug(let target):
      try await removeDevice(target)
    case .call(let active):
      try await simulateCall(active)
    case .micMute(let on):
      try await simulateMicMute(on)
    case .serverRestart:
      try await restartServer()
    case .mediaServices:
      // A real server is lost and reset by going and coming back, both at once.
      throw SessionError(
        .badParam,
        "simulate media-services lost|reset runs on the simulated backend; on a PulseAudio "
          + "server, 'simulate server-restart' (with a server the daemon started: --spawn-server) "
          + "loses and resets the media services in one step")
    case .volume(let volume):
      try await setSystemVolume(volume)
    case .silentSwitch, .screenLock, .siri, .alarm, .callRing, .recordPermission:
      break
    }
  }

  /// The server's default sink, as the latest snapshot shows it.
  var defaultSink: PulseDeviceSnapshot? { snapshot?.defaultSink }

  /// Sets every channel of the default sink to `volume` (0…1), as the volume keys do, and waits
  /// until the server shows it.
  private func setSystemVolume(_ volume: Double) async throws(SessionError) {
    guard let link, let sink = defaultSink else { throw lostError("set the volume") }
    let channel = PulseSystemState.channelVolume(volume)
    let volumes = Array(repeating: channel, count: max(1, sink.channelVolumes.count))
    do {
      try await link.context.setSinkVolume(sink.name, to: volumes)
    } catch {
      throw SessionError(
        .unspecified, "cannot set the volume of \(sink.name) on the \(endpoint.name): \(error)")
    }
    try await wait(for: .volume(PulseSystemState.systemVolume(volumes) ?? volume))
  }

  // MARK: Devices

  /// Loads a device made from a preset and waits until the server shows all of it; returns its
  /// UID.
  @discardableResult
  func createDevice(preset name: String) async throws(SessionError) -> String {
    guard let preset = deviceView.catalog.presets[name] else {
      throw Self.unknownPreset(name, deviceView.catalog)
    }
    let uid: String
    if let fixed = preset.uid {
      guard !deviceView.published.devices.contains(where: { $0.uid == fixed }),
        !simulation.devices.contains(where: { $0.device.uid == fixed })
      else {
        throw SessionError(.badParam, "'\(name)' (\(fixed)) is already connected")
      }
      uid = fixed
    } else {
      let count = simulation.plugCounts[name, default: 0] + 1
      simulation.plugCounts[name] = count
      uid = "\(name)-\(count)"
    }
    let device = PulseSimulatedDevice(preset: preset, uid: uid, owner: owner)
    let modules: [UInt32]
    do {
      modules = try await load(device)
    } catch {
      if preset.uid == nil { simulation.plugCounts[name, default: 1] -= 1 }
      throw error
    }
    simulation.devices.append(SimulatedDevice(device: device, modules: modules))
    try await wait(for: .device(uid: uid, present: true))
    return uid
  }

  public func takeSimulationNotes() -> [String] {
    defer { simulation.notes = [] }
    return simulation.notes
  }

  /// On a user's server (the daemon's `.system` devices, on a server it did not start), a
  /// plugged device is a virtual one loaded there, where the server may make it the default
  /// output: the user is told, and how to remove it (docs/pulseaudio-layer.md "Simulation").
  func userServerNote(plugged uid: String) -> String? {
    guard configuration.devices == .system, endpoint.spawned == nil,
      let record = simulation.devices.last(where: { $0.device.uid == uid }),
      let parts = try? record.device.parts(for: endpoint.flavor)
    else { return nil }
    var modules: [String] = []
    for part in parts where !modules.contains(part.module) { modules.append(part.module) }
    return """
      '\(uid)' is a virtual device (\(modules.joined(separator: ", "))) loaded on the \
      \(endpoint.name) you use; it may become that server's default output, so that other \
      applications play into it and are not heard. 'sessionctl simulate unplug \(uid)' removes \
      it (so does stopping the daemon); a daemon started with --spawn-server simulates on a \
      private server instead
      """
  }

  /// Loads the modules of a simulated device, in port order.
  func load(_ device: PulseSimulatedDevice) async throws(SessionError) -> [UInt32] {
    guard let link else { throw lostError("plug \(device.uid)") }
    let parts: [PulseSimulatedDevice.Part]
    do {
      parts = try device.parts(for: endpoint.flavor)
    } catch {
      throw SessionError(.badParam, "cannot simulate '\(device.preset.name)': \(error.message)")
    }
    var modules: [UInt32] = []
    for part in parts {
      do {
        modules.append(try await link.context.loadModule(part.module, arguments: part.arguments))
      } catch {
        for module in modules.reversed() { try? await link.context.unloadModule(module) }
        throw SessionError(
          .unspecified,
          "the \(endpoint.name) refused to load \(part.module) for '\(device.preset.name)' "
            + "(\(part.arguments)): \(error)")
      }
    }
    return modules
  }

  /// Unloads a simulated device (by UID, or the most recently plugged of a preset).
  private func removeDevice(_ target: String) async throws(SessionError) {
    let connected = deviceView.published.devices
    let device =
      connected.first { $0.uid == target } ?? connected.last { $0.preset == target }
    guard let device else {
      let listed = connected.map { "\($0.uid) (\($0.preset ?? "device"))" }
      throw SessionError(
        .badParam,
        "no connected device has UID or preset '\(target)'; connected: "
          + listed.joined(separator: ", "))
    }
    guard let position = simulation.devices.firstIndex(where: { $0.device.uid == device.uid })
    else {
      throw SessionError(
        .badParam,
        "cannot unplug '\(device.uid)': it is a real device of the \(endpoint.name), not one "
          + "sessionctl simulated; unplug it by hand")
    }
    guard let link else { throw lostError("unplug \(device.uid)") }
    let record = simulation.devices.remove(at: position)
    for module in record.modules.reversed() {
      do {
        try await link.context.unloadModule(module)
      } catch .noSuchEntity {
        continue
      } catch {
        throw SessionError(
          .unspecified, "the \(endpoint.name) refused to unload module \(module): \(error)")
      }
    }
    try await wait(for: .device(uid: device.uid, present: false))
  }

  // MARK: Call

  private func simulateCall(_ active: Bool) async throws(SessionError) {
    if active {
      guard !deviceView.published.callActive, simulation.call == nil else {
        throw SessionError(.badParam, "a call is already in progress")
      }
      simulation.call = SimulatedCall()
      try await startCall()
      try await wait(for: .call(active: true))
    } else {
      guard simulation.call != nil else {
        throw SessionError(
          .badParam,
          deviceView.published.callActive
            ? "the call in progress is another application's, not a simulated one"
            : "no call is in progress")
      }
      let client = simulation.call?.context?.clientIndex
      endCall()
      guard let link, let client, !foreignCall(link, besides: client) else {
        // Another application's call goes on: only our stream ends.
        if let client { try await wait(for: .clientGone(client)) }
        return
      }
      try await wait(for: .call(active: false))
    }
  }

  /// Plays a silent `media.role=phone` stream from a second client, as a phone app would. The
  /// stream carries this backend's `audiosession.owner`: it is the call, not another program's
  /// app session (which would itself interrupt the others, by its own name).
  func startCall() async throws(SessionError) {
    let role = configuration.policy.streams.callRoles.sorted().first ?? "phone"
    do {
      let context = try PulseContext(
        name: "sessionctl-call", properties: ["application.id": "org.audiosession.call"])
      try await context.connect(to: endpoint.address, cookieFile: endpoint.cookieFile)
      let stream = try PulsePlaybackStream(
        context: context, name: "simulated call",
        properties: ["media.role": role, PulseSimulatedDevice.Key.owner: owner])
      try await stream.connect()
      simulation.call = SimulatedCall(context: context, stream: stream)
    } catch {
      throw SessionError(
        .unspecified, "cannot play a phone-role stream on the \(endpoint.name): \(error)")
    }
  }

  /// Ends the simulated call's stream and connection (`keepWanted`: it is re-created after a
  /// reconnect).
  func endCall(keepWanted: Bool = false) {
    simulation.call?.stream?.disconnect()
    simulation.call?.context?.disconnect()
    simulation.call = keepWanted && simulation.call != nil ? SimulatedCall() : nil
  }

  // MARK: Microphone and server

  private func simulateMicMute(_ on: Bool) async throws(SessionError) {
    guard try await muteMicrophone(on) else {
      // No built-in mic on the server: the mute exists only in the engine, as when simulated.
      simulation.micMuteWanted = nil
      return
    }
    simulation.micMuteWanted = on
    try await wait(for: .micMuted(on))
  }

  /// Mutes the sources of the built-in mic ports; false when there are none.
  @discardableResult
  func muteMicrophone(_ on: Bool) async throws(SessionError) -> Bool {
    guard let link else { throw lostError("mute the microphone") }
    let sources = deviceView.builtInMicSources
    for source in sources {
      do {
        try await link.context.setSourceMute(source, muted: on)
      } catch {
        throw SessionError(.unspecified, "cannot mute \(source) on the \(endpoint.name): \(error)")
      }
    }
    return !sources.isEmpty
  }

  /// Restarts the private server: the connection fails (lost), the backend reconnects,
  /// re-creates what it simulated and resyncs (reset).
  private func restartServer() async throws(SessionError) {
    guard let server = endpoint.spawned else {
      throw SessionError(
        .badParam,
        "server-restart restarts the private server sessionctl started; this backend uses the "
          + "\(endpoint.name) at \(endpoint.address ?? "the environment's endpoint.address"), which it cannot restart "
          + "(start the daemon with 'sessionctl daemon --backend pulse --spawn-server', or run "
          + "the scenario with --spawn-server)")
    }
    let before = connection
    do {
      try server.restart()
    } catch {
      throw SessionError(.mediaServicesFailed, error.message)
    }
    // A server's start, the reconnection and the devices made again, each of which may take up
    // to the settle limit on a loaded machine: three of them.
    try await wait(for: .connection(after: before), limit: configuration.settleLimit * 3)
  }

}
