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
    case .sampleRate(let rate):
      sessions[id].preferences.sampleRate = rate
    case .ioBufferDuration(let duration):
      sessions[id].preferences.ioBufferDuration = duration
    case .inputNumberOfChannels(let count):
      try checkChannels(id, count, .input)
      sessions[id].preferences.inputNumberOfChannels = count
    case .outputNumberOfChannels(let count):
      try checkChannels(id, count, .output)
      sessions[id].preferences.outputNumberOfChannels = count
    case .aggregatedIO(let aggregated):
      let category = sessions[id].configuration.category
      let allowed = policy.table.devices.hardware.aggregatedIOCategories
      guard allowed.contains(category) else {
        throw refusal(
          SessionError(
            .incompatibleCategory,
            "setAggregatedIOPreference needs category "
              + quotedList(Category.allCases.filter(allowed.contains).map(\.name))
              + "; \(describe(id)) is not"),
          because: explaining ? .table("devices.json", "hardware.aggregatedIOCategories") : nil)
      }
      guard !sessions[id].playing else {
        throw refusal(
          SessionError(
            .isBusy,
            "Cannot change the aggregated I/O preference of \(describe(id)) while its I/O runs; "
              + "stop it first"),
          because: explaining ? .fixed("§8") : nil)
      }
      sessions[id].preferences.aggregatedIO = aggregated
    case .echoCancelledInput(let on):
      let rules = policy.table.devices.hardware.echoCancelledInput
      let configuration = sessions[id].configuration
      guard !on || rules.accepts(configuration.category, configuration.mode) else {
        let accepted = Category.allCases.compactMap { category -> String? in
          guard let modes = rules.modes[category] else { return nil }
          let names = Mode.allCases.filter(modes.contains).map(\.name)
          return "\(category.name) with mode \(names.joined(separator: " or "))"
        }
        throw refusal(
          SessionError(
            .incompatibleCategory,
            "setPrefersEchoCancelledInput(true) needs "
              + accepted.joined(separator: ", or ") + "; \(describe(id)) is not"),
          because: explaining ? .table("devices.json", "hardware.echoCancelledInput.modes") : nil)
      }
      sessions[id].prefersEchoCancelledInput = on
    }
  }

  /// `isEchoCancelledInputAvailable` (iOS 18.2): the session's current input is one that can be
  /// echo-cancelled (`devices.json` `hardware.echoCancelledInput.inputPorts`), so a route change
  /// may take it away.
  func echoCancelledInputAvailable(_ id: Int) -> Bool {
    guard let input = sessions[id].route.inputs.first else { return false }
    return policy.table.devices.hardware.echoCancelledInput.inputPorts.contains(input.portType)
  }

  /// `isEchoCancelledInputEnabled` (iOS 18.2): preferred, available, and the session active in
  /// a configuration that may prefer it.
  func echoCancelledInputEnabled(_ id: Int) -> Bool {
    let session = sessions[id]
    let rules = policy.table.devices.hardware.echoCancelledInput
    return session.prefersEchoCancelledInput && session.active
      && rules.accepts(session.configuration.category, session.configuration.mode)
      && echoCancelledInputAvailable(id)
  }

  /// A preferred channel count must suit the category and the current route (§8, §13.5).
  private mutating func checkChannels(
    _ id: Int, _ count: Int, _ direction: PortDirection
  ) throws(SessionError) {
    let rules = policy.rules(for: sessions[id].configuration.category)
    let what = direction == .input ? "input" : "output"
    guard direction == .input ? rules.hasInput : rules.hasOutput else {
      throw refusal(
        SessionError(
          .incompatibleCategory,
          "Cannot set the preferred \(what) channels of \(describe(id)): its category has no \(what)"
        ),
        because: explaining ? .fixed("§1.4") : nil)
    }
    let maximum = maximumChannels(id, direction)
    guard (1...max(maximum, 1)).contains(count), maximum > 0 else {
      throw refusal(
        SessionError(
          .badParam,
          maximum == 0
            ? "\(describe(id)) has no \(what) route; connect one first"
            : "\(count) \(what) channels: the current route takes 1 to \(maximum)"),
        because: explaining ? .table("devices.json", "hardware.channels") : nil)
    }
  }

  /// `maximumInputNumberOfChannels` / `maximumOutputNumberOfChannels` of the current route.
  func maximumChannels(_ id: Int, _ direction: PortDirection) -> Int {
    let hardware = policy.table.devices.hardware
    if direction == .input { return sessions[id].route.inputs.first.map(inputChannels) ?? 0 }
    return sessions[id].route.outputs.first.map { hardware.channels(of: $0.portType) } ?? 0
  }

  /// `setInputGain(_:)`: out-of-range values are clamped; the gain belongs to the input source.
  mutating func setInputGain(_ id: Int, _ gain: Double) throws(SessionError) {
    try requireMediaServices("set the input gain of \(describe(id))")
    guard gain.isFinite else {
      throw SessionError(.badParam, "the input gain is a number from 0.0 to 1.0, not \(gain)")
    }
    guard let input = sessions[id].route.inputs.first else {
      throw refusal(
        SessionError(
          .badParam, "\(describe(id)) has no input, so no input gain (isInputGainSettable is false)"
        ),
        because: explaining ? .fixed("§8") : nil)
    }
    inputGains[input.uid] = min(max(gain, 0), 1)
  }

  /// `setInputDataSource(_:)`: another data source of the session's input is a
  /// `routeConfigurationChange` for every session routed to that input (§13.5).
  mutating func setDataSource(_ id: Int, _ name: String) throws(SessionError) {
    try requireMediaServices("select a data source of \(describe(id))")
    let (input, source) = try offeredDataSource(id, name)
    guard dataSource(of: input) != source.name else { return }
    dataSources[input.uid] = source.name
    reconfigure(input)
  }

  /// `setPreferredPolarPattern(_:)` of a data source of the session's input: a pattern it does
  /// not support is `badParam`; changing the selected source's pattern is a
  /// `routeConfigurationChange` for every session routed to that input (§7.1, §13.5).
  mutating func setPolarPattern(_ id: Int, _ name: String, _ pattern: PolarPattern?)
    throws(SessionError)
  {
    try requireMediaServices("set the polar pattern of \(describe(id))")
    let (input, source) = try offeredDataSource(id, name)
    let hardware = policy.table.devices.hardware
    let supported = hardware.supportedPolarPatterns(source, on: input.portType)
    if let pattern, !supported.contains(pattern) {
      let valid =
        supported.isEmpty
        ? "it has no selectable polar pattern"
        : "it supports " + supported.map(\.name).joined(separator: ", ")
      let needs = hardware.channels(of: pattern)
      let unmet =
        source.polarPatterns.contains(pattern)
        ? " (\(pattern.name) needs \(needs) channels; \(input.portType.name) has "
          + "\(hardware.channels(of: input.portType)))" : ""
      throw refusal(
        SessionError(
          .badParam,
          "the data source '\(source.name)' of \(input.portType.name) cannot take the polar "
            + "pattern \(pattern.name): \(valid)\(unmet)"),
        because: explaining ? .table("devices.json", "hardware.dataSources") : nil)
    }
    let before = polarPattern(of: input, source)
    polarPatterns[input.uid, default: [:]][source.name] = pattern
    guard dataSource(of: input) == source.name, polarPattern(of: input, source) != before else {
      return
    }
    reconfigure(input)
  }

  /// The session's input and its data source `name`, or `badParam`.
  private mutating func offeredDataSource(_ id: Int, _ name: String) throws(SessionError) -> (
    PortDescription, DataSourceSpec
  ) {
    let input = sessions[id].route.inputs.first
    let offered = input.flatMap { policy.table.devices.hardware.dataSources[$0.portType] } ?? []
    guard let input, !offered.isEmpty else {
      throw refusal(
        SessionError(
          .badParam,
          input.map {
            "the input of '\(sessions[id].name)' is \($0.portType.name), which has no data sources"
          }
            ?? "\(describe(id)) has no input, so no data sources"),
        because: explaining ? .table("devices.json", "hardware.dataSources") : nil)
    }
    guard let source = offered.first(where: { $0.name == name }) else {
      throw refusal(
        SessionError(
          .badParam,
          "unknown data source '\(name)' of \(input.portType.name); valid: "
            + offered.map(\.name).joined(separator: ", ")),
        because: explaining ? .table("devices.json", "hardware.dataSources") : nil)
    }
    return (input, source)
  }

  /// The input's configuration changed (data source or polar pattern): a
  /// `routeConfigurationChange` for every session routed to it, whose channel counts follow.
  private mutating func reconfigure(_ input: PortDescription) {
    routeReason = .routeConfigurationChange
    for other in sessions.indices
    where sessions[other].alive && sessions[other].route.inputs.contains(input) {
      forcedRouteNotice.insert(other)
      mark(other, Dirty.route)
    }
  }

  /// The selected data source of an input port, if it has data sources.
  func dataSource(of port: PortDescription) -> String? {
    guard let offered = policy.table.devices.hardware.dataSources[port.portType] else {
      return nil
    }
    return dataSources[port.uid] ?? offered.first?.name
  }

  /// The selected polar pattern of a data source of an input: the preferred one, else the
  /// source's own; nil for a source without patterns.
  func polarPattern(of port: PortDescription, _ source: DataSourceSpec) -> PolarPattern? {
    let supported = policy.table.devices.hardware.supportedPolarPatterns(source, on: port.portType)
    if let preferred = polarPatterns[port.uid]?[source.name], supported.contains(preferred) {
      return preferred
    }
    if let own = source.polarPattern, supported.contains(own) { return own }
    return supported.first
  }

  /// The data sources of an input as a session reads them.
  func dataSourceStatuses(of port: PortDescription) -> [DataSourceStatus] {
    let hardware = policy.table.devices.hardware
    let selected = dataSource(of: port)
    return (hardware.dataSources[port.portType] ?? []).map { source in
      DataSourceStatus(
        name: source.name, location: source.location, orientation: source.orientation,
        supportedPolarPatterns: hardware.supportedPolarPatterns(source, on: port.portType),
        selectedPolarPattern: polarPattern(of: port, source),
        preferredPolarPattern: polarPatterns[port.uid]?[source.name],
        selected: source.name == selected)
    }
  }

  /// The channels an input carries: its port type's, or fewer, as its selected data source's
  /// polar pattern carries (`hardware.polarPatternChannels`: one but for stereo's two).
  func inputChannels(_ port: PortDescription) -> Int {
    let hardware = policy.table.devices.hardware
    let channels = hardware.channels(of: port.portType)
    guard let name = dataSource(of: port),
      let source = hardware.dataSources[port.portType]?.first(where: { $0.name == name }),
      let pattern = polarPattern(of: port, source)
    else { return channels }
    return min(channels, hardware.channels(of: pattern))
  }

  /// What the session reads of the hardware: the simulated hardware's values, with the
  /// preferences granted (clamped to what it supports) while the session is active.
  func hardwareValues(_ id: Int) -> HardwareValues {
    let hardware = policy.table.devices.hardware
    let session = sessions[id]
    let granted = session.active ? session.preferences : HardwarePreferences()
    let rules = policy.rules(for: session.configuration.category)
    func channels(_ direction: PortDirection, _ preferred: Int?) -> Int {
      guard direction == .input ? rules.hasInput : rules.hasOutput else { return 0 }
      let maximum = maximumChannels(id, direction)
      return min(preferred ?? maximum, maximum)
    }
    return HardwareValues(
      sampleRate: granted.sampleRate.map { clamp($0, hardware.sampleRates) } ?? hardware.sampleRate,
      ioBufferDuration: granted.ioBufferDuration.map { clamp($0, hardware.ioBufferDurations) }
        ?? hardware.ioBufferDuration,
      inputNumberOfChannels: channels(.input, granted.inputNumberOfChannels),
      outputNumberOfChannels: channels(.output, granted.outputNumberOfChannels))
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

  // MARK: Calls ringing, Siri, alarms

  /// A call rings: the sessions a call interrupts are interrupted, except, for a banner, those
  /// that prefer no interruptions from system alerts (§13.5); answering (`call begin`)
  /// interrupts those too, declining (`call end`) ends the ring's interruptions.
  mutating func ring(_ style: CallStyle) throws(SessionError) {
    guard !callActive, callRinging == nil else {
      throw SessionError(
        .badParam, callActive ? "a call is already in progress" : "a call is already ringing")
    }
    callRinging = style
    for id in sessionsACallInterrupts
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
      for id in activeSessions(matching: policy.table.interactions.siriInterrupts) {
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

  /// A system alarm sounds: like a non-mixable app, it interrupts the sessions
  /// `interactions.json` `alarm.interrupts` matches; dismissed, they get `ended` with
  /// shouldResume, as after a declined call (docs/avaudiosession.md §6.1).
  mutating func setAlarm(_ active: Bool) throws(SessionError) {
    guard active != alarmActive else {
      throw SessionError(
        .badParam, active ? "an alarm is already sounding" : "no alarm is sounding")
    }
    alarmActive = active
    let source: DecisionSource? =
      explaining ? .table("interactions.json", "alarm.interrupts") : nil
    if active {
      for id in activeSessions(matching: policy.table.interactions.alarmInterrupts) {
        interrupt(id, reason: .default, by: .alarm, because: source)
      }
    } else {
      let victims = alarmVictims
      alarmVictims = []
      endInterruptions(
        of: victims, by: .alarm, options: .shouldResume, deliver: true, because: source)
    }
  }

  /// The active sessions whose traits `matcher` matches, in id order: what a system actor
  /// (Siri, an alarm) interrupts.
  func activeSessions(matching matcher: SessionMatcher) -> [Int] {
    var matched: [Int] = []
    for classID in activeClasses where matcher.matches(classes.traits[classID]) {
      matched += activeByClass[classID]
    }
    return matched.sorted()
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
    guard sessions[id].followsPromptStyle else { return .normal }
    if siriActive { return .none }
    if callActive || callRinging != nil { return .short }
    return .normal
  }

  /// Marks the sessions whose prompt style can follow Siri and calls.
  mutating func markPromptStyleSessions() {
    for id in sessions.indices where sessions[id].alive && sessions[id].followsPromptStyle {
      mark(id, Dirty.disposition)
    }
  }
}

func clamp(_ value: Double, _ range: ClosedRange<Double>) -> Double {
  min(max(value, range.lowerBound), range.upperBound)
}
