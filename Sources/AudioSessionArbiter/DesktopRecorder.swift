public import AudioSession
import AudioSessionWire

/// What a daemon saw since it started, kept as the steps of a scenario that acts it out
/// (docs/contract.md "Recording what the daemon saw"): a value beside the ``Arbiter``, fed each
/// fact the arbiter was fed with the effects it returned and the time, and asked for the
/// ``DesktopRecording`` at any moment. It reads no clock and does no I/O: the shell hands it
/// everything, so a history of facts gives the same steps anywhere.
///
/// Other programs become `simulate program NAME start|pause|play|stop` (by process: its first
/// stream starts it, its last one gone stops it); a player's status the daemon did not command
/// is the user's (`simulate user NAME play|pause`, when the bus showed the command) or the
/// program's own act; what the players do because the daemon told them is left to the replay,
/// whose players obey as real ones do. Devices plugged and unplugged, the audio server lost and
/// back, a call the server signals with no program's stream to make it, and the sessions'
/// commands (the command line's and apps') are steps of their own; the time that passes
/// becomes `simulate wait` wherever an app session's hold is timed (docs/apps.md "Speech").
/// What the daemon found when it started (the state file's sessions, the programs playing) is
/// set up first, with the daemon stopped (`simulate daemon stop`), so that the replay's daemon
/// starts from the same desktop; what no step can act out is said in ``DesktopRecording/notes``.
///
/// Bounded: at most ``limit`` steps; older ones are folded into the desktop the replay starts
/// from, and the record says how many were cut.
public struct DesktopRecorder: Sendable {
  /// The most steps a daemon keeps (docs/contract.md "Recording what the daemon saw").
  public static let defaultLimit = 10_000
  /// How many decisions one step lists; the others are counted.
  public static let decisionsPerStep = 16
  /// How many notes are kept; the others are counted in the last one.
  static let noteLimit = 32

  public let limit: Int
  let setup: Arbiter.Setup
  let catalog: DeviceCatalog
  /// The stream properties a step carries besides those its options set (`--property`): the
  /// ones the app rules read, and those the arbiter names sessions by.
  let propertyKeys: Set<String>

  var entries: [Entry] = []
  var baseline = Baseline()
  var cut = 0
  var facts = 0
  var notes: [String] = []
  var notesLeftOut = 0
  /// Whether the facts of the daemon's start (its first snapshots) are still coming: the
  /// programs they show are set up before the daemon starts, not started in its sight.
  var starting = true
  var seenStreamsSnapshot = false
  var seenPlayersSnapshot = false
  /// Whether the players' watcher ended without a word (no session bus): the start waits for
  /// no players' snapshot (``playersEnded()``).
  var playersSilent = false
  /// The time of the first fact (milliseconds, the shell's monotonic clock) and of the current one.
  var origin: Int?
  var now = 0
  var clock = ReplayClock()

  // Other programs, as the server shows them and as the replay's desktop will have them.
  var liveStreams: [ServerStream.Key: ServerStream] = [:]
  var streamOwners: [ServerStream.Key: ProgramKey] = [:]
  var processFacts: [Int32: ProcessFacts] = [:]
  var livePlayers: [String: MediaPlayer] = [:]
  var programs: [ProgramKey: Program] = [:]
  var incarnations: [Int: Incarnation] = [:]
  var nextIncarnation = 0
  var names: [ProgramKey: String] = [:]
  var usedNames: Set<String> = []
  /// Whether the replay has a call the server signalled (`simulate call begin`).
  var signalledCall = false
  /// The players a previous daemon left paused (its journal), until this daemon plays one
  /// again, pauses it itself, or the user commands it: the replay's daemon never hears of them.
  var leftPaused: Set<String> = []
  /// A program whose record stream went at fact `fact` while its playback stream stayed: it
  /// is stopping if the next fact takes the playback stream too.
  var recordGone: (key: ProgramKey, fact: Int)?
  /// Whether the audio server is lost, and whether the streams it took were reported gone
  /// since (a snapshot).
  var serverDown = false
  var learntStreamsGone = false

