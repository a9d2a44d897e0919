/// The typed, validated contents of a `policies/` directory (see `policies/README.md`).
///
/// Built only by ``PolicyLoader``; every value here has been checked against the model's names.
/// Cells that the spec marks disputed (§12) refer to a profile switch and are resolved by
/// ``Policy`` for the selected ``Profile``.
public struct PolicyTable: Sendable {
  public var categories: [Category: CategoryRules]
  public var modes: [Mode: ModeRules]
  public var options: [CategoryOption: OptionRules]
  public var interactions: InteractionRules
  public var routes: RouteRules
  public var devices: DeviceCatalog
  /// Profiles by name; ``profileOrder`` keeps the file's order for listings.
  public var profiles: [String: Profile]
  public var profileOrder: [String]
  public var defaultProfile: String
  /// `apps.json`: how other programs' streams become sessions (empty without the file).
  public var apps: AppRules

  public init(
    categories: [Category: CategoryRules], modes: [Mode: ModeRules],
    options: [CategoryOption: OptionRules], interactions: InteractionRules, routes: RouteRules,
    devices: DeviceCatalog, profiles: [String: Profile], profileOrder: [String],
    defaultProfile: String, apps: AppRules = AppRules([])
  ) {
    self.apps = apps
    self.categories = categories
    self.modes = modes
    self.options = options
    self.interactions = interactions
    self.routes = routes
    self.devices = devices
    self.profiles = profiles
    self.profileOrder = profileOrder
    self.defaultProfile = defaultProfile
  }
}

/// A cell of the option-validity matrix (docs/avaudiosession.md §4.1).
public enum OptionCell: Sendable, Hashable {
  /// ✓: may be set explicitly.
  case allowed
  /// I: implicitly on; an explicit set is accepted unless the profile says otherwise (D8).
  case implied
  /// ✗: setting it fails with the profile's invalid-option error (D5).
  case forbidden
  /// Disputed: allowed when the named boolean profile switch is true, forbidden otherwise.
  case profileSwitch(String)
}

/// A cell of the mode-validity table (docs/avaudiosession.md §3).
public enum ModeCell: Sendable, Hashable {
  case allowed
  /// Documented restriction that iOS does not enforce in practice (D4): accepted with a warning
  /// unless the profile enforces advisory restrictions.
  case advisory
  case forbidden
  case profileSwitch(String)
}

/// Why a session's output is muted by the system.
public enum MuteReason: String, Sendable, Hashable, CaseIterable, Codable {
  case silentSwitch
  case screenLock
  /// Another session in a category that silences output (record) is active
  /// (docs/avaudiosession.md §2).
  case recording
}

/// What a category is and accepts (docs/avaudiosession.md §2, §4.1).
public struct CategoryRules: Sendable, Hashable {
  /// False for categories iOS no longer supports (audioProcessing); setting one fails.
  public var supported: Bool
  public var hasInput: Bool
  public var hasOutput: Bool
  /// Options that are on whether or not the app sets them, shown in read-back (ambient:
  /// mixWithOthers).
  public var impliedOptions: CategoryOptions
  /// Validity of every option with this category.
  public var options: [CategoryOption: OptionCell]
  /// Spec citation for the row, shown by `policy show`.
  public var source: String

  public init(
    supported: Bool, hasInput: Bool, hasOutput: Bool, impliedOptions: CategoryOptions,
    options: [CategoryOption: OptionCell], source: String
  ) {
    self.supported = supported
    self.hasInput = hasInput
    self.hasOutput = hasOutput
    self.impliedOptions = impliedOptions
    self.options = options
    self.source = source
  }
}

