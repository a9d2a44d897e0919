/// Which session each of other programs' streams belongs to, and the engine inputs that make app
/// sessions live like iOS apps (docs/apps.md "Sessions of other programs"). Pure: fed the
/// backend's ``ServerStreamEvent``s and the library clients' processes, it returns inputs for the
/// engine and keeps the ``StreamAssignment`` the backend needs.
///
/// - A stream tagged `audiosession.session=NAME` belongs to session NAME.
/// - A stream whose `application.process.id` is a library client's process belongs to that
///   client's session.
/// - Any other stream belongs to an **app session**: one per application, whichever of its
///   processes opens the stream. A Flatpak app (`pipewire.access.portal.app_id`) is one session
///   named after its app id, as is a service a rule names (``AppRules/Rule/app``: speech-dispatcher
///   and its output modules); otherwise the streams of one program (`application.id`, else
///   `application.process.binary`, else `application.name`, reduced to `[A-Za-z0-9_-]`) within
///   one process group (what a shell or launcher started as one job: a call whose recording
///   and playback come from two processes) are one session, `PROGRAM.PGID`; a stream without a
///   usable process id gets one session per server client (`PROGRAM.cN`).
///   Its configuration comes from the rule of ``AppRules`` that comes first among those its
///   streams match, with what is known of the whole app added to each stream's properties
///   (``AppFacts``: whether it plays, records, has a media player), and is decided again when
///   that changes; a stream the rules ignore, or none matches, belongs to no session.
/// - An app session is created with its first stream, activates (`setActive` + `startIO`) when
///   one of its streams plays (is not corked), deactivates with notifyOthersOnDeactivation when
///   none plays, and is removed when its last stream goes.
public struct AppStreamTracker: Sendable {
  /// An app session as the tracker knows it.
  public struct AppSession: Sendable, Hashable {
    public var name: String
    /// The process, when the streams report a usable one.
    public var pid: Int32?
    /// The streams' `application.name`.
    public var application: String?
    /// Active: one of its streams plays.
    public var playing: Bool
  }

  public let rules: AppRules
  public private(set) var streams: [ServerStream.Key: ServerStream] = [:]
  public private(set) var assignment = StreamAssignment()
  public private(set) var appSessions: [String: AppSession] = [:]
  /// Library clients' processes and the session each one's streams join.
  public private(set) var clientProcesses: [Int32: String] = [:]
  /// Sessions that, like app sessions, activate while one of their streams plays and deactivate
  /// when none does (`sessionctl run`'s): the tracker drives their activation, not their
  /// existence.
  public var followedSessions: Set<String> = []
  /// The followed sessions it has activated.
  public private(set) var activeFollowed: Set<String> = []
  /// What the rules made of each stream, kept while its properties and client stay the same: a
  /// change of one stream reconciles them all, and matching every property of every stream
  /// against the rules again would be most of the change's cost.
  private var ruled: [ServerStream.Key: Ruled] = [:]

  /// What is known of each process the streams name, as the host read it (the tracker reads
  /// nothing itself): handed in with the stream events (``learn(_:replacing:)``), so that a
  /// history of events replays the same decisions anywhere.
  public private(set) var processFacts: [Int32: ProcessFacts] = [:]

  /// Learns the group and lineage of processes (`replacing`: forgets the others, as a snapshot
  /// of the streams does).
  public mutating func learn(_ facts: [Int32: ProcessFacts], replacing: Bool = false) {
    if replacing {
      processFacts = facts
    } else {
      processFacts.merge(facts) { _, new in new }
    }
  }

  /// The pids a stream event names that the tracker knows nothing of: for a snapshot, every
  /// pid it names (the host reads them afresh).
  public func unknownProcesses(in event: ServerStreamEvent) -> [Int32] {
    switch event {
    case .removed: return []
    case .updated(let stream):
      guard let pid = Self.claimedProcess(stream.properties),
        processFacts[pid] == nil
      else { return [] }
      return [pid]
    case .snapshot(let all):
      return Array(Set(all.compactMap { Self.claimedProcess($0.properties) }))
        .sorted()
    }
  }

  /// The process, its parent, its parent's parent… as known (the process alone when not).
  public func lineage(of pid: Int32) -> [Int32] {
    processFacts[pid]?.lineage ?? [pid]
  }

  /// The media players on the session bus (MPRIS), as the host learns them: the processes that
  /// own their names and their desktop entries. An app one of them belongs to has a player
  /// (``AppFacts/hasPlayer``).
  public private(set) var playerProcesses: Set<Int32> = []
  public private(set) var playerDesktopEntries: Set<String> = []