  // Sessions: the clients', and the configurations of the sessions the replay sets up.
  var clientPIDs: [ConnectionID: Int32] = [:]
  var clientSessions: [ConnectionID: [String]] = [:]
  var configurations: [String: SessionConfiguration] = [:]

  // Devices: each one the daemon knew, by the backend's UID, and the preset it is replayed as.
  var devices: [String: Int] = [:]
  var devicePresets: [Int: String] = [:]
  var nextDevice = 0

  /// A recorder for a daemon whose arbiter was made with these devices and this setup, under
  /// `policy` (its device presets and app rules).
  public init(
    policy: Policy, devices present: [Device], setup: Arbiter.Setup, limit: Int = defaultLimit
  ) {
    self.limit = max(1, limit)
    self.setup = setup
    self.catalog = policy.table.devices
    var keys: Set<String> = ["application.id", "pipewire.access.portal.app_id"]
    for rule in policy.table.apps.rules { keys.formUnion(rule.match.keys) }
    keys.subtract(DesktopRecorder.optionKeys)
    self.propertyKeys = keys.filter { !$0.hasPrefix("audiosession.") }
    for device in present {
      guard let id = learnDevice(device) else { continue }
      baseline.devices.append(id)
    }
  }

  /// The properties a program's step sets through its own options (`--binary`, `--pid`,
  /// `--app-name`, `--role`).
  static let optionKeys: Set<String> = [
    "application.process.binary", "application.process.id", "application.name", "media.role",
  ]

  /// Takes one fact the arbiter was fed, the effects it returned for it, and when it came (the
  /// shell's monotonic clock, in milliseconds).
  public mutating func record(_ event: ArbiterEvent, effects: [ArbiterEffect], at time: Int) {
    facts = facts.addingReportingOverflow(1).overflow ? Int.max : facts + 1
    let start = origin ?? time
    origin = start
    let (elapsed, overflow) = time.subtractingReportingOverflow(start)
    now = overflow ? now : max(now, elapsed)
    clock.pass(to: now)
    switch event {
    case .started(let start): started(start)
    case .connected(let id, let credentials): clientPIDs[id] = credentials?.pid
    case .disconnected(let id): disconnected(id)
    case .request(let request, let id, _, let performed):
      requested(request, from: id, performed: performed, effects: effects)
    case .unreadable: break
    case .backend(let input): backend(input, effects: effects)
    case .streams(let change, let processes): streams(change, processes: processes)
    case .players(let change): players(change)
    case .holdEnded(let hold):
      if clock.ending(hold) { flushWaits() }
    }
    for effect in effects {
      switch effect {
      case .player(let command, let bus):
        if command == .play, leftPaused.remove(bus) != nil, let key = program(withPlayer: bus) {
          // A previous daemon's pause this one undid: the replay's daemon, which starts
          // without that journal, sends no Play, so there the player plays of its own accord
          // and what follows is decided alike.
          act(key, .play)
        } else {
          if command == .pause { leftPaused.remove(bus) }
          obey(command, bus: bus)
        }
      case .timeHold(let hold): clock.started(hold)
      case .save(.set(let saved), _): configure(saved.name, saved.configuration)
      case .save(.remove(let name), _): configure(name, nil)
      default: continue
      }
    }
    decided(effects)
    endStartIfDone()
    if let gone = recordGone, gone.fact < facts {
      recordGone = nil
      if var program = programs[gone.key], !program.noted {
        noteDirections(program)
        program.noted = true
        programs[gone.key] = program
      }
    }
  }

  /// The record as it stands: the steps that set up what the replay starts from, then the
  /// daemon's own.
  public func recording() -> DesktopRecording {
    var notes = self.notes
    for key in programs.keys.sorted() {
      guard let program = programs[key], program.playerGone, !program.closed else { continue }
      notes.append(
        "the player of the program '\(name(of: program))' went while its streams stayed: the "
          + "replay's stays")
    }
    if notesLeftOut > 0 { notes.append("and \(notesLeftOut) more notes like these") }
    var rendering = Rendering(recorder: self)
    let setup = rendering.setupSteps()
    var steps = setup
    for entry in entries { steps.append(rendering.step(entry)) }
    return DesktopRecording(
      devices: rendering.initialPresets, steps: steps, setupSteps: setup.count, facts: facts,
      cut: cut, limit: limit, notes: notes)
  }