/// What a mode accepts and implies (docs/avaudiosession.md §3).
public struct ModeRules: Sendable, Hashable {
  /// Validity of this mode with every category.
  public var categories: [Category: ModeCell]
  /// Options the mode applies as behaviour (routing), hidden from read-back unless the profile's
  /// `readBackModeImpliedOptions` is on (D13). voiceChat: allowBluetoothHFP.
  public var impliedOptions: CategoryOptions
  /// Options that must be set with this mode (dualRoute: allowBluetoothHFP).
  public var requiredOptions: CategoryOptions
  public var source: String

  public init(
    categories: [Category: ModeCell], impliedOptions: CategoryOptions,
    requiredOptions: CategoryOptions, source: String
  ) {
    self.categories = categories
    self.impliedOptions = impliedOptions
    self.requiredOptions = requiredOptions
    self.source = source
  }
}

/// Per-option constraints beyond the category matrix (docs/avaudiosession.md §4.1, §4.2).
public struct OptionRules: Sendable, Hashable {
  /// Options this one turns on too (duckOthers → mixWithOthers).
  public var implies: CategoryOptions
  /// Options that must also be set (farFieldInput → allowBluetoothHFP).
  public var requires: CategoryOptions
  /// If non-nil, the only modes this option is valid with (bluetoothHighQualityRecording: default).
  public var modes: Set<Mode>?
  /// The only modes this option is valid with in a category (multiRoute: mixWithOthers in mode
  /// default, farFieldInput in dualRoute).
  public var categoryModes: [Category: Set<Mode>]
  public var source: String

  public init(
    implies: CategoryOptions, requires: CategoryOptions, modes: Set<Mode>?,
    categoryModes: [Category: Set<Mode>] = [:], source: String
  ) {
    self.implies = implies
    self.requires = requires
    self.modes = modes
    self.categoryModes = categoryModes
    self.source = source
  }
}

/// What one session's activation, or continued activity, does to another
/// (docs/avaudiosession.md §5.1 A2–A3).
public enum InteractionAction: String, Sendable, Hashable, CaseIterable, Codable {
  /// Both play.
  case mix
  /// The holder's volume is lowered while the incoming session is active.
  case duck
  /// The holder is interrupted (began) when the incoming session activates.
  case interrupt
  /// The holder's output is silenced while the incoming session is active.
  case mute
}

/// A condition on one side of an interaction rule. Every field that is set must match.
public struct SessionMatcher: Sendable, Hashable {
  public var categories: Set<Category>?
  public var modes: Set<Mode>?
  /// Matches the effective mixWithOthers bit (ambient implies it).
  public var mixable: Bool?
  /// All these effective options must be present.
  public var options: CategoryOptions?
  public var hasInput: Bool?
  public var hasOutput: Bool?
  /// Whether the session's I/O runs when the rule is applied. Only an interruption rule's holder
  /// may name it (the loader refuses it elsewhere): who is interrupted is decided the moment the
  /// incoming session activates, while ducks and mutes follow the sessions for as long as they
  /// are active.
  public var playing: Bool?

  public init(
    categories: Set<Category>? = nil, modes: Set<Mode>? = nil, mixable: Bool? = nil,
    options: CategoryOptions? = nil, hasInput: Bool? = nil, hasOutput: Bool? = nil,
    playing: Bool? = nil
  ) {
    self.categories = categories
    self.modes = modes
    self.mixable = mixable
    self.options = options
    self.hasInput = hasInput
    self.hasOutput = hasOutput
    self.playing = playing
  }
}

/// One row of the interaction rules: first matching row wins.
public struct InteractionRule: Sendable, Hashable {
  public var name: String
  public var incoming: SessionMatcher
  public var holder: SessionMatcher
  public var action: InteractionAction
  public var source: String

  public init(
    name: String, incoming: SessionMatcher, holder: SessionMatcher, action: InteractionAction,
    source: String
  ) {
    self.name = name
    self.incoming = incoming
    self.holder = holder
    self.action = action
    self.source = source
  }
}