  public init(rules: AppRules, processes: [Int32: ProcessFacts] = [:]) {
    self.rules = rules
    self.processFacts = processes
  }

  /// Sets the media players there are; apps whose rule changes with them are configured again.
  public mutating func setPlayers(processes: Set<Int32>, desktopEntries: Set<String>)
    -> [EngineInput]
  {
    guard processes != playerProcesses || desktopEntries != playerDesktopEntries else {
      return []
    }
    playerProcesses = processes
    playerDesktopEntries = desktopEntries
    return reconcile()
  }

  /// Whether one of the streams' programs owns a media player: its process or an ancestor owns
  /// the player's name, or its Flatpak app id is the player's desktop entry.
  private mutating func hasPlayer(_ appStreams: [ServerStream]) -> Bool {
    guard !playerProcesses.isEmpty || !playerDesktopEntries.isEmpty else { return false }
    for stream in appStreams {
      let properties = stream.properties
      if let appID = properties["pipewire.access.portal.app_id"],
        playerDesktopEntries.contains(appID)
      {
        return true
      }
      guard let pid = Self.claimedProcess(properties) else { continue }
      if lineage(of: pid).contains(where: playerProcesses.contains) { return true }
    }
    return false
  }

  /// The session names that may not be used for app sessions (the daemon's own sessions):
  /// an app whose name collides gets a suffix.
  public var reservedNames: Set<String> = []

  /// Feeds one event; returns the engine inputs it causes, in order.
  public mutating func apply(_ event: ServerStreamEvent) -> [EngineInput] {
    switch event {
    case .updated(let stream):
      streams[stream.key] = stream
    case .removed(let key):
      streams[key] = nil
      ruled[key] = nil
      keptNames[key] = nil
    case .snapshot(let all):
      streams = Dictionary(all.map { ($0.key, $0) }, uniquingKeysWith: { _, last in last })
      ruled = ruled.filter { streams[$0.key] != nil }
      keptNames = keptNames.filter { streams[$0.key] != nil }
    }
    return reconcile()
  }

  /// After a reset of the media services (the server restarted) every session is back in its
  /// initial state, inactive and unconfigured, while the programs whose streams survived (a
  /// native PipeWire client outlives pipewire-pulse) play on: their app sessions are
  /// configured and activated again, as new ones would be (docs/apps.md "Sessions of other
  /// programs").
  public mutating func mediaServicesWereReset() -> [EngineInput] {
    // The programs an app was held for died with the server: their sessions go now.
    releasing = Set(held.keys)
    held = [:]
    defer { releasing = [] }
    configured = [:]
    for name in appSessions.keys { appSessions[name]?.playing = false }
    activeFollowed = []
    return reconcile()
  }

  /// Sets the library clients' processes (pid → session); streams move accordingly.
  public mutating func setClientProcesses(_ processes: [Int32: String]) -> [EngineInput] {
    clientProcesses = processes
    return reconcile()
  }

  /// Whether an app that makes a call plays (its rule says `call`, docs/apps.md "Calls"): then
  /// a call goes on, as surely as when the server's call signal says so.
  public var callPlaying: Bool {
    appSessions.values.contains { session in
      session.playing && configured[session.name].map(Self.isCall) == true
    }
  }

  /// Whether a session has a stream that plays (for any session the tracker assigns streams to).
  public func isPlaying(_ session: String) -> Bool {
    assignment.sessions.contains { key, name in
      name == session && streams[key].map { !$0.isCorked } == true
    }
  }

  /// The processes (`application.process.id`) and Flatpak app ids of a session's streams: where
  /// its MPRIS players are looked for (docs/mpris.md).
  public func programs(of session: String) -> (processes: Set<Int32>, appIDs: Set<String>) {
    var processes: Set<Int32> = []
    var appIDs: Set<String> = []
    for (key, name) in assignment.sessions where name == session {
      guard let properties = streams[key]?.properties else { continue }
      if let pid = Self.claimedProcess(properties) { processes.insert(pid) }
      if let appID = properties["pipewire.access.portal.app_id"], !Self.isAbsurd(appID) {
        appIDs.insert(appID)
      }
    }
    return (processes, appIDs)
  }

