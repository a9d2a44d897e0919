/// The app's life and the system around it: background and suspension, the Now Playing app,
/// preferences, a ringing call, Siri and the prompt style (docs/avaudiosession.md §13.4–§13.5).
extension Engine {
  /// Moves the session's app to the foreground, the background, or suspends it.
  ///
  /// Suspension deactivates an idle active session without telling the app (it runs no code);
  /// the app gets `began` (reason `default`, or `appWasSuspended` under the profile switch
  /// `suspensionReasonAppWasSuspended`) when it runs again (§5.1 A12). An app whose I/O runs
  /// keeps running in the background and cannot be suspended.
  mutating func setAppState(_ id: Int, _ state: AppState) throws(SessionError) {
    let previous = sessions[id].appState
    guard state != previous else { return }
    if state == .suspended {
      guard !sessions[id].playing else {
        throw SessionError(
          .badParam,
          "the app of '\(sessions[id].name)' plays or records, so iOS keeps it running in the "
            + "background; stop its I/O first (sessionctl stop --session \(sessions[id].name))")
      }
      if sessions[id].active {
        // As deactivating without notifyOthersOnDeactivation, but the app did not ask.
        try deactivate(
          id, ending: policy.switches.endedWithoutNotifyOthers ? [] : nil,
          because: explaining ? switchSource("endedWithoutNotifyOthers") : nil)
        sessions[id].interruptedBy = .standing
        sessions[id].owesSuspensionNotice = true
      }
    }
    sessions[id].appState = state
    if previous == .suspended, sessions[id].owesSuspensionNotice {
      sessions[id].owesSuspensionNotice = false
      let reason: InterruptionReason =
        policy.switches.suspensionReasonAppWasSuspended ? .appWasSuspended : .default
      post(
        id, .interruptionBegan(reason: reason, by: .system),
        because: explaining ? switchSource("suspensionReasonAppWasSuspended") : nil)
    }
  }

  /// Makes the session's app the Now Playing app (taking it from the previous one), or not.
  mutating func setNowPlaying(_ id: Int, _ on: Bool) {
    if on {
      nowPlaying = id
    } else if nowPlaying == id {
      nowPlaying = nil
    }
  }

  mutating func setPreference(_ id: Int, _ preference: SessionPreference) throws(SessionError) {
    try requireMediaServices("set a preference of \(describe(id))")
    switch preference {
    case .noInterruptionsFromSystemAlerts(let on):
      sessions[id].prefersNoInterruptionsFromSystemAlerts = on
    case .interruptionOnRouteDisconnect(let on):
      sessions[id].prefersInterruptionOnRouteDisconnect = on
    }
  }

  /// Refuses a call iOS refuses from the background (`interactions.json` `background`).
  mutating func refuseInBackground(_ id: Int, _ call: BackgroundRefusal.Call) throws(SessionError) {
    guard sessions[id].appState == .background else { return }
    let refusals = policy.table.interactions.background
    for (index, refusal) in refusals.enumerated()
    where refusal.call == call && refusal.session.matches(sessions[id].traits) {
      if refusal.unlessNowPlaying, nowPlaying == id { return }
      let what = call == .activate ? "activate" : "start I/O for"
      let exemption = refusal.unlessNowPlaying ? " and is not the Now Playing app" : ""
      throw self.refusal(
        SessionError(
          refusal.error,
          "Cannot \(what) \(describe(id)): its app is in the background\(exemption)"),
        because: explaining ? .table("interactions.json", "background[\(index)]") : nil)
    }
  }

  // MARK: Calls ringing, Siri

  /// A call rings: every active session is interrupted by the call, except, for a banner, those
  /// that prefer no interruptions from system alerts (§13.5); answering (`call begin`)
  /// interrupts those too, declining (`call end`) ends the ring's interruptions.
  mutating func ring(_ style: CallStyle) throws(SessionError) {
    guard !callActive, callRinging == nil else {
      throw SessionError(
        .badParam, callActive ? "a call is already in progress" : "a call is already ringing")
    }
    callRinging = style
    var all: [Int] = []
    for classID in activeClasses { all += activeByClass[classID] }
    for id in all.sorted()
    where style == .fullScreen || !sessions[id].prefersNoInterruptionsFromSystemAlerts {
      interrupt(id, reason: .default, by: .call, because: explaining ? .fixed("§13.5") : nil)
    }
    markPromptStyleSessions()
  }

  /// Siri starts listening: it interrupts the sessions `interactions.json` `siri.interrupts`
  /// matches; when it goes, they get `ended` with shouldResume.
  mutating func setSiri(_ active: Bool) throws(SessionError) {
    guard active != siriActive else {
      throw SessionError(.badParam, active ? "Siri is already listening" : "Siri is not active")
    }
    siriActive = active
    let source: DecisionSource? = explaining ? .table("interactions.json", "siri.interrupts") : nil
    if active {
      let matcher = policy.table.interactions.siriInterrupts
      var victims: [Int] = []
      for classID in activeClasses where matcher.matches(classes.traits[classID]) {
        victims += activeByClass[classID]
      }
      for id in victims.sorted() {
        interrupt(id, reason: .default, by: .siri, because: source)
      }
    } else {
      let victims = siriVictims
      siriVictims = []
      endInterruptions(
        of: victims, by: .siri, options: .shouldResume, deliver: true, because: source)
    }
    markPromptStyleSessions()
  }

  // MARK: Route disconnect (iOS 17)

  /// Whether a route change interrupts the session: an active Now Playing session whose route a
  /// disconnect changed, unless it prefers not (§13.5, `setPrefersInterruptionOnRouteDisconnect`).
  func interruptsOnDisconnect(_ id: Int, _ notice: SessionEvent) -> Bool {
    guard nowPlaying == id, sessions[id].active,
      sessions[id].prefersInterruptionOnRouteDisconnect != false,
      case .routeChange(.oldDeviceUnavailable, _, _) = notice
    else { return false }
    return true
  }

  /// Interrupts the sessions a disconnect took the route of, after the route changes were
  /// posted; the interruption has no end (the app resumes when the user asks).
  mutating func interruptDisconnected() {
    let victims = disconnectVictims
    disconnectVictims.removeAll(keepingCapacity: true)
    for id in victims where sessions[id].active {
      interrupt(
        id, reason: .routeDisconnected, by: .system, standing: true,
        because: explaining ? .fixed("§13.5") : nil)
    }
    recompute()
  }

  // MARK: Prompt style

  /// The session's `promptStyle`: `none` while Siri listens, `short` during a call or while one
  /// rings, `normal` otherwise; sessions `interactions.json` `promptStyle.sessions` does not
  /// match always read `normal`.
  func promptStyle(_ id: Int) -> PromptStyle {
    guard policy.table.interactions.promptStyleSessions.matches(sessions[id].traits) else {
      return .normal
    }
    if siriActive { return .none }
    if callActive || callRinging != nil { return .short }
    return .normal
  }

  /// Marks the sessions whose prompt style can follow Siri and calls.
  mutating func markPromptStyleSessions() {
    let matcher = policy.table.interactions.promptStyleSessions
    for id in sessions.indices where sessions[id].alive && matcher.matches(sessions[id].traits) {
      mark(id, Dirty.disposition)
    }
  }
}