/// Who interrupts, ducks, mutes or mixes with whom, and what the system actors do
/// (docs/avaudiosession.md §2, §5, §6).
public struct InteractionRules: Sendable, Hashable {
  /// Ordered; the last rule must match everything (the default action).
  public var rules: [InteractionRule]
  /// Categories whose activation fails with insufficientPriority during a call (A5).
  public var callBlocksActivation: Set<Category>
  /// Categories that setCategory may not switch to during a call (A6, §10).
  public var callBlocksSetCategory: Set<Category>
  /// Categories muted by the silent switch, and by the screen lock (docs/avaudiosession.md §2).
  public var silencedBy: [MuteReason: Set<Category>]
  /// Categories interrupted with builtInMicMuted when the built-in mic is muted (§4.4).
  public var micMuteInterrupts: Set<Category>
  /// Option that exempts a session from the mic-mute interruption.
  public var micMuteExemptOption: CategoryOptions
  /// What the sessions a vanished app interrupted are told (docs/engine.md "Rules, and where they come from"); a profile may
  /// override it (``ProfileSwitches/vanishedApp``), so ask ``Policy/vanishedApp``.
  public var vanishedApp: VanishedAppEnding
  /// Calls iOS refuses from the background, in order; the first that matches decides
  /// (docs/avaudiosession.md §5.1 A7–A8, §13.4).
  public var background: [BackgroundRefusal]
  /// Sessions Siri interrupts when it starts listening, and sessions whose activation fails with
  /// siriIsRecording while it listens (§1.4, §6.1).
  public var siriInterrupts: SessionMatcher
  public var siriRefusesActivation: SessionMatcher
  /// Sessions a system alarm interrupts when it sounds (§6.1: like a non-mixable app).
  public var alarmInterrupts: SessionMatcher
  /// Sessions whose `promptStyle` follows Siri and calls (§13.5); others read `normal`.
  public var promptStyleSessions: SessionMatcher

  public init(
    rules: [InteractionRule], callBlocksActivation: Set<Category>,
    callBlocksSetCategory: Set<Category>, silencedBy: [MuteReason: Set<Category>],
    micMuteInterrupts: Set<Category>, micMuteExemptOption: CategoryOptions,
    vanishedApp: VanishedAppEnding = .endedShouldResume, background: [BackgroundRefusal],
    siriInterrupts: SessionMatcher, siriRefusesActivation: SessionMatcher,
    alarmInterrupts: SessionMatcher, promptStyleSessions: SessionMatcher
  ) {
    self.alarmInterrupts = alarmInterrupts
    self.background = background
    self.siriInterrupts = siriInterrupts
    self.siriRefusesActivation = siriRefusesActivation
    self.promptStyleSessions = promptStyleSessions
    self.rules = rules
    self.callBlocksActivation = callBlocksActivation
    self.callBlocksSetCategory = callBlocksSetCategory
    self.silencedBy = silencedBy
    self.micMuteInterrupts = micMuteInterrupts
    self.micMuteExemptOption = micMuteExemptOption
    self.vanishedApp = vanishedApp
  }
}

/// The configurations a route-sharing policy allows (`routes.json` `routeSharing`).
public struct RouteSharingLimits: Sendable, Hashable {
  public var categories: Set<Category>
  public var modes: Set<Mode>
  /// Whether category options may be set with the policy.
  public var allowsOptions: Bool

  public init(categories: Set<Category>, modes: Set<Mode>, allowsOptions: Bool) {
    self.categories = categories
    self.modes = modes
    self.allowsOptions = allowsOptions
  }
}

/// A call iOS refuses from the background (`interactions.json` `background`).
public struct BackgroundRefusal: Sendable, Hashable {
  /// The calls a refusal may name.
  public enum Call: String, Sendable, Hashable, CaseIterable {
    /// `setActive(true)`.
    case activate
    /// Starting I/O (a player or recorder).
    case play
  }

