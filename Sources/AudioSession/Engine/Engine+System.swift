/// System-side inputs: devices, the call, switches, the mic mute, media services
/// (docs/avaudiosession.md §5–§7).
extension Engine {
  mutating func connect(_ device: Device) throws(SessionError) {
    guard !devices.contains(where: { $0.uid == device.uid }) else {
      throw SessionError(.badParam, "a device with UID '\(device.uid)' is already connected")
    }
    if device.ports.contains(where: { $0.direction == .input }) { noteAvailableInputs() }
    devices.append(device)
    // Last in wins again: a new device ends the user's choices in the directions it serves.
    for direction in Set(device.ports.map(\.direction)) { forgetChoices(direction) { _ in true } }
    devicesChanged(reason: .newDeviceAvailable)
  }

  mutating func disconnect(_ uid: String) throws(SessionError) {
    guard let index = devices.firstIndex(where: { $0.uid == uid }) else {
      throw SessionError(
        .badParam,
        "no connected device has UID '\(uid)'; connected: \(devices.map(\.uid).joined(separator: ", "))"
      )
    }
    if devices[index].ports.contains(where: { $0.direction == .input }) { noteAvailableInputs() }
    let gone = devices.remove(at: index)
    for direction in PortDirection.allCases { forgetChoices(direction) { $0 == uid } }
    // A preferred input whose device goes is nil again (§7.6).
    let portUIDs = Set(gone.ports.map(\.uid))
    for id in sessions.indices {
      if let preferred = sessions[id].preferredInput, portUIDs.contains(preferred) {
        sessions[id].preferredInput = nil
      }
    }
    devicesChanged(reason: .oldDeviceUnavailable)
  }

  /// The user chose a device for a direction, for every session (nil) or for one: the sessions
  /// concerned are rerouted with reason `override` (a choice is not a device change, so it
  /// never pauses a player).
  mutating func choose(
    _ uid: String, _ direction: PortDirection, for session: Int?
  ) throws(SessionError) {
    guard let device = devices.first(where: { $0.uid == uid }) else {
      throw SessionError(
        .badParam,
        "no connected device has UID '\(uid)'; connected: \(devices.map(\.uid).joined(separator: ", "))"
      )
    }
    guard device.ports.contains(where: { $0.direction == direction }) else {
      throw SessionError(
        .badParam, "device '\(uid)' has no \(direction.rawValue) port; choose one that has")
    }
    routeCache.removeAll(keepingCapacity: true)
    routeReason = .override
    if let session, policy.table.routes.routeSharing[sessions[session].configuration.policy] != nil
    {
      // Long-form sessions share one route: the choice is every such session's (§13.3).
      let sharing = sessions[session].configuration.policy
      sharedChoice[sharing, default: [:]][direction] = uid
      for id in sessions.indices
      where sessions[id].alive && sessions[id].configuration.policy == sharing {
        sessions[id].chosen[direction] = nil
        mark(id, Dirty.route)
      }
    } else if let session {
      sessions[session].chosen[direction] = uid
      mark(session, Dirty.route)
    } else {
      // A choice for everyone replaces the sessions' own choices in that direction.
      forgetChoices(direction) { _ in true }
      chosen[direction] = uid
      for id in sessions.indices where sessions[id].alive { mark(id, Dirty.route) }
    }
  }

  /// Forgets the choices of a direction (for every session and each session's own) whose device
  /// UID satisfies `matching`.
  private mutating func forgetChoices(
    _ direction: PortDirection, _ matching: (String) -> Bool
  ) {
    if let uid = chosen[direction], matching(uid) { chosen[direction] = nil }
    for sharing in Array(sharedChoice.keys) {
      if let uid = sharedChoice[sharing]?[direction], matching(uid) {
        sharedChoice[sharing]?[direction] = nil
      }
    }
    for id in sessions.indices {
      if let uid = sessions[id].chosen[direction], matching(uid) {
        sessions[id].chosen[direction] = nil
      }
    }
  }

  private mutating func devicesChanged(reason: RouteChangeReason) {
    routeCache.removeAll(keepingCapacity: true)
    routeReason = reason
    for id in sessions.indices where sessions[id].alive { mark(id, Dirty.route) }
  }

  /// The active sessions a call interrupts, in order: all but the one whose app makes it
  /// (docs/apps.md Calls).
  var sessionsACallInterrupts: [Int] {
    var all: [Int] = []
    for classID in activeClasses { all += activeByClass[classID] }
    return all.sorted().filter { !sessions[$0].ownsCall }
  }

  /// Whether a call in progress holds `id` to its rules (no record or playAndRecord): every
  /// session but the one whose app makes it (docs/apps.md Calls).
  func callConstrains(_ id: Int) -> Bool { callActive && !sessions[id].ownsCall }