  // MARK: Steps

  /// Adds a step: the time owed to the replay first, as waits.
  mutating func emit(_ kind: Entry.Kind, comment: String? = nil) {
    starting = false
    flushWaits()
    append(Entry(kind: kind, comment: comment, at: now))
  }

  mutating func flushWaits() {
    for milliseconds in clock.flush() {
      starting = false
      append(
        Entry(
          kind: .command(session: nil, words: ["simulate", "wait", "\(milliseconds)ms"]), at: now))
    }
  }

  private mutating func append(_ entry: Entry) {
    entries.append(entry)
    // Trimmed in batches, so that a full record does not move every step for each new one.
    let slack = max(1, limit / 8)
    guard entries.count > limit + slack else { return }
    let dropped = entries.count - limit
    for entry in entries.prefix(dropped) { baseline.fold(entry.changes) }
    entries.removeFirst(dropped)
    let (sum, overflow) = cut.addingReportingOverflow(dropped)
    cut = overflow ? Int.max : sum
    baseline.decided = []
    baseline.decidedLeftOut = 0
    baseline.busFirst = false
    forgetIncarnations()
  }

  /// Forgets the programs that no kept step and nothing the replay starts with names.
  private mutating func forgetIncarnations() {
    var named = Set(baseline.programs.map(\.incarnation))
    for program in programs.values { named.insert(program.incarnation) }
    for entry in entries {
      if case .start(let incarnation) = entry.kind { named.insert(incarnation) }
    }
    incarnations = incarnations.filter { named.contains($0.key) }
  }

  /// Notes what the steps cannot act out (each sentence once).
  mutating func note(_ text: String) {
    guard !notes.contains(text) else { return }
    guard notes.count < Self.noteLimit else {
      notesLeftOut = notesLeftOut == Int.max ? Int.max : notesLeftOut + 1
      return
    }
    notes.append(text)
  }

  /// Records what a step changed of the desktop a replay would start from, for a cut.
  mutating func change(_ change: Baseline.Change) {
    // As it starts, the programs are set up as found: what the daemon then has them do, the
    // replay's daemon has them do too.
    if case .program = change, starting || entries.isEmpty { return }
    if entries.isEmpty {
      baseline.fold([change])
    } else {
      entries[entries.count - 1].changes.append(change)
    }
  }

  /// The decisions among a fact's effects, added to the last step (to the daemon's start while
  /// it starts).
  private mutating func decided(_ effects: [ArbiterEffect]) {
    var lines: [String] = []
    var more = 0
    func add(_ line: @autoclosure () -> String) {
      if lines.count < Self.decisionsPerStep { lines.append(line()) } else { more += 1 }
    }
    for effect in effects {
      switch effect {
      case .apply(let notifications, _):
        for notification in notifications {
          if case .player = notification.event { continue }
          add("\(notification.session) \(TranscriptText.event(notification.event))")
        }
      case .player(let command, let bus): add("player \(bus): \(command.method)")
      default: continue
      }
    }
    guard !lines.isEmpty || more > 0 else { return }
    if starting || entries.isEmpty {
      baseline.addDecided(lines, more: more)
    } else {
      entries[entries.count - 1].addDecided(lines, more: more)
    }
  }

  /// The players' watcher ended: the daemon has no session bus and will never hear a player
  /// (docs/mpris.md), so its start ends with the server's snapshot alone, and the programs that
  /// start after it are started in its sight, not set up as found.
  public mutating func playersEnded() {
    playersSilent = true
    endStartIfDone()
  }

  /// The daemon's start ends once the snapshots it waits for have come.
  private mutating func endStartIfDone() {
    guard starting else { return }
    let streams = seenStreamsSnapshot || !setup.backendReportsStreams
    let players = seenPlayersSnapshot || playersSilent || !setup.watchesPlayers
    if streams, players { starting = false }
  }
}