  public var call: Call
  public var session: SessionMatcher
  /// The Now Playing app is exempt (A7).
  public var unlessNowPlaying: Bool
  public var error: SessionErrorCode
  public var source: String

  public init(
    call: Call, session: SessionMatcher, unlessNowPlaying: Bool, error: SessionErrorCode,
    source: String
  ) {
    self.call = call
    self.session = session
    self.unlessNowPlaying = unlessNowPlaying
    self.error = error
    self.source = source
  }
}

/// How one direction of a category's route is chosen (docs/avaudiosession.md §7.3).
public struct DirectionRoute: Sendable, Hashable {
  /// External port types this direction may use, always.
  public var ports: [PortType]
  /// Extra port types allowed when the session has the option (routing options: effective plus
  /// mode-implied).
  public var portsWithOption: [CategoryOption: [PortType]]
  /// The built-in port used when no eligible external port is connected; nil: none.
  public var builtIn: PortType?
  /// Replaces ``builtIn`` when the session has the option (defaultToSpeaker → builtInSpeaker).
  public var builtInWithOption: [CategoryOption: PortType]
  /// multiRoute: every eligible connected port at once instead of the last-in one; the built-in
  /// port only when no other is connected.
  public var all: Bool

  public init(
    ports: [PortType], portsWithOption: [CategoryOption: [PortType]], builtIn: PortType?,
    builtInWithOption: [CategoryOption: PortType], all: Bool
  ) {
    self.ports = ports
    self.portsWithOption = portsWithOption
    self.builtIn = builtIn
    self.builtInWithOption = builtInWithOption
    self.all = all
  }
}

/// Route preferences per category and the rules that cut across them (docs/avaudiosession.md §7).
public struct RouteRules: Sendable, Hashable {
  /// nil direction: the category has no route in that direction.
  public var outputs: [Category: DirectionRoute]
  public var inputs: [Category: DirectionRoute]
  /// Within one device offering several eligible ports, earlier wins (HFP over A2DP).
  public var devicePortPreference: [PortType]
  /// Port types whose input and output must come from the same device (HFP).
  public var coupledPorts: Set<PortType>
  /// Categories that may override the output to the speaker (§7.5).
  public var overrideCategories: Set<Category>
  /// Private-listening ports: losing one while playing pauses the session (§7.7).
  public var privateListeningPorts: Set<PortType>
  /// Pause only when the new route is built-in (true: unplugging headphones while a Bluetooth
  /// device is connected moves audio there and does not pause).
  public var pauseOnlyOnFallbackToBuiltIn: Bool
  /// Categories whose player the system pauses (AVPlayer-like playback); a call in
  /// playAndRecord just moves to the new route.
  public var pauseCategories: Set<Category>
  /// What each long-form policy allows (docs/avaudiosession.md §13.3); `default` allows all.
  public var routeSharing: [RouteSharingPolicy: RouteSharingLimits] = [:]
  /// Policies apps may not set (`independent`).
  public var refusedPolicies: Set<RouteSharingPolicy> = []
  /// Modes whose route is not their category's (dualRoute, docs/avaudiosession.md §3).
  public var modeRoutes: [Mode: ModeRoute] = [:]

  public init(
    outputs: [Category: DirectionRoute], inputs: [Category: DirectionRoute],
    devicePortPreference: [PortType], coupledPorts: Set<PortType>,
    overrideCategories: Set<Category>, privateListeningPorts: Set<PortType>,
    pauseOnlyOnFallbackToBuiltIn: Bool, pauseCategories: Set<Category>
  ) {
    self.outputs = outputs
    self.inputs = inputs
    self.devicePortPreference = devicePortPreference
    self.coupledPorts = coupledPorts
    self.overrideCategories = overrideCategories
    self.privateListeningPorts = privateListeningPorts
    self.pauseOnlyOnFallbackToBuiltIn = pauseOnlyOnFallbackToBuiltIn
    self.pauseCategories = pauseCategories
  }
}

