/// The arbitration engine: a pure state machine over many sessions, the devices and the system
/// state (call, silent switch, lock, built-in mic mute, media services). No I/O, no clocks, no
/// locks: the same inputs always give the same outcomes, so it can be replayed and property-tested.
///
/// Each input applies its direct effects (activation, interruptions, `ended`), then recomputes the
/// dispositions (route, ducked, muted, secondary-audio hint) of the sessions the input can have
/// affected, and posts a notification for every disposition that changed. Affected sessions are
/// found through indexes (active sessions by configuration class), so an input costs in proportion
/// to the sessions it affects, not to all sessions.
public struct Engine: Sendable {
  public let policy: Policy
  let router: Router

  var sessions: [SessionState] = []
  var ids: [String: Int] = [:]
  var devices: [Device]
  /// The device the user chose for every session, per direction (``EngineInput/deviceChosen``).
  var chosen: [PortDirection: String] = [:]
  /// The device chosen for the sessions of a long-form route-sharing policy, per direction: they
  /// share one route (docs/avaudiosession.md §13.3).
  var sharedChoice: [RouteSharingPolicy: [PortDirection: String]] = [:]
  /// The input gain set for an input port, by port UID (global for the input source, §8).
  var inputGains: [String: Double] = [:]
  /// The data source selected on an input port that has them, by port UID (§13.5).
  var dataSources: [String: String] = [:]
  /// The preferred polar pattern of each data source, by input port UID, then data source name.
  var polarPatterns: [String: [String: PolarPattern]] = [:]

  var callActive = false
  var silentSwitch = false
  var screenLocked = false
  var micMuted = false
  var mediaServicesLost = false
  /// A call that rings and is not answered yet (docs/avaudiosession.md §13.5).
  var callRinging: CallStyle?
  var siriActive = false
  /// A system alarm sounds (docs/avaudiosession.md §6.1).
  var alarmActive = false
  /// The system volume (`outputVolume`) and the record permission (docs/api-coverage.md).
  var outputVolume = 1.0
  var recordPermission = RecordPermission.granted
  /// The Now Playing app's session (§13.4); one at a time.
  var nowPlaying: Int?
  /// Sessions whose app muted their output (`setOutputMuted(_:)`, iOS 26).
  var outputMutedSessions: Set<Int> = []
  /// Sessions interrupted by the call (or its ring), by the mic mute, by Siri and by an alarm,
  /// awaiting
  /// `ended`.
  var callVictims: Set<Int> = []
  var micVictims: Set<Int> = []
  var siriVictims: Set<Int> = []
  var alarmVictims: Set<Int> = []

  // Indexes.
  var classes = ClassTable()
  /// Active sessions by configuration class.
  var activeByClass: [Set<Int>] = []
  /// Classes with at least one active session.
  var activeClasses: Set<Int> = []
  /// Active sessions whose I/O runs, by class: the holders a rule that names `playing` can
  /// touch (``interruptLosers(of:)`` looks at these only, not at every active session).
  var playingByClass: [Set<Int>] = []
  /// Active, playing, non-mixable sessions (they raise the secondary-audio hint for others).
  var playingNonMixable: Set<Int> = []
  var activePlayingCount = 0
  var routeCache: [RouteKey: RouteDescription] = [:]
  /// The policy never changes, so validation and traits are computed once per configuration.
  var validations: [SessionConfiguration: Result<ValidatedConfiguration, SessionError>] = [:]
  var traitsByConfiguration: [SessionConfiguration: KnownConfiguration] = [:]

  /// Whether the engine records where each decision came from (``EngineOutcome/sources``):
  /// off, it records nothing more (docs/contract.md "Seeing why").
  public var explaining = false