  /// The inputs that resume the app and followed sessions whose interruption ended with
  /// shouldResume while their program kept playing (docs/apps.md "Sessions of other programs"):
  /// the program was muted, never paused, so its session activates and starts I/O again, and is
  /// arbitrated again. Without shouldResume it stays as it is, muted, until its program pauses
  /// and plays again, as an iOS app stays paused.
  public func resumptions(after notifications: [SessionNotification]) -> [EngineInput] {
    var names: [String] = []
    for notification in notifications {
      guard case .interruptionEnded(let options, _) = notification.event,
        options.contains(.shouldResume)
      else { continue }
      let name = notification.session
      guard appSessions[name] != nil || activeFollowed.contains(name), isPlaying(name),
        !names.contains(name)
      else { continue }
      names.append(name)
    }
    return names.flatMap { name -> [EngineInput] in
      [.setActive(session: name, active: true, options: []), .startIO(session: name)]
    }
  }

  // MARK: Deciding

  /// Where a stream belongs, before app sessions are created: a named session, an app session
  /// (its name, pid, application and configuration), or none.
  enum Placement: Hashable {
    case session(String)
    /// `silence`: the rule's ``AppRules/Rule/inactiveAfterSilence``; `byProgram`: named after
    /// its program and process group (not a rule's app or a Flatpak id).
    case app(
      name: String, pid: Int32?, application: String?, silence: Int? = nil,
      byProgram: Bool = false)
    case none
  }

  /// A stream's placement by the rules, with what it was decided from.
  struct Ruled: Sendable {
    var properties: [String: String]
    var clientIndex: UInt32?
    var placement: Placement
    /// The first rule the stream matches with its app's facts, for the facts last asked.
    var ruleIndex: (facts: AppFacts, index: Int?)?
  }

  mutating func placement(of stream: ServerStream) -> Placement {
    let properties = stream.properties
    if let tag = properties["audiosession.session"], Self.isSessionName(tag) {
      return .session(tag)
    }
    let pid = Self.claimedProcess(properties)
    if let pid, let session = clientProcesses[pid] { return .session(session) }
    if let known = ruled[stream.key], known.properties == properties,
      known.clientIndex == stream.clientIndex
    {
      return known.placement
    }
    let placement = ruledPlacement(of: stream, pid: pid)
    ruled[stream.key] = Ruled(
      properties: properties, clientIndex: stream.clientIndex, placement: placement)
    return placement
  }

  /// A stream's placement by the rules: an app session or none.
  private func ruledPlacement(of stream: ServerStream, pid: Int32?) -> Placement {
    let properties = stream.properties
    guard let rule = rules.rule(for: Self.matchable(stream, facts: AppFacts())),
      case .session = rule.outcome
    else {
      return .none
    }
    let application = properties["application.name"]
    // A rule that names the app: one session whichever process opens the stream.
    if let app = rule.app {
      return .app(
        name: app, pid: nil, application: application, silence: rule.inactiveAfterSilence)
    }
    if let appID = properties["pipewire.access.portal.app_id"].map(Self.reduced), !appID.isEmpty {
      return .app(
        name: String(appID.prefix(Command.maxSessionNameBytes)), pid: nil,
        application: application)
    }
    let program =
      [properties["application.id"], properties["application.process.binary"], application]
      .compactMap { $0.flatMap { Self.isAbsurd($0) ? nil : Self.reduced($0) } }
      .first { !$0.isEmpty } ?? "app"
    let suffix: String
    if let pid {
      // One job's processes are one app: the group's leader names it.
      suffix = "\(processFacts[pid]?.group ?? pid)"
    } else if let client = stream.clientIndex {
      suffix = "c\(client)"
    } else {
      suffix = "s\(stream.key.index)"
    }
    // Within the protocol's length (the reduced name is ASCII: a character is a byte).
    let kept = program.prefix(Command.maxSessionNameBytes - 1 - suffix.utf8.count)
    return .app(
      name: "\(kept).\(suffix)", pid: pid, application: application,
      silence: rule.inactiveAfterSilence, byProgram: true)
  }

  /// The name of the app of a stream of `program.SUFFIX` that calls itself something else
  /// than the first stream of that name did (two programs of one binary, run as one job:
  /// `pacat … application.name=barmusic &` then `pacat … application.name=barphone`):
  /// `program-application.SUFFIX`, within the protocol's length (docs/apps.md "Sessions of
  /// other programs").
  static func distinguished(_ name: String, by application: String) -> String {
    guard let dot = name.lastIndex(of: ".") else { return name }
    let program = name[..<dot]
    let suffix = name[name.index(after: dot)...]
    let room = Command.maxSessionNameBytes - program.utf8.count - suffix.utf8.count - 2
    guard room > 0 else { return name }
    return "\(program)-\(reduced(application).prefix(room)).\(suffix)"
  }