/// The route of a mode that has its own (dualRoute): a primary route of built-in ports, always,
/// and a second route on the last connected device that offers both an input and an output of
/// the listed types (a device with only one direction is ignored).
public struct ModeRoute: Sendable, Hashable {
  /// The built-in output port of the primary route.
  public var output: PortType
  /// The built-in input port of the primary route.
  public var input: PortType
  /// Port types the second route may use.
  public var secondary: [PortType]
  public var source: String

  public init(output: PortType, input: PortType, secondary: [PortType], source: String) {
    self.output = output
    self.input = input
    self.secondary = secondary
    self.source = source
  }
}

/// One port a device preset offers.
public struct PresetPort: Sendable, Hashable {
  public var type: PortType
  public var direction: PortDirection
  public var name: String

  public init(type: PortType, direction: PortDirection, name: String) {
    self.type = type
    self.direction = direction
    self.name = name
  }
}

/// A kind of device `simulate plug` can attach (docs/contract.md "Device presets").
public struct DevicePreset: Sendable, Hashable {
  public var name: String
  /// Human-readable device name ("Wired Headphones").
  public var displayName: String
  public var ports: [PresetPort]
  /// Fixed UID for built-in devices ("builtin-speaker"); plugged devices get `<preset>-<n>`.
  public var uid: String?
  /// PulseAudio properties the pulse backend gives the simulated device, kept verbatim.
  public var pulseProperties: [String: String]

  public init(
    name: String, displayName: String, ports: [PresetPort], uid: String?,
    pulseProperties: [String: String]
  ) {
    self.name = name
    self.displayName = displayName
    self.ports = ports
    self.uid = uid
    self.pulseProperties = pulseProperties
  }
}

/// The device presets and which of them are present at start.
public struct DeviceCatalog: Sendable, Hashable {
  /// Presets by name; ``presetOrder`` keeps the file's order for listings.
  public var presets: [String: DevicePreset]
  public var presetOrder: [String]
  /// Presets present when a scenario names no `devices:`.
  public var defaultDevices: [String]
  /// The simulated hardware's values (docs/avaudiosession.md §8, §13.5).
  public var hardware: SimulatedHardware

  public init(
    presets: [String: DevicePreset], presetOrder: [String], defaultDevices: [String],
    hardware: SimulatedHardware = .unset
  ) {
    self.presets = presets
    self.presetOrder = presetOrder
    self.defaultDevices = defaultDevices
    self.hardware = hardware
  }
}

/// `devices.json` `hardware`: what the simulated hardware reports and grants.
public struct SimulatedHardware: Sendable, Hashable {
  public var sampleRate: Double
  /// The range a preferred sample rate is clamped to.
  public var sampleRates: ClosedRange<Double>
  public var ioBufferDuration: Double
  public var ioBufferDurations: ClosedRange<Double>
  /// Channels of each port type listed; the others have ``defaultChannels``.
  public var channels: [PortType: Int]
  public var defaultChannels: Int
  /// The data sources a port type offers, the first selected at start.
  public var dataSources: [PortType: [DataSourceSpec]]
  /// The channels each polar pattern needs of its port (`stereo`: 2), and carries while it is
  /// selected (docs/avaudiosession.md §13.5).
  public var polarPatternChannels: [PolarPattern: Int]
  /// The input gain of an input nobody set (not documented; this simulator's choice).
  public var inputGain: Double
  /// Categories whose aggregated I/O preference may be set.
  public var aggregatedIOCategories: Set<Category>
  /// Echo-cancelled input (iOS 18.2): the modes of each category that may prefer it, and the
  /// input port types that offer it (docs/avaudiosession.md §13.5).
  public var echoCancelledInput: EchoCancelledInputRules

