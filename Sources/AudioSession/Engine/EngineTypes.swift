/// Everything the engine can be told: an app's call on its session, or a change in the system.
public enum EngineInput: Sendable, Hashable {
  /// Registers a session with the default configuration (soloAmbient, default, inactive).
  case createSession(String)
  /// Forgets a session, as when its app vanishes: it is deactivated first, and the sessions it
  /// interrupted get what the policy's `vanishedApp` says (default: `ended` with
  /// `shouldResume`, as if notifyOthersOnDeactivation were set).
  case removeSession(String)
  /// `setCategory(_:mode:options:)`; a nil mode keeps the current one
  /// (docs/avaudiosession.md §3.1).
  case setCategory(
    session: String, category: Category, mode: Mode?, options: CategoryOptions,
    policy: RouteSharingPolicy = .default)
  /// `setMode(_:)`: also clears the category options (docs/avaudiosession.md §3.1, F-745968).
  case setMode(session: String, mode: Mode)
  /// `setActive(_:options:)`.
  case setActive(session: String, active: Bool, options: SetActiveOptions)
  /// The session's player or recorder starts (I/O running). An inactive session is activated
  /// first, as iOS activates a session whose app starts playing or recording (the Audio Session
  /// Programming Guide); a session whose category records fails with `resourceNotAvailable`
  /// when no connected device has an input (docs/avaudiosession.md §11).
  case startIO(session: String)
  /// The session stands for another program the daemon watches on the server
  /// (``AppStreamTracker``): its streams are facts, so starting its I/O is never refused for
  /// input hardware the engine's devices do not list (it may record a monitor).
  case observed(session: String)
  /// The session's player or recorder stops.
  case stopIO(session: String)
  /// `overrideOutputAudioPort(_:)`.
  case overrideOutput(session: String, PortOverride)
  /// `setPreferredInput(_:)` by port UID; nil clears it.
  case setPreferredInput(session: String, uid: String?)
  case deviceConnected(Device)
  case deviceDisconnected(uid: String)
  /// The user chose a connected device for one direction: for every session (`session` nil: the
  /// system's default output or input changed, as with `pactl set-default-sink`) or for one
  /// session (its stream was moved in a mixer). The device becomes the preferred route in that
  /// direction of the sessions whose category can route to it; routes that change are announced
  /// with reason `override`, never with a pause. The choice lasts until a device with a port in
  /// that direction connects (last in wins again), the device goes, or media services reset; a
  /// choice for every session replaces the sessions' own choices (docs/engine.md).
  case deviceChosen(uid: String, direction: PortDirection, session: String?)
  /// A call starts (`true`: answering a ringing one) or ends (`false`: hanging up, or
  /// declining a call that only rang).
  case call(active: Bool)
  /// The session's app is what makes the phone call, now or when it starts: a VoIP program's
  /// call stream (`apps.json`, a rule with `"call": true`). As CallKit activates a VoIP app's
  /// own session for its call, the call does not block its category or its activation and does
  /// not interrupt it; it still interrupts every other session (docs/apps.md "Calls").
  case ownCall(session: String)
  /// A call rings, presented as `style` (docs/avaudiosession.md §13.5).
  case callRing(CallStyle)
  /// Siri starts listening (`true`) or goes away.
  case siri(active: Bool)
  /// A system alarm (the Clock app) sounds (`true`) or is dismissed (docs/avaudiosession.md §6.1).
  case alarm(active: Bool)
  /// The session's app goes to the foreground, the background, or is suspended (§13.4).
  case setAppState(session: String, AppState)
  /// The session's app becomes (or stops being) the Now Playing app; one app at a time is.
  case setNowPlaying(session: String, Bool)
  /// A preference the app sets (`setPrefers…(_:)`, `setPreferred…(_:)`).
  case setPreference(session: String, SessionPreference)
  /// `setInputGain(_:)`: clamped to 0…1, for the session's current input.
  case setInputGain(session: String, Double)
  /// `setInputDataSource(_:)` by name, on the session's current input.
  case setDataSource(session: String, String)
  /// `setPreferredPolarPattern(_:)` of a data source (by name) of the session's current input;
  /// nil clears the preference.
  case setPolarPattern(session: String, dataSource: String, PolarPattern?)
  case silentSwitch(on: Bool)
  case screenLock(on: Bool)
  case builtInMicMute(on: Bool)
  /// The system volume changes (the volume buttons, `simulate volume`), 0…1.
  case systemVolume(Double)
  /// The record permission changes (the user, in Settings; `simulate permission`).
  case recordPermission(RecordPermission)
  /// `setOutputMuted(_:)` (iOS 26): the app mutes (or unmutes) its own output; refused
  /// (`incompatibleCategory`) for playAndRecord outside mode default.
  case setOutputMuted(session: String, Bool)
  /// `AVAudioApplication.setInputMuted(_:)` (iOS 17): the app mutes (or unmutes) its input.
  case setInputMuted(session: String, Bool)
  case mediaServicesLost
  case mediaServicesReset
}

