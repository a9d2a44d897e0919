/// What a scenario's step does on its desktop, other than a command to the daemon
/// (docs/contract.md "Desktop steps"): another program or the user acts, the daemon is killed
/// and started again, or the step asks what is heard.
public import AudioSession

public enum DesktopAct: Sendable, Hashable {
  /// Another program, as `simulate program NAME start` describes it.
  public struct Program: Sendable, Hashable {
    /// The scenario's name for it (not a session: the daemon names its app session).
    public var name: String
    /// `application.process.binary`.
    public var binary: String
    /// `media.role`, if it sets one.
    public var role: String?
    /// `application.name`, if it sets one.
    public var appName: String?
    /// `application.process.id`; nil: 1000 plus the order the scenario first starts it in.
    public var pid: Int32?
    /// Its process group; nil: its own (its pid).
    public var group: Int32?
    /// It records too (a record stream beside its playback one: a browser's call page).
    public var records: Bool
    /// It keeps its stream uncorked while paused (Chromium does).
    public var neverCorks: Bool
    /// The bus name of its MPRIS player, if it has one.
    public var player: String?
    /// It starts paused: its player says Paused, and its stream is corked unless it never
    /// corks (a program found paused, or opened paused).
    public var paused: Bool
    /// Its streams' other properties (`application.id`, `pipewire.access.portal.app_id`…),
    /// besides the ones the options above set.
    public var properties: [String: String]

    public init(
      name: String, binary: String, role: String? = nil, appName: String? = nil,
      pid: Int32? = nil, group: Int32? = nil, records: Bool = false, neverCorks: Bool = false,
      player: String? = nil, paused: Bool = false, properties: [String: String] = [:]
    ) {
      self.name = name
      self.binary = binary
      self.role = role
      self.appName = appName
      self.pid = pid
      self.group = group
      self.records = records
      self.neverCorks = neverCorks
      self.player = player
      self.paused = paused
      self.properties = properties
    }

    /// The stream properties the options other than `--property` set: `--property` may not
    /// name them.
    public static let optionKeys = [
      "application.process.binary", "application.process.id", "application.name", "media.role",
    ]
  }

  /// What a program does of its own accord.
  public enum ProgramAct: String, Sendable, Hashable, CaseIterable {
    /// Pauses: corks its stream (unless it never corks), its player says Paused.
    case pause
    /// Plays again: uncorks, its player says Playing.
    case play
    /// Quits: its streams and its player go.
    case stop
    /// Corks its stream while its player still says Playing (mpv corks as it starts, for
    /// longer on a busy machine; a player that buffers); `play` uncorks it.
    case stall
    /// Closes its streams; its player stays (a player that lets its stream go while paused).
    case close
    /// Opens its streams again, as it plays or pauses.
    case open
  }

  /// The program starts: its streams appear, playing; its player, if any, says Playing.
  case start(Program)
  /// A program that runs acts.
  case program(String, ProgramAct)
  /// The user tells a program's player to play or pause (`playerctl`, media keys).
  case user(String, PlayerAction.Command)
  /// The daemon is killed and started again; `busFirst`: the new one hears the session bus
  /// before the audio server.
  case daemonRestart(busFirst: Bool)
  /// The daemon is killed, and not started again until ``daemonStart(busFirst:)``: meanwhile
  /// the programs and the user act with no daemon to see them (a desktop as a daemon finds it
  /// when it starts, `sessionctl record`).
  case daemonStop
  /// A daemon that was stopped starts: it learns the streams and players as they are now.
  case daemonStart(busFirst: Bool)
  /// Time passes, in milliseconds: every other step takes none (what the daemon times, such as
  /// an app session held after its last stream, ends meanwhile).
  case wait(milliseconds: Int)
  /// WirePlumber's role policy is turned on or off (``DesktopRolePolicy``): what it does to
  /// other programs' streams is heard on top of what the daemon does.
  case rolePolicy(Bool)
  /// What each program is heard at.
  case heard

  /// The program the act names, if it names one.
  public var programName: String? {
    switch self {
    case .start(let program): program.name
    case .program(let name, _), .user(let name, _): name
    case .daemonRestart, .daemonStop, .daemonStart, .wait, .rolePolicy, .heard: nil
    }
  }
}

/// What one step of a plan does: a command for the daemon (``Command``), or an act on its
/// desktop.
public enum ScenarioAction: Sendable, Hashable {
  case command(Command)
  case desktop(DesktopAct)

  /// The command, if the step is one.
  public var command: Command? {
    if case .command(let command) = self { command } else { nil }
  }
}