  public init(
    sampleRate: Double, sampleRates: ClosedRange<Double>, ioBufferDuration: Double,
    ioBufferDurations: ClosedRange<Double>, channels: [PortType: Int], defaultChannels: Int,
    dataSources: [PortType: [DataSourceSpec]], polarPatternChannels: [PolarPattern: Int] = [:],
    inputGain: Double, aggregatedIOCategories: Set<Category>,
    echoCancelledInput: EchoCancelledInputRules = EchoCancelledInputRules()
  ) {
    self.polarPatternChannels = polarPatternChannels
    self.echoCancelledInput = echoCancelledInput
    self.sampleRate = sampleRate
    self.sampleRates = sampleRates
    self.ioBufferDuration = ioBufferDuration
    self.ioBufferDurations = ioBufferDurations
    self.channels = channels
    self.defaultChannels = defaultChannels
    self.dataSources = dataSources
    self.inputGain = inputGain
    self.aggregatedIOCategories = aggregatedIOCategories
  }

  /// The hardware of a catalog not read from `devices.json` (a backend before it starts, a
  /// test's presets): nothing, zero everywhere.
  public static let unset = SimulatedHardware(
    sampleRate: 0, sampleRates: 0...0, ioBufferDuration: 0, ioBufferDurations: 0...0,
    channels: [:], defaultChannels: 0, dataSources: [:], inputGain: 0, aggregatedIOCategories: [])

  /// The channels of a port type.
  public func channels(of type: PortType) -> Int { channels[type] ?? defaultChannels }

  /// The channels a polar pattern needs and carries (1 when `polarPatternChannels` does not
  /// list it).
  public func channels(of pattern: PolarPattern) -> Int { polarPatternChannels[pattern] ?? 1 }

  /// The patterns a data source of a port of `type` supports: its own, less those that need more
  /// channels than the port has ("stereo where the route has two channels").
  public func supportedPolarPatterns(_ source: DataSourceSpec, on type: PortType) -> [PolarPattern]
  {
    source.polarPatterns.filter { channels(of: $0) <= channels(of: type) }
  }
}

/// `devices.json` `hardware.echoCancelledInput` (docs/avaudiosession.md §13.5).
public struct EchoCancelledInputRules: Sendable, Hashable {
  /// The modes of each category with which `setPrefersEchoCancelledInput(true)` is accepted.
  public var modes: [Category: Set<Mode>]
  /// The input port types whose input can be echo-cancelled.
  public var inputPorts: Set<PortType>

  public init(modes: [Category: Set<Mode>] = [:], inputPorts: Set<PortType> = []) {
    self.modes = modes
    self.inputPorts = inputPorts
  }

  /// Whether a session configured so may prefer echo-cancelled input.
  public func accepts(_ category: Category, _ mode: Mode) -> Bool {
    modes[category]?.contains(mode) ?? false
  }
}

/// A named set of answers to the disputed points of docs/avaudiosession.md §12.
public struct Profile: Sendable, Hashable {
  public var name: String
  public var description: String
  /// Its switches, resolved: its own and those it inherits.
  public var switches: ProfileSwitches
  /// The profile it inherits the switches it does not set from (`"inherits"` in
  /// `profiles.json`), if any.
  public var inherits: String?

  public init(
    name: String, description: String, switches: ProfileSwitches, inherits: String? = nil
  ) {
    self.name = name
    self.description = description
    self.switches = switches
    self.inherits = inherits
  }
}