  /// The first rule a stream matches with its app's facts added to its properties (cached with
  /// the facts it was asked for).
  private mutating func ruleIndex(of stream: ServerStream, facts: AppFacts) -> Int? {
    if let cached = ruled[stream.key]?.ruleIndex, cached.facts == facts { return cached.index }
    let matched = Self.matchable(stream, facts: facts)
    let index = rules.rules.firstIndex { rule in
      guard case .session = rule.outcome else { return false }
      return rule.matches(matched)
    }
    ruled[stream.key]?.ruleIndex = (facts, index)
    return index
  }

  /// What the rules match of a stream: its properties, an absurd value left out (matched as
  /// absent: such a stream gets the rule for "none"), with its direction
  /// (`audiosession.direction`: playback, record) and its app's facts added (what the stream
  /// claims under their keys replaced).
  static func matchable(_ stream: ServerStream, facts: AppFacts) -> [String: String] {
    var matched = stream.properties.filter { !isAbsurd($0.value) }
    matched["audiosession.direction"] = stream.key.direction.rawValue
    facts.add(to: &matched)
    return matched
  }

  /// A property value that says nothing (empty or blank) or that no program means (a control
  /// character, more than 256 bytes): rules match it as absent (docs/apps.md "Rules").
  static func isAbsurd(_ value: String) -> Bool {
    value.utf8.count > 256
      || value.unicodeScalars.allSatisfy { $0.properties.isWhitespace }
      || value.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
  }

  /// Recomputes the assignment and app sessions from the streams; the inputs that bring the
  /// engine from the old app sessions to the new ones.
  mutating func reconcile() -> [EngineInput] {
    var newAssignment: [ServerStream.Key: String] = [:]
    var silenceLimits: [ServerStream.Key: Int] = [:]
    var wanted: [String: AppSession] = [:]
    var members: [String: [ServerStream]] = [:]
    // The application each program-named app was first seen calling itself.
    var calledBy: [String: String] = [:]
    for key in streams.keys.sorted() {
      guard let stream = streams[key] else { continue }
      switch placement(of: stream) {
      case .none:
        continue
      case .session(let name):
        newAssignment[key] = name
      case .app(var name, let pid, let application, let silence, let byProgram):
        if byProgram, let application, !Self.isAbsurd(application),
          !Self.reduced(application).isEmpty
        {
          // A stream keeps the name it was given while its program's name stays (an app is not
          // renamed in the middle of a call because another stream went).
          let base = name
          if let kept = keptNames[key], kept.base == base {
            name = kept.name
          } else if let first = calledBy[base], first != application {
            name = Self.distinguished(base, by: application)
          }
          if name == base, calledBy[base] == nil { calledBy[base] = application }
          keptNames[key] = (base, name)
        }
        if reservedNames.contains(name) { name += "-app" }
        newAssignment[key] = name
        if let silence, key.direction == .playback { silenceLimits[key] = silence }
        var session =
          wanted[name] ?? AppSession(name: name, pid: pid, application: application, playing: false)
        if !stream.isCorked { session.playing = true }
        wanted[name] = session
        members[name, default: []].append(stream)
      }
    }
    // Each app's configuration: the first rule any of its streams matches, with what is known
    // of the whole app (it plays and records at once: a call; it has a media player).
    var outcomes: [String: (outcome: AppRules.Outcome, rule: Int)] = [:]
    for (name, appStreams) in members {
      let facts = AppFacts(
        plays: appStreams.contains { $0.key.direction == .playback },
        records: appStreams.contains { $0.key.direction == .record },
        hasPlayer: hasPlayer(appStreams))
      let index = appStreams.compactMap { ruleIndex(of: $0, facts: facts) }.min()
      if let index { outcomes[name] = (rules.rules[index].outcome, index) }
    }
    holdApps(wanted: &wanted, members: members, outcomes: outcomes)
    var inputs: [EngineInput] = []
    // Gone or stopped first, so that a session that starts is not interrupted by one that is
    // leaving in the same change.
    for name in appSessions.keys.sorted() {
      guard let old = appSessions[name] else { continue }
      let new = wanted[name]
      if old.playing, new?.playing != true {
        inputs += [
          .stopIO(session: name),
          .setActive(session: name, active: false, options: .notifyOthersOnDeactivation),
        ]
      }
      if new == nil {
        inputs.append(.removeSession(name))
        configured[name] = nil
      }
    }
    // Calls last: whatever plays with them is active before a call begins, so the call
    // interrupts it, and no other app's activation comes between two calls found at once (a
    // new daemon's snapshot) to interrupt the first (docs/arbiter.md "Calls").
    var others: [String] = []
    var calls: [String] = []
    for name in wanted.keys.sorted() {
      let outcome = outcomes[name]?.outcome ?? configured[name]
      if outcome.map(Self.isCall) == true { calls.append(name) } else { others.append(name) }
    }
    for name in others + calls {
      guard let session = wanted[name] else { continue }
      let old = appSessions[name]
      if old == nil { inputs += [.createSession(name), .observed(session: name)] }
      var reactivate = false
      if let (outcome, _) = outcomes[name], configured[name] != outcome,
        case .session(let category, let mode, let options, let policy, let call) = outcome
      {
        // An app that plays as it is decided again (its media player appeared, it started or
        // stopped recording too) is configured while active and activated again: whoever its
        // new category interrupts is interrupted, and those it interrupted still wait for it.
        if configured[name] != nil, old?.playing == true, session.playing { reactivate = true }
        // Before its category: a call already in progress would refuse playAndRecord.
        if call, configured[name].map(Self.isCall) != true {
          inputs.append(.ownCall(session: name))
        }
        inputs.append(
          .setCategory(
            session: name, category: category, mode: mode, options: options, policy: policy))
        configured[name] = outcome
      }
      if session.playing, old?.playing != true {
        inputs += [.setActive(session: name, active: true, options: []), .startIO(session: name)]
      } else if reactivate {
        inputs.append(.setActive(session: name, active: true, options: []))
      }
    }
    appSessions = wanted
    assignment = StreamAssignment(newAssignment, silenceLimits: silenceLimits)
    return inputs + reconcileFollowed()
  }