/// The cause of an interruption or a duck: another session, a phone call, or the system.
public enum Cause: Sendable, Hashable {
  case session(String)
  case call
  case siri
  /// A system alarm (the Clock app).
  case alarm
  case system

  /// The value of the transcript's `by` field.
  public var name: String {
    switch self {
    case .session(let name): name
    case .call: "call"
    case .siri: "siri"
    case .alarm: "alarm"
    case .system: "system"
    }
  }
}

/// A notification the engine posts to one session: AVAudioSession's, plus what iOS does silently.
public enum SessionEvent: Sendable, Hashable {
  case interruptionBegan(reason: InterruptionReason, by: Cause)
  case interruptionEnded(options: InterruptionOptions, by: Cause)
  case routeChange(reason: RouteChangeReason, previous: RouteDescription, current: RouteDescription)
  case silenceSecondaryAudioHint(SilenceSecondaryAudioHintType)
  case mediaServicesWereLost
  case mediaServicesWereReset
  case duck(by: Cause)
  case unduck
  case mute(reason: MuteReason)
  case unmute
  /// The session's player was paused by the system (headphones unplugged,
  /// docs/avaudiosession.md §7.7).
  case pause(reason: RouteChangeReason)
  /// The daemon sent the session's media player `Pause` or `Play` over MPRIS (docs/mpris.md):
  /// for app and `run` sessions only, never from the engine.
  case player(PlayerAction)
  /// The session's `promptStyle` changed (key-value observation made visible, §13.5).
  case promptStyle(PromptStyle)
  /// iOS 27's `didBecomeActiveNotification` (profile switch `lifecycleNotifications`, §13.1):
  /// the session's activation succeeded (a refused one posts nothing).
  case didBecomeActive
  /// iOS 27's `didBecomeInactiveNotification` (profile switch `lifecycleNotifications`,
  /// §13.1): the app or the system deactivated the session; `reason` when interrupted.
  case didBecomeInactive(source: DeactivationSource, reason: InterruptionReason?)
  /// iOS 27's `resumptionRecommendationNotification` (§13.1), after a system interruption ends.
  case resumptionRecommendation(ResumptionRecommendation)
  /// iOS 26's `outputMuteStateChangeNotification`: the session's own output mute changed
  /// (`setOutputMuted(_:)`, or the system unmuting a shortFormVideo session).
  case outputMuteStateChange(muted: Bool)
  /// iOS 26's `userIntentToUnmuteOutputNotification`: the user pressed volume up while the
  /// session's output was muted (docs/avaudiosession.md §3).
  case userIntentToUnmuteOutput
  /// iOS 17's `AVAudioApplication.inputMuteStateChangeNotification`: the app's own input mute
  /// changed (`setInputMuted(_:)`).
  case inputMuteStateChange(muted: Bool)
  /// iOS 26's `availableInputsChangeNotification`: the inputs a recording session may use
  /// (`availableInputs`) changed, as an input device came or went (docs/avaudiosession.md §6.5).
  case availableInputsChange
}

/// One posted notification.
public struct SessionNotification: Sendable, Hashable {
  public var session: String
  public var event: SessionEvent

  public init(session: String, event: SessionEvent) {
    self.session = session
    self.event = event
  }
}

