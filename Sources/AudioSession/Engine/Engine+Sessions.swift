/// The app-facing calls: configuration, activation, I/O, override (docs/avaudiosession.md §3–§5,
/// §7.5–§7.6).
extension Engine {
  static let reservedNames: Set<String> = ["alarm", "call", "siri", "system"]

  mutating func createSession(_ name: String) throws(SessionError) {
    guard ids[name] == nil else {
      throw refusal(
        SessionError(.badParam, "a session named '\(name)' already exists"),
        because: explaining ? .fixed("§1.4") : nil
      )
    }
    guard !name.isEmpty, !Self.reservedNames.contains(name) else {
      throw SessionError(
        .badParam, "'\(name)' cannot name a session: 'call' and 'system' name interruption causes")
    }
    let id = sessions.count
    sessions.append(SessionState(name: name, traits: policy.traits(.initial), classID: 0))
    assign(id, .initial)
    ids[name] = id
    sessions[id].normalRoute = computeRoute(id, override: false)
    sessions[id].route = sessions[id].normalRoute
  }

  /// Forgets a session as a vanished app's (docs/engine.md "Rules, and where they come from"): it is deactivated (its player
  /// stopped, its ducking and muting lifted), and the sessions it interrupted get what the
  /// policy's `vanishedApp` says.
  mutating func removeSession(_ id: Int) throws(SessionError) {
    if sessions[id].active || !sessions[id].victims.isEmpty {
      // isBusy (the player was running) is the app's concern, and the app is gone.
      try? deactivate(
        id, ending: policy.vanishedApp.endedOptions,
        because: explaining ? .table("interactions.json", "vanishedApp") : nil)
    }
    detachFromInterrupter(id)
    if nowPlaying == id { nowPlaying = nil }
    setOutputMutedState(id, false)
    sessions[id].alive = false
    sessions[id].dirty = 0
    ids[sessions[id].name] = nil
  }

  mutating func setCategory(
    _ id: Int, _ category: Category, _ mode: Mode?, _ options: CategoryOptions,
    _ sharing: RouteSharingPolicy = .default
  ) throws(SessionError) -> [String] {
    try requireMediaServices("set the category of '\(sessions[id].name)'")
    if callConstrains(id), policy.table.interactions.callBlocksSetCategory.contains(category) {
      throw refusal(
        SessionError(
          .insufficientPriority,
          "Cannot set category '\(category.name)' on '\(sessions[id].name)': a phone call is in progress"
        ), because: explaining ? .table("interactions.json", "call.blocksSetCategory") : nil)
    }
    let requested = SessionConfiguration(
      category: category, mode: mode ?? sessions[id].configuration.mode, options: options,
      policy: sharing)
    switch validate(requested) {
    case .failure(var error):
      if explaining { errorSource = validationSource(requested) }
      if mode == nil, requested.mode != .default,
        case .success = validate(
          SessionConfiguration(
            category: category, mode: .default, options: options, policy: sharing))
      {
        error.message +=
          " (mode '\(requested.mode.name)' was kept from the previous configuration; set a mode too)"
      }
      throw error
    case .success(let validated):
      reconfigure(id, validated.configuration)
      return validated.warnings
    }
  }

  mutating func setMode(_ id: Int, _ mode: Mode) throws(SessionError) -> [String] {
    try requireMediaServices("set the mode of '\(sessions[id].name)'")
    // setMode clears the category options (docs/avaudiosession.md §3.1, [F-745968]).
    let requested = SessionConfiguration(
      category: sessions[id].configuration.category, mode: mode, options: [],
      policy: sessions[id].configuration.policy)
    switch validate(requested) {
    case .failure(let error):
      if explaining { errorSource = validationSource(requested) }
      throw error
    case .success(let validated):
      reconfigure(id, validated.configuration)
      return validated.warnings
    }
  }

  /// Applies a validated configuration: category changes reset the speaker override and post a
  /// categoryChange route change to an active session (docs/avaudiosession.md §4.4, §6.2).
  private mutating func reconfigure(_ id: Int, _ configuration: SessionConfiguration) {
    guard configuration != sessions[id].configuration else { return }
    let wasActive = sessions[id].active
    if wasActive { leaveActive(id) }
    assign(id, configuration)
    sessions[id].portOverride = .none
    if wasActive { enterActive(id) }
    routeReason = .categoryChange
    mark(id, Dirty.route | Dirty.disposition)
    if wasActive || policy.switches.categoryChangeWhileInactive {
      forcedRouteNotice.insert(id)
    }
    unmuteOutputForMode(id)
    deliverStoredInputMute(id)
  }