  // Per-input scratch.
  var dirtyList: [Int] = []
  var posted: [SessionNotification] = []
  /// Parallel to `posted` while explaining.
  var postedSources: [DecisionSource] = []
  /// Where the error being thrown came from, while explaining.
  var errorSource: DecisionSource?
  /// While explaining: the rules that last ducked and muted each session, for the unduck and
  /// unmute that lift them (kept out of the sessions' state, which the hot paths walk).
  var liftedBy: [Int: (duck: DecisionSource?, mute: DecisionSource?)] = [:]
  var routeReason: RouteChangeReason = .unknown
  var forcedRouteNotice: Set<Int> = []
  /// Per-session reasons that differ from the input's (an interruption ending an override).
  var routeReasonFor: [Int: RouteChangeReason] = [:]
  /// Active Now Playing sessions whose route a disconnect changed (§13.5): interrupted after
  /// the route changes are posted.
  var disconnectVictims: [Int] = []
  /// The available inputs (UIDs) of each recording session before a device came or went, for
  /// `availableInputsChange` (§6.5); empty otherwise.
  var inputsBefore: [(id: Int, uids: [String])] = []

  /// Creates an engine with the given devices connected (built-in first, then in connection order).
  public init(policy: Policy, devices: [Device]) {
    self.policy = policy
    self.router = Router(
      rules: policy.table.routes,
      speakerBeatsHeadphones: policy.switches.defaultToSpeakerOverridesHeadphones)
    self.devices = devices
  }

  /// Names of the live sessions, in creation order.
  public var sessionNames: [String] {
    sessions.lazy.filter(\.alive).map(\.name)
  }

  /// Handles one input and returns the call's result and the notifications it posted, in order.
  public mutating func handle(_ input: EngineInput) -> EngineOutcome {
    posted.removeAll(keepingCapacity: true)
    if explaining {
      postedSources.removeAll(keepingCapacity: true)
      errorSource = nil
    }
    dirtyList.removeAll(keepingCapacity: true)
    if !forcedRouteNotice.isEmpty { forcedRouteNotice.removeAll(keepingCapacity: true) }
    if !routeReasonFor.isEmpty { routeReasonFor.removeAll(keepingCapacity: true) }
    routeReason = .unknown
    var outcome = EngineOutcome()
    do throws(SessionError) {
      outcome.warnings = try apply(input)
    } catch {
      outcome.error = error
    }
    recompute()
    if !inputsBefore.isEmpty { postAvailableInputsChanges() }
    if !disconnectVictims.isEmpty { interruptDisconnected() }
    if !posted.isEmpty { outcome.notifications = posted }
    if explaining {
      outcome.sources = postedSources
      if outcome.error != nil { outcome.errorSource = errorSource ?? .fixed("§1.4") }
    }
    return outcome
  }

  private mutating func apply(_ input: EngineInput) throws(SessionError) -> [String] {
    switch input {
    case .createSession(let name):
      try createSession(name)
    case .removeSession(let name):
      try removeSession(try id(name))
    case .setCategory(let name, let category, let mode, let options, let policy):
      return try setCategory(try running(name), category, mode, options, policy)
    case .setMode(let name, let mode):
      return try setMode(try running(name), mode)
    case .setActive(let name, let active, let options):
      let session = try running(name)
      if active {
        try activate(session)
      } else {
        try deactivate(session, notifyOthers: options.contains(.notifyOthersOnDeactivation))
      }
    case .ownCall(let name):
      sessions[try running(name)].ownsCall = true
    case .observed(let name):
      sessions[try running(name)].observed = true
    case .startIO(let name):
      try startIO(try running(name))
    case .stopIO(let name):
      try stopIO(try running(name))
    case .overrideOutput(let name, let value):
      try overrideOutput(try running(name), value)
    case .setPreferredInput(let name, let uid):
      try setPreferredInput(try running(name), uid)
    case .deviceConnected(let device):
      try connect(device)
    case .deviceDisconnected(let uid):
      try disconnect(uid)
    case .deviceChosen(let uid, let direction, let session):
      var id: Int?
      if let session { id = try self.id(session) }
      try choose(uid, direction, for: id)
    case .call(let active):
      try setCall(active)
    case .callRing(let style):
      try ring(style)
    case .siri(let active):
      try setSiri(active)
    case .alarm(let active):
      try setAlarm(active)
    case .setAppState(let name, let state):
      try setAppState(try id(name), state)
    case .setNowPlaying(let name, let on):
      setNowPlaying(try id(name), on)
    case .setPreference(let name, let preference):
      try setPreference(try running(name), preference)
    case .setInputGain(let name, let gain):
      try setInputGain(try running(name), gain)
    case .setDataSource(let name, let source):
      try setDataSource(try running(name), source)
    case .setPolarPattern(let name, let source, let pattern):
      try setPolarPattern(try running(name), source, pattern)
    case .silentSwitch(let on):
      setSilencing(.silentSwitch, on)
    case .screenLock(let on):
      setSilencing(.screenLock, on)
    case .builtInMicMute(let on):
      setMicMute(on)
    case .systemVolume(let volume):
      guard volume.isFinite, (0...1).contains(volume) else {
        throw SessionError(.badParam, "the volume is a number from 0.0 to 1.0, not \(volume)")
      }
      let raised = volume > outputVolume
      outputVolume = volume
      if raised { unmuteOnVolumeIntent() }
    case .setOutputMuted(let name, let muted):
      try setOutputMuted(try running(name), muted)
    case .setInputMuted(let name, let muted):
      try setInputMuted(try running(name), muted)
    case .recordPermission(let permission):
      recordPermission = permission
    case .mediaServicesLost:
      loseMediaServices()
    case .mediaServicesReset:
      resetMediaServices()
    }
    return []
  }

