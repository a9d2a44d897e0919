public import AudioSession

/// What a daemon saw since it started, as the steps of a scenario that acts it out
/// (docs/contract.md "Recording what the daemon saw"): ``DesktopRecorder`` makes it, the `record`
/// operation carries it (docs/protocol.md "Operations"), and `sessionctl record FILE` writes it
/// as a scenario file that `sessionctl scenario run` replays with no device.
public struct DesktopRecording: Sendable, Hashable {
  /// One step of the scenario, or a comment where a step could not be.
  public struct Step: Sendable, Hashable {
    /// The session the step's command acts on, written before it (`music activate`), if any.
    public var session: String?
    /// The step's words after the session (`simulate`, `program`, `mpv`, `start`, …); empty for
    /// a comment alone.
    public var words: [String]
    /// A sentence written above the step: a command that was refused, what could not be a step.
    public var comment: String?
    /// What the daemon decided after the facts the step stands for, in the transcript's words
    /// (`mpv.1000 interruption began (reason: default, by: call)`, `player
    /// org.mpris.MediaPlayer2.mpv: Pause`), the first ``DesktopRecorder/decisionsPerStep``.
    public var decided: [String]
    /// How many decisions more than ``decided`` lists.
    public var decidedLeftOut: Int
    /// When the daemon saw it: milliseconds after it started.
    public var at: Int

    public init(
      session: String? = nil, words: [String], comment: String? = nil, decided: [String] = [],
      decidedLeftOut: Int = 0, at: Int = 0
    ) {
      self.session = session
      self.words = words
      self.comment = comment
      self.decided = decided
      self.decidedLeftOut = decidedLeftOut
      self.at = at
    }
  }

  /// The daemon that recorded, for the file's header.
  public struct Daemon: Sendable, Hashable {
    /// The package's version (``PackageVersion/current``).
    public var version: String
    public var pid: Int32
    /// `pulse` or `simulated`.
    public var backend: String
    /// The policy profile in force.
    public var profile: String
    /// The media server, in `status`'s words (`PulseAudio server (unix:…)`), if it has one.
    public var server: String?
    /// When it started, and when it was asked for the record.
    public var started: WallTime
    public var recorded: WallTime

    public init(
      version: String, pid: Int32, backend: String, profile: String, server: String?,
      started: WallTime, recorded: WallTime
    ) {
      self.version = version
      self.pid = pid
      self.backend = backend
      self.profile = profile
      self.server = server
      self.started = started
      self.recorded = recorded
    }
  }

  /// Who recorded, filled in by the shell (nil: a recorder's own, in tests).
  public var daemon: Daemon?
  /// The device presets present when the replay starts (the scenario's `devices:`).
  public var devices: [String]
  public var steps: [Step]
  /// How many of the first steps set up what the daemon found when it started (or, once the
  /// record was cut, the desktop as it was then): the daemon's own decisions follow them.
  public var setupSteps: Int
  /// How many facts the daemon was fed since it started.
  public var facts: Int
  /// How many steps were left out at the start to keep the record within ``limit``.
  public var cut: Int
  /// The most steps the daemon keeps.
  public var limit: Int
  /// What the steps cannot replay, one sentence each: the replay may then decide otherwise
  /// than the daemon did.
  public var notes: [String]

  public init(
    daemon: Daemon? = nil, devices: [String], steps: [Step], setupSteps: Int = 0, facts: Int = 0,
    cut: Int = 0, limit: Int = DesktopRecorder.defaultLimit, notes: [String] = []
  ) {
    self.daemon = daemon
    self.devices = devices
    self.steps = steps
    self.setupSteps = setupSteps
    self.facts = facts
    self.cut = cut
    self.limit = limit
    self.notes = notes
  }

  /// How many of the steps are steps (the others are comments alone).
  public var stepCount: Int { steps.filter { !$0.words.isEmpty }.count }

  /// Whether the replay starts from what the daemon started from and acts out all it saw: the
  /// record was not cut, and nothing of it is beyond the steps.
  public var isExact: Bool { cut == 0 && notes.isEmpty }
}