  mutating func activate(_ id: Int) throws(SessionError) {
    try requireMediaServices("activate \(describe(id))")
    guard !sessions[id].active else {
      // Activated again after a change of category while active (an app session decided again
      // as a call or a player): whoever its new category interrupts is interrupted now, as at
      // its first activation; its victims stay its own. Nothing changes otherwise.
      interruptLosers(of: id)
      return
    }
    let category = sessions[id].configuration.category
    let interactions = policy.table.interactions
    if callConstrains(id),
      interactions.callBlocksActivation.contains(category)
        || (category == .playback && policy.switches.callBlocksPlaybackActivation)
    {
      throw refusal(
        SessionError(
          .insufficientPriority, "Cannot activate \(describe(id)): a phone call is in progress"),
        because: !explaining
          ? nil
          : interactions.callBlocksActivation.contains(category)
            ? .table("interactions.json", "call.blocksActivation")
            : switchSource("callBlocksPlaybackActivation"))
    }
    if micMuted, isMicMuteVictim(id) {
      throw refusal(
        SessionError(
          .resourceNotAvailable,
          "Cannot activate \(describe(id)): the built-in microphone is muted; set "
            + "overrideMutedMicrophoneInterruption to stay active with a muted microphone"),
        because: explaining ? .table("interactions.json", "micMute.interrupts") : nil)
    }
    if siriActive, interactions.siriRefusesActivation.matches(sessions[id].traits) {
      throw refusal(
        SessionError(
          .siriIsRecording,
          "Cannot activate \(describe(id)): Siri is recording; activate after 'simulate siri end'"),
        because: explaining ? .table("interactions.json", "siri.refusesActivation") : nil)
    }
    try refuseInBackground(id, .activate)
    // Reactivating ends the wait for `ended`: the app resumed on its own.
    detachFromInterrupter(id)
    sessions[id].owesSuspensionNotice = false
    interruptLosers(of: id)
    sessions[id].active = true
    enterActive(id)
    // iOS 27 posts didBecomeActive once the activation succeeded (§13.1).
    if policy.switches.lifecycleNotifications {
      post(id, .didBecomeActive, because: explaining ? switchSource("lifecycleNotifications") : nil)
    }
    deliverStoredInputMute(id)
  }

  /// Interrupts the active sessions that `id`'s class interrupts (§5.1 A2), as they are now:
  /// a rule may spare a holder whose I/O is paused (interruptSpokenAudioAndMixWithOthers, §4.4).
  /// While a call goes on, the session whose app makes it is interrupted by no other app: no
  /// app interrupts a phone call (docs/arbiter.md "Calls").
  private mutating func interruptLosers(of id: Int) {
    for loser in losers(of: id) {
      if callActive, sessions[loser].ownsCall, !sessions[id].ownsCall { continue }
      let source =
        explaining
        ? classes.source(
          sessions[id].classID, sessions[loser].classID, holderPlaying: sessions[loser].playing)
        : nil
      interrupt(loser, reason: .default, by: .session(sessions[id].name), because: source)
    }
  }

  /// The active sessions an activation of `id` interrupts, in creation order. Decided once per
  /// active class: a class's holders are looked at only when the rule for them depends on
  /// whether they play, and then only those the rule reaches (the playing ones, or the others),
  /// so an activation costs the classes plus the sessions it interrupts, not every active
  /// session (docs/engine.md "One input").
  mutating func losers(of id: Int) -> [Int] {
    let incoming = sessions[id].classID
    var losers: [Int] = []
    for holderClass in activeClasses {
      let playing =
        classes.action(incoming, holderClass, policy, holderPlaying: true) == .interrupt
      let paused =
        classes.action(incoming, holderClass, policy, holderPlaying: false) == .interrupt
      switch (playing, paused) {
      case (true, true): losers += activeByClass[holderClass]
      case (false, false): continue
      case (true, false): losers += playingHolders(holderClass)
      case (false, true):
        losers += activeByClass[holderClass].subtracting(playingHolders(holderClass))
      }
    }
    losers.removeAll { $0 == id }
    return losers.sorted()
  }