  func id(_ name: String) throws(SessionError) -> Int {
    guard let id = ids[name] else {
      let known = sessionNames
      throw SessionError(
        .expiredSession,
        "no session named '\(name)'"
          + (known.isEmpty ? "" : "; sessions are: \(known.joined(separator: ", "))"))
    }
    return id
  }

  /// The session's id, for a call its app makes: a suspended app runs no code, so it makes none
  /// (docs/avaudiosession.md §13.4).
  func running(_ name: String) throws(SessionError) -> Int {
    let id = try id(name)
    guard sessions[id].appState != .suspended else {
      throw SessionError(
        .badParam,
        "the app of '\(name)' is suspended and runs no code; bring it back first "
          + "(sessionctl app-state background --session \(name), or foreground)")
    }
    return id
  }

  func requireMediaServices(_ what: @autoclosure () -> String) throws(SessionError) {
    if mediaServicesLost {
      throw SessionError(
        .mediaServicesFailed,
        "Cannot \(what()): media services were lost; wait for mediaServicesWereReset and configure again"
      )
    }
  }

  /// Describes a session for error messages: `'nav' (playback, duckOthers)`.
  func describe(_ id: Int) -> String {
    let session = sessions[id]
    let options = policy.effectiveOptions(session.configuration).names
    var parts = [session.configuration.category.name]
    if session.configuration.mode != .default { parts.append(session.configuration.mode.name) }
    parts += options
    return "'\(session.name)' (\(parts.joined(separator: ", ")))"
  }

  // MARK: Marking

  mutating func mark(_ id: Int, _ bits: UInt8) {
    if sessions[id].dirty == 0 { dirtyList.append(id) }
    sessions[id].dirty |= bits | Dirty.listed
  }

  /// `Policy.validate`, memoised.
  mutating func validate(_ configuration: SessionConfiguration) -> Result<
    ValidatedConfiguration, SessionError
  > {
    if let known = validations[configuration] { return known }
    let result = policy.validate(configuration)
    validations[configuration] = result
    return result
  }

  /// Where a configuration's refusal came from (while explaining).
  func validationSource(_ configuration: SessionConfiguration) -> DecisionSource {
    policy.validationSource(configuration) ?? .fixed("§4.3")
  }

  /// Gives a session a configuration with its traits and class.
  mutating func assign(_ id: Int, _ configuration: SessionConfiguration) {
    sessions[id].configuration = configuration
    let known: KnownConfiguration
    if let cached = traitsByConfiguration[configuration] {
      known = cached
    } else {
      let traits = policy.traits(configuration)
      known = KnownConfiguration(
        traits: traits, classID: classes.intern(traits),
        routing: policy.routingOptions(configuration),
        followsPromptStyle: policy.table.interactions.promptStyleSessions.matches(traits))
      traitsByConfiguration[configuration] = known
    }
    sessions[id].traits = known.traits
    sessions[id].classID = known.classID
    sessions[id].routingOptions = known.routing
    sessions[id].followsPromptStyle = known.followsPromptStyle
  }