/// What handling one input produced: the call's result, then the notifications in posting order.
public struct EngineOutcome: Sendable, Hashable {
  /// nil on success; the call's error otherwise (the state may still have changed: isBusy).
  public var error: SessionError?
  /// Advisory notes on a successful call (docs/avaudiosession.md §12 D4).
  public var warnings: [String]
  public var notifications: [SessionNotification]
  /// Where each notification's decision came from, parallel to ``notifications``, when the
  /// engine was explaining (``Engine/explaining``); empty otherwise.
  public var sources: [DecisionSource] = []
  /// Where the error's decision came from, when explaining.
  public var errorSource: DecisionSource?

  public init(
    error: SessionError? = nil, warnings: [String] = [], notifications: [SessionNotification] = []
  ) {
    self.error = error
    self.warnings = warnings
    self.notifications = notifications
  }
}

/// Who a session belongs to, as the daemon's `status` shows it (docs/apps.md "Owners"); the
/// engine knows no owners, so its own status leaves this out.
public struct SessionOwnership: Sendable, Hashable {
  /// `cli` (held by the daemon for the command line), `client` (a library client), `run`
  /// (`sessionctl run`) or `app` (another program on the media server).
  public var kind: String
  public var pid: Int32?
  /// The program's name: the client's `hello` name, or the streams' `application.name`.
  public var application: String?
  /// The program's MPRIS players (app and `run` sessions, docs/mpris.md).
  public var players: [MediaPlayer]

  public init(
    kind: String, pid: Int32? = nil, application: String? = nil, players: [MediaPlayer] = []
  ) {
    self.kind = kind
    self.pid = pid
    self.application = application
    self.players = players
  }
}

/// A session as `status` shows it.
public struct SessionStatus: Sendable, Hashable {
  public var name: String
  public var configuration: SessionConfiguration
  /// What `categoryOptions` reads back (effective options).
  public var options: CategoryOptions
  public var active: Bool
  public var playing: Bool
  public var interrupted: Bool
  public var ducked: Bool
  public var muted: Bool
  public var route: RouteDescription
  public var portOverride: PortOverride
  public var preferredInput: String?
  /// `secondaryAudioShouldBeSilencedHint`.
  public var secondaryAudioShouldBeSilencedHint: Bool
  /// `isOtherAudioPlaying`.
  public var isOtherAudioPlaying: Bool
  /// Set by the daemon in its `status` reply; nil from the engine (scenario transcripts).
  public var ownership: SessionOwnership? = nil
  /// The state of the session's app (docs/avaudiosession.md §13.4).
  public var appState: AppState = .foreground
  /// Whether the session's app is the Now Playing app.
  public var nowPlaying = false
  /// `isOutputMuted` (iOS 26): the app muted its own output (`setOutputMuted(_:)`).
  public var outputMuted = false
  /// `AVAudioApplication.isInputMuted` (iOS 17): the app muted its input (`setInputMuted(_:)`).
  public var inputMuted = false
  /// `availableInputs` (docs/avaudiosession.md §7.6): the inputs the session's category may
  /// use, in connection order; none for a category without input.
  public var availableInputs: [PortDescription] = []
  /// `inputDataSources`: the data sources of the current input, by name (docs/avaudiosession.md
  /// §13.5); empty when it has none, or there is no input.
  public var inputDataSources: [String] = []
  /// The data sources of the current input with their location, orientation and polar patterns
  /// (docs/avaudiosession.md §7.1), in the order of ``inputDataSources``.
  public var inputDataSourceDetails: [DataSourceStatus] = []
  /// `promptStyle` (§13.5).
  public var promptStyle: PromptStyle = .normal
  /// `prefersNoInterruptionsFromSystemAlerts` (false until set).
  public var prefersNoInterruptionsFromSystemAlerts = false
  /// `prefersInterruptionOnRouteDisconnect` as set; nil until set (iOS's default then applies:
  /// an active Now Playing session is interrupted).
  public var prefersInterruptionOnRouteDisconnect: Bool? = nil
  /// `prefersEchoCancelledInput` (iOS 18.2; false until set).
  public var prefersEchoCancelledInput = false
  /// `isEchoCancelledInputAvailable`: the current input can be echo-cancelled.
  public var echoCancelledInputAvailable = false
  /// `isEchoCancelledInputEnabled`: preferred, available, and the session active.
  public var echoCancelledInputEnabled = false
  /// What the session reads of the hardware.
  public var hardware = HardwareValues(
    sampleRate: 48000, ioBufferDuration: 0, inputNumberOfChannels: 0, outputNumberOfChannels: 0)
  /// The hardware preferences as set.
  public var preferences = HardwarePreferences()
  /// `inputGain` of the current input (nil: no input).
  public var inputGain: Double? = nil
  /// `inputDataSource`: the selected data source of the current input, if it has any.
  public var inputDataSource: String? = nil
  /// `selectedPolarPattern` of the selected data source, if it has patterns.
  public var inputPolarPattern: PolarPattern? = nil
  /// `maximumInputNumberOfChannels` / `maximumOutputNumberOfChannels` of the current route (0:
  /// no such route). Carried by the wire's `session` reply, not by transcripts.
  public var maximumInputNumberOfChannels = 0
  public var maximumOutputNumberOfChannels = 0
  /// What the session reads of the system: `outputVolume` and the record permission. Carried
  /// by the wire's `session` reply.
  public var outputVolume = 1.0
  public var recordPermission = RecordPermission.granted