  private func playingHolders(_ classID: Int) -> Set<Int> {
    classID < playingByClass.count ? playingByClass[classID] : []
  }

  mutating func deactivate(_ id: Int, notifyOthers: Bool) throws(SessionError) {
    let ending: InterruptionOptions? =
      notifyOthers ? .shouldResume : policy.switches.endedWithoutNotifyOthers ? [] : nil
    try deactivate(
      id, ending: ending, byApp: true,
      because: !explaining
        ? nil : notifyOthers ? .fixed("§5.1 A10") : switchSource("endedWithoutNotifyOthers"))
  }

  /// Deactivates a session; the sessions it interrupted get `ended` with `ending`'s options, or
  /// nothing when it is nil (they stay interrupted). `source`: what decided the ending.
  mutating func deactivate(
    _ id: Int, ending: InterruptionOptions?, byApp: Bool = false, because source: DecisionSource?
  ) throws(SessionError) {
    try requireMediaServices("deactivate \(describe(id))")
    var busy: SessionError?
    if sessions[id].active {
      if sessions[id].playing {
        // iOS 8–18: the session is deactivated anyway, and the call reports isBusy (A9); iOS
        // 26's headers drop the error (§13.1).
        if policy.switches.deactivateWithRunningIOIsBusy {
          busy = refusal(
            SessionError(
              .isBusy,
              "\(describe(id)) was deactivated while its I/O was running; stop playback before deactivating"
            ), because: explaining ? switchSource("deactivateWithRunningIOIsBusy") : nil)
        }
        setPlaying(id, false)
      }
      leaveActive(id)
      sessions[id].active = false
      mark(id, Dirty.disposition)
      if byApp, policy.switches.lifecycleNotifications {
        post(
          id, .didBecomeInactive(source: .app, reason: nil),
          because: explaining ? switchSource("lifecycleNotifications") : nil)
      }
    }
    // An interrupted session holds no focus to give back: its deactivation (an app paused for
    // the interruption, or one that deactivates meanwhile) leaves the sessions it interrupted
    // waiting for it, until it plays again and stops, or goes (docs/apps.md "Focus").
    if sessions[id].interruptedBy != nil, byApp {
      if let busy { throw busy }
      return
    }
    endInterruptions(
      of: sessions[id].victims, by: .session(sessions[id].name), options: ending ?? [],
      deliver: ending != nil, because: source)
    sessions[id].victims = []
    if let busy { throw busy }
  }

  mutating func startIO(_ id: Int) throws(SessionError) {
    try requireMediaServices("start I/O for \(describe(id))")
    if sessions[id].traits.hasInput, !sessions[id].observed, !sessions[id].playing,
      !devices.contains(where: { $0.ports.contains { $0.direction == .input } })
    {
      throw refusal(
        SessionError(
          .resourceNotAvailable,
          "Cannot start I/O for \(describe(id)): category '\(sessions[id].configuration.category.name)' records and no input device is connected; connect one (simulate plug) first"
        ), because: explaining ? .fixed("§11") : nil)
    }
    try refuseInBackground(id, .play)
    if micMuted, isMicMuteVictim(id), !sessions[id].playing {
      throw refusal(
        SessionError(
          .cannotStartRecording,
          "Cannot start I/O for \(describe(id)): the built-in microphone is muted; start it after "
            + "'simulate mic-mute off', or set overrideMutedMicrophoneInterruption to record zeros"),
        because: explaining ? .table("interactions.json", "micMute.interrupts") : nil)
    }
    // The system activates a session whose app starts playing or recording (the Audio Session
    // Programming Guide, docs/avaudiosession.md §5.1): the activation's own refusals apply.
    if !sessions[id].active { try activate(id) }
    setPlaying(id, true)
  }

  mutating func stopIO(_ id: Int) throws(SessionError) {
    try requireMediaServices("stop I/O for \(describe(id))")
    setPlaying(id, false)
  }

  mutating func overrideOutput(_ id: Int, _ value: PortOverride) throws(SessionError) {
    try requireMediaServices("override the output of \(describe(id))")
    let category = sessions[id].configuration.category
    let allowed = policy.table.routes.overrideCategories
    guard allowed.contains(category) else {
      let names = Category.allCases.filter { allowed.contains($0) }.map(\.name)
      throw refusal(
        SessionError(
          .badParam,
          "overrideOutputAudioPort is only valid with category \(quotedList(names)); '\(sessions[id].name)' has category '\(category.name)'"
        ), because: explaining ? .table("routes.json", "overrideCategories") : nil)
    }
    guard sessions[id].portOverride != value else { return }
    sessions[id].portOverride = value
    routeReason = .override
    forcedRouteNotice.insert(id)
    mark(id, Dirty.route)
  }