  /// Posts a notification; `source` (evaluated only while explaining) says which rule decided.
  mutating func post(
    _ id: Int, _ event: SessionEvent, because source: DecisionSource?
  ) {
    posted.append(SessionNotification(session: sessions[id].name, event: event))
    if explaining { postedSources.append(source ?? .fixed("§6")) }
    // iOS 27 posts its lifecycle notifications beside the classic ones (§13.1).
    guard policy.switches.lifecycleNotifications else { return }
    let follower: SessionEvent
    switch event {
    case .interruptionBegan(let reason, _):
      follower = .didBecomeInactive(source: .system, reason: reason)
    case .interruptionEnded(let options, _):
      follower = .resumptionRecommendation(
        options.contains(.shouldResume) ? .shouldResume : .shouldNotResume)
    default: return
    }
    posted.append(SessionNotification(session: sessions[id].name, event: follower))
    if explaining { postedSources.append(switchSource("lifecycleNotifications")) }
  }

  /// An error to throw, with where its decision came from (recorded only while explaining).
  mutating func refusal(
    _ error: SessionError, because source: DecisionSource?
  ) -> SessionError {
    if explaining { errorSource = source }
    return error
  }

  /// A profile switch of the profile in force, as a decision's source.
  func switchSource(_ name: String) -> DecisionSource {
    .profileSwitch(name, profile: policy.profile.name)
  }
}

/// What a configuration means for the engine, computed once per configuration.
struct KnownConfiguration: Sendable {
  var traits: SessionTraits
  var classID: Int
  /// Effective plus mode-implied options (what routing looks at).
  var routing: CategoryOptions
  /// `interactions.json` `promptStyle.sessions` matches it.
  var followsPromptStyle: Bool
}

/// Interns session traits into small class numbers and caches the pairwise interaction actions.
struct ClassTable: Sendable {
  var traits: [SessionTraits] = []
  var index: [SessionTraits: Int] = [:]
  var actions: [Int: InteractionAction] = [:]
  /// The rule behind each cached action (`interactions.json` `rules[N]`).
  var rules: [Int: Int] = [:]

  mutating func intern(_ traits: SessionTraits) -> Int {
    if let id = index[traits] { return id }
    let id = self.traits.count
    self.traits.append(traits)
    index[traits] = id
    return id
  }

  /// What a session of class `incoming` being active does to one of class `holder`;
  /// `holderPlaying`: whether the holder's I/O runs (a rule's `"playing"`; a holder that would
  /// resume counts as playing).
  mutating func action(
    _ incoming: Int, _ holder: Int, _ policy: Policy, holderPlaying: Bool = true
  ) -> InteractionAction {
    let key = Self.key(incoming, holder, holderPlaying)
    if let cached = actions[key] { return cached }
    let (action, rule) = policy.interaction(
      incoming: traits[incoming], holder: traits[holder], holderPlaying: holderPlaying)
    actions[key] = action
    if let rule { rules[key] = rule }
    return action
  }

  /// Where the action of `incoming` on `holder` came from (after ``action(_:_:_:holderPlaying:)``).
  func source(_ incoming: Int, _ holder: Int, holderPlaying: Bool = true) -> DecisionSource {
    guard let rule = rules[Self.key(incoming, holder, holderPlaying)] else {
      return .fixed("§5.1 A3")
    }
    return .table("interactions.json", "rules[\(rule)]")
  }

  /// The lasting action of `incoming` on `holder`: a duck or a mute, held while both are
  /// active. A rule that names `playing` is an interruption's, decided at activation
  /// (``action(_:_:_:holderPlaying:)``); a holder it spared is treated as the rules after it say.
  mutating func lasting(_ incoming: Int, _ holder: Int, _ policy: Policy) -> InteractionAction {
    action(incoming, holder, policy, holderPlaying: false)
  }

  /// Where the lasting action of `incoming` on `holder` came from.
  func lastingSource(_ incoming: Int, _ holder: Int) -> DecisionSource {
    source(incoming, holder, holderPlaying: false)
  }

  private static func key(_ incoming: Int, _ holder: Int, _ holderPlaying: Bool) -> Int {
    incoming << 33 | holder << 1 | (holderPlaying ? 1 : 0)
  }
}