  /// Keeps the app sessions whose rule holds them after their last stream
  /// (``AppRules/Rule/heldAfterLastStream``) as they were while the hold lasts, and lets a
  /// stream of theirs that came back end it (docs/apps.md "Speech").
  private mutating func holdApps(
    wanted: inout [String: AppSession], members: [String: [ServerStream]],
    outcomes: [String: (outcome: AppRules.Outcome, rule: Int)]
  ) {
    for (name, app) in appSessions where wanted[name] == nil && !releasing.contains(name) {
      guard let milliseconds = holds[name] else { continue }
      wanted[name] = app
      if held[name] == nil {
        lastHold += 1
        held[name] = lastHold
        holdsToTime.append(
          AppHold(session: name, generation: lastHold, milliseconds: milliseconds))
      }
    }
    held = held.filter { members[$0.key] == nil && wanted[$0.key] != nil }
    holds = holds.filter { wanted[$0.key] != nil && outcomes[$0.key] == nil }
    for (name, decided) in outcomes {
      holds[name] = rules.rules[decided.rule].heldAfterLastStream
    }
  }

  /// Ends the hold of an app session (``AppHold``) once its time is up: the session goes,
  /// unless a stream of its app came meanwhile (the hold ended then) or a newer hold began.
  public mutating func endHold(_ hold: AppHold) -> [EngineInput] {
    guard held[hold.session] == hold.generation else { return [] }
    held[hold.session] = nil
    releasing = [hold.session]
    defer { releasing = [] }
    return reconcile()
  }

  /// The holds begun since the last call, for the host to time (``endHold(_:)`` when each is up).
  public mutating func takeHolds() -> [AppHold] {
    defer { holdsToTime = [] }
    return holdsToTime
  }

  /// The app sessions held after their last stream, with the generation of their hold.
  public private(set) var held: [String: Int] = [:]
  /// The hold of each app session's rule, in milliseconds (only those that have one).
  private var holds: [String: Int] = [:]
  private var lastHold = 0
  private var holdsToTime: [AppHold] = []
  /// Sessions whose hold is over, let go by the reconciliation under way.
  private var releasing: Set<String> = []

  private static func isCall(_ outcome: AppRules.Outcome) -> Bool {
    if case .session(_, _, _, _, let call) = outcome { return call }
    return false
  }