  package init(
    name: String, configuration: SessionConfiguration, options: CategoryOptions, active: Bool,
    playing: Bool, interrupted: Bool, ducked: Bool, muted: Bool, route: RouteDescription,
    portOverride: PortOverride, preferredInput: String?, secondaryAudioShouldBeSilencedHint: Bool,
    isOtherAudioPlaying: Bool
  ) {
    self.name = name
    self.configuration = configuration
    self.options = options
    self.active = active
    self.playing = playing
    self.interrupted = interrupted
    self.ducked = ducked
    self.muted = muted
    self.route = route
    self.portOverride = portOverride
    self.preferredInput = preferredInput
    self.secondaryAudioShouldBeSilencedHint = secondaryAudioShouldBeSilencedHint
    self.isOtherAudioPlaying = isOtherAudioPlaying
  }
}

/// The whole state as `status` shows it.
public struct EngineStatus: Sendable, Hashable {
  /// In creation order.
  public var sessions: [SessionStatus]
  /// In connection order (built-in first).
  public var devices: [Device]
  public var callActive: Bool
  public var silentSwitch: Bool
  public var screenLocked: Bool
  public var builtInMicMuted: Bool
  public var mediaServicesAvailable: Bool
  /// The style of a call that rings and is not answered yet; nil when none rings.
  public var callRinging: CallStyle? = nil
  /// Whether Siri is listening.
  public var siriActive = false
  /// Whether a system alarm sounds.
  public var alarmActive = false
  /// The system volume, 0…1 (`outputVolume`).
  public var outputVolume = 1.0
  /// The record permission, the same for every app here.
  public var recordPermission = RecordPermission.granted
  /// The real media server's state, when the status comes from a daemon whose backend has one;
  /// the engine itself knows no server (nil).
  public var server: MediaServerStatus? = nil
  /// The daemon's state file, when the status comes from a daemon that keeps one; scenarios have
  /// none (nil).
  public var stateFile: StateFileStatus? = nil

  package init(
    sessions: [SessionStatus], devices: [Device], callActive: Bool, silentSwitch: Bool,
    screenLocked: Bool, builtInMicMuted: Bool, mediaServicesAvailable: Bool,
    callRinging: CallStyle? = nil, siriActive: Bool = false, alarmActive: Bool = false,
    outputVolume: Double = 1,
    recordPermission: RecordPermission = .granted, server: MediaServerStatus? = nil,
    stateFile: StateFileStatus? = nil
  ) {
    self.outputVolume = outputVolume
    self.recordPermission = recordPermission
    self.stateFile = stateFile
    self.callRinging = callRinging
    self.siriActive = siriActive
    self.alarmActive = alarmActive
    self.sessions = sessions
    self.devices = devices
    self.callActive = callActive
    self.silentSwitch = silentSwitch
    self.screenLocked = screenLocked
    self.builtInMicMuted = builtInMicMuted
    self.mediaServicesAvailable = mediaServicesAvailable
    self.server = server
  }
}
