/// Recomputing dispositions of the sessions an input affected, and posting what changed.
extension Engine {
  func routeKey(_ id: Int, override: Bool) -> RouteKey {
    let session = sessions[id]
    let mode = session.configuration.mode
    return RouteKey(
      category: session.configuration.category,
      mode: router.rules.modeRoutes[mode] == nil ? nil : mode,
      options: session.routingOptions,
      speakerOverride: override && session.portOverride == .speaker,
      preferredInput: session.preferredInput,
      chosenOutput: session.chosen[.output] ?? sharedChoice[session.configuration.policy]?[.output]
        ?? chosen[.output],
      chosenInput: session.chosen[.input] ?? sharedChoice[session.configuration.policy]?[.input]
        ?? chosen[.input])
  }

  mutating func computeRoute(_ id: Int, override: Bool) -> RouteDescription {
    let key = routeKey(id, override: override)
    if let cached = routeCache[key] { return cached }
    let route = router.route(for: key, devices: devices)
    routeCache[key] = route
    return route
  }

  /// Recomputes every dirty session: routes first (a route change can pause a player, which
  /// changes others' hints), then dispositions; then posts per session in creation order:
  /// routeChange, pause, duck/unduck, mute/unmute, secondary-audio hint.
  mutating func recompute() {
    guard !dirtyList.isEmpty else { return }
    var index = 0
    // Pausing a player marks other sessions, which appends to the list: walk it by index.
    while index < dirtyList.count {
      let id = dirtyList[index]
      index += 1
      guard sessions[id].alive, sessions[id].dirty & Dirty.route != 0 else { continue }
      if let notice = updateRoute(id) {
        sessions[id].pendingRoute = notice
        if sessions[id].interruptedBy != nil {
          // Headphones gone during the interruption; back again, and the loss is forgotten.
          sessions[id].lostPrivateRoute =
            lostPrivateListening(notice)
            || (sessions[id].lostPrivateRoute && !hasPrivateListening(notice))
        }
        if shouldPause(id, notice) {
          setPlaying(id, false)
          sessions[id].dirty |= Dirty.paused
        }
        if interruptsOnDisconnect(id, notice) { disconnectVictims.append(id) }
      }
    }
    if dirtyList.count > 1 { dirtyList.sort() }
    for id in dirtyList {
      let dirty = sessions[id].dirty
      sessions[id].dirty = 0
      guard sessions[id].alive else { continue }
      if let notice = sessions[id].pendingRoute {
        sessions[id].pendingRoute = nil
        post(id, notice, because: explaining ? routeSource(id) : nil)
        if dirty & Dirty.paused != 0, case .routeChange(let reason, _, _) = notice {
          post(
            id, .pause(reason: reason),
            because: explaining ? .table("routes.json", "privateListeningPorts") : nil)
        }
      }
      if dirty & Dirty.disposition != 0 { updateDisposition(id) }
    }
  }

  /// Where a session's route came from: its category's row of the route table, or the override
  /// table when the speaker override is on.
  func routeSource(_ id: Int) -> DecisionSource {
    sessions[id].portOverride == .speaker
      ? .table("routes.json", "overrideCategories")
      : .table("routes.json", "categories.\(sessions[id].configuration.category.name)")
  }

  /// Updates a session's route; returns the routeChange to post, if any.
  private mutating func updateRoute(_ id: Int) -> SessionEvent? {
    let previous = sessions[id].route
    let normal = computeRoute(id, override: false)
    var reason = routeReasonFor[id] ?? routeReason
    if normal != sessions[id].normalRoute, sessions[id].portOverride != .none,
      reason == .newDeviceAvailable || reason == .oldDeviceUnavailable
    {
      // Any route change ends the speaker override (QA1754).
      sessions[id].portOverride = .none
    }
    sessions[id].normalRoute = normal
    let current = sessions[id].portOverride == .none ? normal : computeRoute(id, override: true)
    sessions[id].route = current
    let forced = forcedRouteNotice.contains(id)
    guard current != previous || forced else { return nil }
    // A configuration change is announced only when forced (active, or the §6.2 switch).
    if reason == .categoryChange && !forced { return nil }
    let rules = policy.rules(for: sessions[id].configuration.category)
    if (rules.hasOutput && current.outputs.isEmpty) || (rules.hasInput && current.inputs.isEmpty) {
      reason = .noSuitableRouteForCategory
    }
    return .routeChange(reason: reason, previous: previous, current: current)
  }

  /// Whether a route change leads to a private-listening output.
  private func hasPrivateListening(_ notice: SessionEvent) -> Bool {
    guard case .routeChange(_, _, let current) = notice else { return false }
    let ports = policy.table.routes.privateListeningPorts
    return current.outputs.contains { ports.contains($0.portType) }
  }

  /// Whether a route change took a private-listening output (headphones) away (§7.7, §9 item 3).
  private func lostPrivateListening(_ notice: SessionEvent) -> Bool {
    guard case .routeChange(let reason, let previous, let current) = notice,
      reason == .oldDeviceUnavailable
    else { return false }
    let ports = policy.table.routes.privateListeningPorts
    return previous.outputs.contains { ports.contains($0.portType) }
      && !current.outputs.contains { ports.contains($0.portType) }
  }