  /// Activates the followed sessions that play and deactivates those that stopped.
  public mutating func reconcileFollowed() -> [EngineInput] {
    var inputs: [EngineInput] = []
    activeFollowed.formIntersection(followedSessions)
    for name in followedSessions.sorted() {
      let playing = isPlaying(name)
      if playing, !activeFollowed.contains(name) {
        activeFollowed.insert(name)
        inputs += [
          .observed(session: name), .setActive(session: name, active: true, options: []),
          .startIO(session: name),
        ]
      } else if !playing, activeFollowed.contains(name) {
        activeFollowed.remove(name)
        inputs += [
          .stopIO(session: name),
          .setActive(session: name, active: false, options: .notifyOthersOnDeactivation),
        ]
      }
    }
    return inputs
  }

  /// The name each program-named stream was given, with the name its program and group gave
  /// (``distinguished(_:by:)``).
  private var keptNames: [ServerStream.Key: (base: String, name: String)] = [:]

  /// The configuration each app session was last given (the rule its streams match first).
  private var configured: [String: AppRules.Outcome] = [:]

  // MARK: Properties

  /// The process a stream's properties name (`application.process.id`), unless its backend
  /// found that the claim does not check out (``ServerStream/unverifiedProcessKey``).
  static func claimedProcess(_ properties: [String: String]) -> Int32? {
    guard properties[ServerStream.unverifiedProcessKey] == nil else { return nil }
    return processID(properties["application.process.id"])
  }

  /// A positive process id that fits a pid_t; nil for anything else (missing, `abc`, `0`).
  static func processID(_ text: String?) -> Int32? {
    guard let text, let pid = Int32(text), pid > 0 else { return nil }
    return pid
  }

  /// `text` with every character outside `[A-Za-z0-9_-]` left out.
  static func reduced(_ text: String) -> String {
    String(
      String.UnicodeScalarView(
        text.unicodeScalars.filter {
          ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
            || $0 == "_" || $0 == "-"
        }))
  }

  /// A tag names a session when it is a plausible session name (non-empty, no spaces).
  static func isSessionName(_ text: String) -> Bool {
    !text.isEmpty && !text.unicodeScalars.contains { $0.properties.isWhitespace }
  }
}

/// What the host read of a process that plays or records: its process group (what a shell or
/// launcher started as one job; nil when unknown, and the process is then its own group) and
/// its lineage (the process, its parent, its parent's parent…: where a program's media player
/// is looked for, as a browser plays from a child of the process that owns its player).
/// An app session held after its last stream (``AppRules/Rule/heldAfterLastStream``): the host
/// times it and hands it back when `milliseconds` have passed (``AppStreamTracker/endHold(_:)``).
public struct AppHold: Sendable, Hashable {
  public var session: String
  /// Which hold of the session it is: one that came back and went again is held anew.
  public var generation: Int
  public var milliseconds: Int

  public init(session: String, generation: Int, milliseconds: Int) {
    self.session = session
    self.generation = generation
    self.milliseconds = milliseconds
  }
}

public struct ProcessFacts: Sendable, Hashable {
  public var group: Int32?
  public var lineage: [Int32]

  public init(group: Int32? = nil, lineage: [Int32]) {
    self.group = group
    self.lineage = lineage
  }
}

/// What is known of a whole app, beyond one stream's properties: added to each of its streams'
/// properties when the rules decide the app's configuration (docs/apps.md "Rules"), as
/// `audiosession.app.*` keys present only when true, so that a rule may require one (`"yes"`) or
/// its absence (`null`).
public struct AppFacts: Sendable, Hashable {
  /// The app has a playback stream.
  public var plays: Bool
  /// The app has a recording stream.
  public var records: Bool
  /// The app publishes a media player on the session bus (MPRIS).
  public var hasPlayer: Bool

  public init(plays: Bool = false, records: Bool = false, hasPlayer: Bool = false) {
    self.plays = plays
    self.records = records
    self.hasPlayer = hasPlayer
  }

  /// `audiosession.app.plays`: `yes` when the app plays.
  public static let playsKey = "audiosession.app.plays"
  /// `audiosession.app.records`: `yes` when the app records.
  public static let recordsKey = "audiosession.app.records"
  /// `audiosession.app.player`: `mpris` when the app has a media player.
  public static let playerKey = "audiosession.app.player"

  /// Adds the facts that hold to a stream's properties (replacing what the stream claims under
  /// the same keys: a program cannot claim them).
  func add(to properties: inout [String: String]) {
    properties[Self.playsKey] = plays ? "yes" : nil
    properties[Self.recordsKey] = records ? "yes" : nil
    properties[Self.playerKey] = hasPlayer ? "mpris" : nil
  }
}