  /// `setPreferredInput(_:)` by port UID, or by port type (the first available input of that
  /// type); nil clears it (docs/avaudiosession.md §7.6).
  mutating func setPreferredInput(_ id: Int, _ requested: String?) throws(SessionError) {
    try requireMediaServices("set the preferred input of \(describe(id))")
    var uid = requested
    if let requested {
      let available = router.availableInputs(for: routeKey(id, override: false), devices: devices)
      if !available.contains(where: { $0.uid == requested }) {
        let type = PortType(name: requested)
        guard let match = available.first(where: { $0.type == type }) else {
          throw SessionError(
            .badParam,
            "'\(requested)' is neither the UID nor the port type of an available input for "
              + "\(describe(id)); available inputs: "
              + (available.isEmpty
                ? "none" : available.map { "\($0.uid) (\($0.type.name))" }.joined(separator: ", ")))
        }
        uid = match.uid
      }
    }
    guard sessions[id].preferredInput != uid else { return }
    sessions[id].preferredInput = uid
    routeReason = .override
    mark(id, Dirty.route)
  }

  // MARK: Interruptions

  /// Interrupts an active session: it is deactivated, its player stops, and it gets `began`.
  mutating func interrupt(
    _ id: Int, reason: InterruptionReason, by cause: Cause, standing: Bool = false,
    because source: DecisionSource?
  ) {
    if sessions[id].playing { setPlaying(id, false) }
    leaveActive(id)
    sessions[id].active = false
    detachFromInterrupter(id)
    let holder: InterruptionHolder
    switch cause {
    case .session(let name):
      let interrupter = ids[name] ?? id
      holder = .session(interrupter)
      sessions[interrupter].victims.insert(id)
    case .call:
      holder = .call
      callVictims.insert(id)
    case .siri:
      holder = .siri
      siriVictims.insert(id)
    case .alarm:
      holder = .alarm
      alarmVictims.insert(id)
    case .system where standing:
      holder = .standing
    case .system:
      holder = .micMute
      micVictims.insert(id)
    }
    sessions[id].interruptedBy = holder
    sessions[id].lostPrivateRoute = false
    // Any interruption routes the audio back to its normal route (QA1754).
    if sessions[id].portOverride != .none {
      sessions[id].portOverride = .none
      mark(id, Dirty.route)
      forcedRouteNotice.insert(id)
      routeReasonFor[id] = .override
    }
    mark(id, Dirty.disposition)
    post(id, .interruptionBegan(reason: reason, by: cause), because: source)
  }

  /// Posts `ended` to the sessions still waiting for it from this cause, in creation order.
  mutating func endInterruptions(
    of victims: Set<Int>, by cause: Cause, options: InterruptionOptions, deliver: Bool,
    because source: DecisionSource?
  ) {
    // Undelivered (D6, D7): the session stays interrupted until it reactivates on its own.
    guard deliver else { return }
    for victim in victims.sorted() where sessions[victim].alive {
      // The focus goes back only when it is free (A10: the sessions "can return to their active
      // state"; none can while a session that would interrupt it again is active): the victim
      // stays interrupted, now waiting for that session, and hears nothing yet. Without this a
      // session interrupted twice over resumed while its second interrupter still played. A call
      // in progress interrupts every session but its own (A4), so it holds the victim too.
      if callConstrains(victim) {
        sessions[victim].interruptedBy = .call
        callVictims.insert(victim)
        continue
      }
      if let holder = blockingHolder(of: victim) {
        sessions[victim].interruptedBy = .session(holder)
        sessions[holder].victims.insert(victim)
        continue
      }
      sessions[victim].interruptedBy = nil
      // Better than iOS, as a switch (§9 item 3): headphones that went meanwhile take shouldResume
      // away, so that the audio does not resume out loud on the speaker.
      if sessions[victim].lostPrivateRoute, options.contains(.shouldResume),
        policy.switches.noResumeAfterPrivateRouteLost
      {
        sessions[victim].lostPrivateRoute = false
        post(
          victim, .interruptionEnded(options: options.subtracting(.shouldResume), by: cause),
          because: explaining ? switchSource("noResumeAfterPrivateRouteLost") : nil)
      } else {
        sessions[victim].lostPrivateRoute = false
        post(victim, .interruptionEnded(options: options, by: cause), because: source)
      }
      mark(victim, Dirty.disposition)
    }
  }