  /// The headphone pause (docs/avaudiosession.md §7.7): a playing session loses a private-listening
  /// output.
  private func shouldPause(_ id: Int, _ notice: SessionEvent) -> Bool {
    let rules = policy.table.routes
    guard sessions[id].playing,
      rules.pauseCategories.contains(sessions[id].configuration.category),
      case .routeChange(let reason, let previous, let current) = notice,
      reason == .oldDeviceUnavailable
    else { return false }
    guard previous.outputs.contains(where: { rules.privateListeningPorts.contains($0.portType) })
    else { return false }
    if rules.pauseOnlyOnFallbackToBuiltIn {
      return current.outputs.allSatisfy(\.portType.isBuiltIn)
    }
    return true
  }

  /// Recomputes duck, mute and hint for one session and posts what changed.
  private mutating func updateDisposition(_ id: Int) {
    let active = sessions[id].active
    let duckedBy = active ? duckingCause(id) : nil
    let mutedBy = active ? muteReason(id) : nil
    let hint = active && (playingNonMixable.count - (playingNonMixable.contains(id) ? 1 : 0)) > 0
    if (sessions[id].duckedBy == nil) != (duckedBy == nil) {
      post(
        id, duckedBy.map { .duck(by: $0) } ?? .unduck,
        because: explaining ? duckSource(id, duckedBy) : nil)
    }
    sessions[id].duckedBy = duckedBy
    if (sessions[id].mutedBy == nil) != (mutedBy == nil) {
      post(
        id, mutedBy.map { .mute(reason: $0) } ?? .unmute,
        because: explaining ? muteSource(id, mutedBy) : nil)
    }
    sessions[id].mutedBy = mutedBy
    if hint != sessions[id].hint {
      // Only apps in the foreground with an active session hear about the hint (§6.3); the
      // others read `secondaryAudioShouldBeSilencedHint` when they need it. A session the same
      // disconnect interrupts next (§13.5) ends the input inactive: it hears the interruption.
      if active, sessions[id].appState == .foreground, !disconnectVictims.contains(id) {
        post(
          id, .silenceSecondaryAudioHint(hint ? .begin : .end),
          because: explaining ? .fixed("§6.3") : nil)
      }
      sessions[id].hint = hint
    }
    let style = promptStyle(id)
    if style != sessions[id].promptStyle {
      sessions[id].promptStyle = style
      post(
        id, .promptStyle(style),
        because: explaining ? .table("interactions.json", "promptStyle") : nil)
    }
  }

  /// The first active session (creation order) that ducks this one, if any.
  private mutating func duckingCause(_ id: Int) -> Cause? {
    var best: Int?
    for classID in activeClasses
    where classes.lasting(classID, sessions[id].classID, policy) == .duck {
      for other in activeByClass[classID] where other != id && other < (best ?? Int.max) {
        best = other
      }
    }
    return best.map { .session(sessions[$0].name) }
  }

  private mutating func muteReason(_ id: Int) -> MuteReason? {
    let category = sessions[id].configuration.category
    let silencedBy = policy.table.interactions.silencedBy
    if silentSwitch, silencedBy[.silentSwitch]?.contains(category) == true { return .silentSwitch }
    if screenLocked, silencedBy[.screenLock]?.contains(category) == true { return .screenLock }
    for classID in activeClasses
    where classes.lasting(classID, sessions[id].classID, policy) == .mute {
      if activeByClass[classID].contains(where: { $0 != id }) { return .recording }
    }
    return nil
  }

  // MARK: Explaining (only while `explaining`)

  /// The rule behind a duck (the cached rule between the ducker's class and this one's), kept
  /// for the unduck that lifts it.
  private mutating func duckSource(_ id: Int, _ cause: Cause?) -> DecisionSource {
    if case .session(let name)? = cause, let ducker = ids[name] {
      let source = classes.lastingSource(sessions[ducker].classID, sessions[id].classID)
      liftedBy[id, default: (nil, nil)].duck = source
      return source
    }
    return liftedBy[id]?.duck ?? .fixed("§4.4")
  }

  /// The table or rule behind a mute, kept for the unmute that lifts it.
  private mutating func muteSource(_ id: Int, _ reason: MuteReason?) -> DecisionSource {
    var source: DecisionSource?
    switch reason {
    case .silentSwitch?: source = .table("interactions.json", "silencedBy.silentSwitch")
    case .screenLock?: source = .table("interactions.json", "silencedBy.screenLock")
    case .recording?:
      for classID in activeClasses
      where classes.lasting(classID, sessions[id].classID, policy) == .mute
        && activeByClass[classID].contains(where: { $0 != id })
      {
        source = classes.lastingSource(classID, sessions[id].classID)
        break
      }
    case nil: break
    }
    guard let source else { return liftedBy[id]?.mute ?? .fixed("§2") }
    liftedBy[id, default: (nil, nil)].mute = source
    return source
  }
}
