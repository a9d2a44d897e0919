/// Who holds a list of interrupted sessions: whose `ended` they are waiting for.
enum InterruptionHolder: Hashable, Sendable {
  case session(Int)
  case call
  case micMute
  case siri
  case alarm
  /// An interruption that has no end: the app reactivates when it wants (a suspension, a route
  /// disconnect).
  case standing
}

/// One session inside the engine. Fields below "published" are what notifications have told the
/// app so far; the engine compares recomputed values with them to decide what to post.
struct SessionState: Sendable {
  var name: String
  var alive = true
  var configuration = SessionConfiguration.initial
  var traits: SessionTraits
  var classID: Int
  /// Effective plus mode-implied options (what routing looks at).
  var routingOptions: CategoryOptions = []
  /// Its `promptStyle` follows Siri and calls (`interactions.json` `promptStyle.sessions`).
  var followsPromptStyle = false
  var active = false
  var playing = false
  /// Its app makes the call (``EngineInput/ownCall(session:)``): the call neither blocks nor
  /// interrupts it.
  var ownsCall = false
  /// It stands for another program on the server (``EngineInput/observed(session:)``).
  var observed = false
  var interruptedBy: InterruptionHolder?
  /// Its private-listening output (headphones) went while it was interrupted (§9 item 3).
  var lostPrivateRoute = false
  var portOverride = PortOverride.none
  var preferredInput: String?
  /// The device the user chose for this session alone, per direction (a stream moved in a mixer).
  var chosen: [PortDirection: String] = [:]
  /// The state of the session's app (docs/avaudiosession.md §13.4).
  var appState = AppState.foreground
  /// The session was deactivated when its app was suspended: the app is told (`began`) when it
  /// runs again.
  var owesSuspensionNotice = false
  var prefersNoInterruptionsFromSystemAlerts = false
  /// `setPrefersEchoCancelledInput(_:)` (iOS 18.2).
  var prefersEchoCancelledInput = false
  /// `setOutputMuted(_:)` (iOS 26): the app muted its own output.
  var outputMuted = false
  /// `AVAudioApplication.setInputMuted(_:)` (iOS 17): the app muted its input.
  var inputMuted = false
  /// The input mute changed while the session was not an active recording session: its
  /// `inputMuteStateChange` waits until it is one (docs/avaudiosession.md §13.6).
  var owesInputMuteNotice = false
  /// nil: not set (an active Now Playing session is interrupted on a route disconnect).
  var prefersInterruptionOnRouteDisconnect: Bool?
  /// The hardware preferences as set (nil: not set).
  var preferences = HardwarePreferences()
  /// Sessions this one interrupted that have not had their `ended` yet.
  var victims: Set<Int> = []

  // Published dispositions.
  var duckedBy: Cause?
  var mutedBy: MuteReason?

  var hint = false
  var promptStyle = PromptStyle.normal
  /// The route without the speaker override (the override lasts until this changes, QA1754).
  var normalRoute = RouteDescription.empty
  var route = RouteDescription.empty

  // Bookkeeping for one input.
  var dirty: UInt8 = 0
  var pendingRoute: SessionEvent?

  init(name: String, traits: SessionTraits, classID: Int) {
    self.name = name
    self.traits = traits
    self.classID = classID
  }
}

/// Bits of ``SessionState/dirty``.
enum Dirty {
  static let disposition: UInt8 = 1
  static let route: UInt8 = 2
  /// In the dirty list for this input (keeps it listed once while its other bits are cleared).
  static let listed: UInt8 = 4
  /// The route change paused the player (the headphone pause).
  static let paused: UInt8 = 8
}