  mutating func setCall(_ active: Bool) throws(SessionError) {
    guard active ? !callActive : callActive || callRinging != nil else {
      throw SessionError(
        .badParam, active ? "a call is already in progress" : "no call is in progress")
    }
    defer { markPromptStyleSessions() }
    if !active, !callActive {
      // Declined: the ring's interruptions end as a call's would (§13.5).
      callRinging = nil
      let victims = callVictims
      callVictims = []
      endInterruptions(
        of: victims, by: .call, options: .shouldResume, deliver: policy.switches.endedAfterCall,
        because: explaining ? switchSource("endedAfterCall") : nil)
      return
    }
    // Answering a ringing call, or a call that starts at once.
    callRinging = nil
    callActive = active
    if active {
      // "The phone always wins": every active session is interrupted (A4).
      for id in sessionsACallInterrupts {
        interrupt(id, reason: .default, by: .call, because: explaining ? .fixed("§5.1 A4") : nil)
      }
    } else {
      let victims = callVictims
      callVictims = []
      endInterruptions(
        of: victims, by: .call, options: .shouldResume, deliver: policy.switches.endedAfterCall,
        because: explaining ? switchSource("endedAfterCall") : nil)
    }
  }

  mutating func setSilencing(_ reason: MuteReason, _ on: Bool) {
    switch reason {
    case .silentSwitch:
      guard silentSwitch != on else { return }
      silentSwitch = on
    case .screenLock:
      guard screenLocked != on else { return }
      screenLocked = on
    case .recording:
      return
    }
    let categories = policy.table.interactions.silencedBy[reason] ?? []
    for classID in activeClasses where categories.contains(classes.traits[classID].category) {
      for id in activeByClass[classID] { mark(id, Dirty.disposition) }
    }
  }

  /// The built-in mic is muted (an iPad's cover closed) or unmuted: muting interrupts the
  /// sessions running input on it (active and playing; docs/avaudiosession.md §4.4, §6.1); an
  /// active session whose I/O is stopped is spared, and cannot start it while the mute lasts.
  mutating func setMicMute(_ on: Bool) {
    guard micMuted != on else { return }
    micMuted = on
    if on {
      var victims: [Int] = []
      for classID in activeClasses {
        victims += activeByClass[classID].filter { sessions[$0].playing && isMicMuteVictim($0) }
      }
      for id in victims.sorted() {
        interrupt(
          id, reason: .builtInMicMuted, by: .system,
          because: explaining ? .table("interactions.json", "micMute.interrupts") : nil)
      }
    } else {
      let victims = micVictims
      micVictims = []
      endInterruptions(
        of: victims, by: .system, options: .shouldResume, deliver: true,
        because: explaining ? .table("interactions.json", "micMute.interrupts") : nil)
    }
  }

  /// The media server went away: every session loses its audio; calls fail until the reset.
  mutating func loseMediaServices() {
    guard !mediaServicesLost else { return }
    mediaServicesLost = true
    for id in sessions.indices where sessions[id].alive {
      if sessions[id].active {
        if sessions[id].playing { setPlaying(id, false) }
        leaveActive(id)
        sessions[id].active = false
      }
      sessions[id].interruptedBy = nil
      sessions[id].victims = []
      // Nothing plays any more: clear what was done to the audio without posting about it.
      sessions[id].duckedBy = nil
      sessions[id].mutedBy = nil
      sessions[id].hint = false
      sessions[id].dirty = 0
      post(id, .mediaServicesWereLost, because: explaining ? .fixed("§6.4") : nil)
    }
    dirtyList = []
    callVictims = []
    micVictims = []
    siriVictims = []
    alarmVictims = []
  }

  /// The media server is back: every session is reset to its initial configuration and must be
  /// configured again (QA1749).
  mutating func resetMediaServices() {
    loseMediaServices()
    mediaServicesLost = false
    routeCache.removeAll(keepingCapacity: true)
    chosen = [:]
    sharedChoice = [:]
    for id in sessions.indices where sessions[id].alive {
      assign(id, .initial)
      sessions[id].portOverride = .none
      sessions[id].preferredInput = nil
      sessions[id].prefersNoInterruptionsFromSystemAlerts = false
      sessions[id].prefersEchoCancelledInput = false
      sessions[id].prefersInterruptionOnRouteDisconnect = nil
      // Everything the app set is gone; its reset notification says so (§6.4).
      setOutputMutedState(id, false)
      sessions[id].inputMuted = false
      sessions[id].owesInputMuteNotice = false
      sessions[id].chosen = [:]
      sessions[id].normalRoute = computeRoute(id, override: false)
      sessions[id].route = sessions[id].normalRoute
      post(id, .mediaServicesWereReset, because: explaining ? .fixed("§6.4") : nil)
    }
  }
}