/// Every switch a profile must set (all are required in `profiles.json`), and the optional
/// overrides of values the tables give every profile.
public struct ProfileSwitches: Sendable, Hashable {
  /// D1: true = current DocC (speaker even with headphones); false = QA1754 (headphones win).
  public var defaultToSpeakerOverridesHeadphones: Bool
  /// D4: true = reject advisory mode restrictions with badParam; false = accept with a warning.
  public var enforceAdvisoryModes: Bool
  /// D5: the error code for an invalid option (badParam or unspecified).
  public var invalidOptionError: SessionErrorCode
  /// D6: deliver `ended` (shouldResume) to sessions interrupted by a call when it ends.
  public var endedAfterCall: Bool
  /// D7: deliver `ended` (without shouldResume) when the interrupter deactivates without
  /// notifyOthersOnDeactivation.
  public var endedWithoutNotifyOthers: Bool
  /// D8: reject explicit options that are implicitly on (iOS 26.5 playback + A2DP/AirPlay).
  public var rejectExplicitImpliedOptions: Bool
  /// D9: playback activation fails with insufficientPriority during a call too.
  public var callBlocksPlaybackActivation: Bool
  /// D13: read-back of categoryOptions includes the options a mode implies.
  public var readBackModeImpliedOptions: Bool
  /// §6.2: post categoryChange route changes to inactive sessions too.
  public var categoryChangeWhileInactive: Bool
  /// §9 item 3 (FB7721110), better than iOS: an interruption that ends with shouldResume ends without
  /// it for a session whose private-listening output (headphones) went during the interruption,
  /// so that its audio does not resume out loud on the speaker.
  public var noResumeAfterPrivateRouteLost: Bool
  /// §13.1, A9: deactivating with running I/O reports isBusy (the session is deactivated anyway),
  /// as before iOS 26; false: iOS 26's headers (no isBusy).
  public var deactivateWithRunningIOIsBusy: Bool
  /// §5.1 A12: the interruption an app gets after its session was deactivated on suspension has
  /// the reason appWasSuspended (iOS 14.5–15); false: `default` (no marker, iOS 16 on).
  public var suspensionReasonAppWasSuspended: Bool
  /// §13.1: post iOS 27's didBecomeInactive and resumptionRecommendation beside the classic
  /// interruption notifications.
  public var lifecycleNotifications: Bool
  /// Boolean switches referenced by disputed table cells (D2, D3, D10), by name.
  public var cellSwitches: [String: Bool]
  /// Overrides `interactions.json`'s `vanishedApp` for this profile; nil: the table's value.
  public var vanishedApp: VanishedAppEnding?

  public init(
    defaultToSpeakerOverridesHeadphones: Bool, enforceAdvisoryModes: Bool,
    invalidOptionError: SessionErrorCode, endedAfterCall: Bool, endedWithoutNotifyOthers: Bool,
    rejectExplicitImpliedOptions: Bool, callBlocksPlaybackActivation: Bool,
    readBackModeImpliedOptions: Bool, categoryChangeWhileInactive: Bool,
    noResumeAfterPrivateRouteLost: Bool = false, deactivateWithRunningIOIsBusy: Bool = false,
    suspensionReasonAppWasSuspended: Bool = false, lifecycleNotifications: Bool = false,
    cellSwitches: [String: Bool], vanishedApp: VanishedAppEnding? = nil
  ) {
    self.deactivateWithRunningIOIsBusy = deactivateWithRunningIOIsBusy
    self.suspensionReasonAppWasSuspended = suspensionReasonAppWasSuspended
    self.lifecycleNotifications = lifecycleNotifications
    self.defaultToSpeakerOverridesHeadphones = defaultToSpeakerOverridesHeadphones
    self.enforceAdvisoryModes = enforceAdvisoryModes
    self.invalidOptionError = invalidOptionError
    self.endedAfterCall = endedAfterCall
    self.endedWithoutNotifyOthers = endedWithoutNotifyOthers
    self.rejectExplicitImpliedOptions = rejectExplicitImpliedOptions
    self.callBlocksPlaybackActivation = callBlocksPlaybackActivation
    self.readBackModeImpliedOptions = readBackModeImpliedOptions
    self.categoryChangeWhileInactive = categoryChangeWhileInactive
    self.noResumeAfterPrivateRouteLost = noResumeAfterPrivateRouteLost
    self.cellSwitches = cellSwitches
    self.vanishedApp = vanishedApp
  }
}