  /// The first active session (in creation order) whose class interrupts `victim`'s: while one
  /// is active, `victim` cannot take the focus back (``endInterruptions``). While a call goes
  /// on, only another call's session holds the call's own: no other app interrupts a call, so
  /// none keeps one waiting either (docs/arbiter.md "Calls": a call held by a second call
  /// comes back when the second ends, whatever else plays).
  mutating func blockingHolder(of victim: Int) -> Int? {
    let victimClass = sessions[victim].classID
    let onlyCalls = callActive && sessions[victim].ownsCall
    var holder: Int?
    for holderClass in activeClasses
    where classes.action(holderClass, victimClass, policy) == .interrupt {
      for id in activeByClass[holderClass]
      where id != victim && id < (holder ?? Int.max) && (!onlyCalls || sessions[id].ownsCall) {
        holder = id
      }
    }
    return holder
  }

  /// Removes a session from the list of whoever interrupted it.
  mutating func detachFromInterrupter(_ id: Int) {
    switch sessions[id].interruptedBy {
    case .session(let holder): sessions[holder].victims.remove(id)
    case .call: callVictims.remove(id)
    case .micMute: micVictims.remove(id)
    case .siri: siriVictims.remove(id)
    case .alarm: alarmVictims.remove(id)
    case .standing, nil: break
    }
    sessions[id].interruptedBy = nil
  }

  // MARK: Indexes

  mutating func enterActive(_ id: Int) {
    let classID = sessions[id].classID
    while activeByClass.count <= classID { activeByClass.append([]) }
    activeByClass[classID].insert(id)
    activeClasses.insert(classID)
    markDependents(of: classID)
    mark(id, Dirty.disposition)
    if sessions[id].playing { trackPlaying(id, true) }
  }

  mutating func leaveActive(_ id: Int) {
    let classID = sessions[id].classID
    guard classID < activeByClass.count, activeByClass[classID].remove(id) != nil else { return }
    if activeByClass[classID].isEmpty { activeClasses.remove(classID) }
    markDependents(of: classID)
    mark(id, Dirty.disposition)
    if sessions[id].playing { trackPlaying(id, false) }
  }

  /// Marks the active sessions whose duck or mute can depend on a session of this class.
  mutating func markDependents(of classID: Int) {
    for holderClass in activeClasses {
      switch classes.lasting(classID, holderClass, policy) {
      case .duck, .mute:
        for holder in activeByClass[holderClass] { mark(holder, Dirty.disposition) }
      case .mix, .interrupt:
        break
      }
    }
  }

  mutating func setPlaying(_ id: Int, _ playing: Bool) {
    guard sessions[id].playing != playing else { return }
    if sessions[id].active { trackPlaying(id, playing) }
    sessions[id].playing = playing
  }

  /// Keeps the playing indexes; the secondary-audio hint of others depends on them (§6.3).
  private mutating func trackPlaying(_ id: Int, _ playing: Bool) {
    activePlayingCount += playing ? 1 : -1
    let classID = sessions[id].classID
    while playingByClass.count <= classID { playingByClass.append([]) }
    if playing { playingByClass[classID].insert(id) } else { playingByClass[classID].remove(id) }
    guard !sessions[id].traits.isMixable else { return }
    let before = playingNonMixable
    if playing { playingNonMixable.insert(id) } else { playingNonMixable.remove(id) }
    if before.isEmpty != playingNonMixable.isEmpty {
      for members in activeClasses.map({ activeByClass[$0] }) {
        for member in members { mark(member, Dirty.disposition) }
      }
    }
    for member in before.union(playingNonMixable) { mark(member, Dirty.disposition) }
  }

  func isMicMuteVictim(_ id: Int) -> Bool {
    let session = sessions[id]
    let interactions = policy.table.interactions
    return interactions.micMuteInterrupts.contains(session.configuration.category)
      && !session.traits.effectiveOptions.contains(interactions.micMuteExemptOption)
      && session.route.inputs.contains { $0.portType == .builtInMic }
  }
}
