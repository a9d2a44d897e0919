// Other programs' streams and players, as steps: what the server and the bus show, compared
// with what the replay's desktop will have (docs/contract.md "Recording what the daemon saw").
import AudioSession

extension DesktopRecorder {
  mutating func streams(_ event: ServerStreamEvent, processes: [Int32: ProcessFacts]) {
    var touched: Set<ProgramKey> = []
    switch event {
    case .updated(let stream):
      processFacts.merge(processes) { _, new in new }
      if let old = streamOwners[stream.key] { touched.insert(old) }
      liveStreams[stream.key] = stream
      let owner = Self.programKey(of: stream)
      streamOwners[stream.key] = owner
      touched.insert(owner)
    case .removed(let key):
      if let old = streamOwners.removeValue(forKey: key) { touched.insert(old) }
      liveStreams[key] = nil
    case .snapshot(let all):
      if serverDown { learntStreamsGone = true }
      processFacts = processes
      touched.formUnion(streamOwners.values)
      liveStreams = [:]
      streamOwners = [:]
      for stream in all {
        liveStreams[stream.key] = stream
        let owner = Self.programKey(of: stream)
        streamOwners[stream.key] = owner
        touched.insert(owner)
      }
      if !seenStreamsSnapshot {
        seenStreamsSnapshot = true
        if starting, !seenPlayersSnapshot { baseline.busFirst = false }
      }
    }
    for key in touched.sorted() { reconcile(key) }
  }

  /// The server died (`simulate media-services lost`): in the replay, the programs without a
  /// player die with it; the players' streams go with it, and they are closed there
  /// (`simulate program NAME close`), so that each opens them again when it does here, in the
  /// order it does (`open`), or never.
  mutating func serverLost() {
    for key in programs.keys.sorted() {
      guard var program = programs[key] else { continue }
      if program.status == nil {
        programs[key] = nil
        change(.program(incarnation: program.incarnation, nil))
      } else if !program.closed {
        program.closed = true
        programs[key] = program
        emit(.command(session: nil, words: ["simulate", "program", name(of: program), "close"]))
        change(.program(incarnation: program.incarnation, state(of: program)))
      }
    }
  }

  /// The library clients' processes changed: their streams are their sessions', not programs.
  mutating func clientsChanged() {
    var keys = Set(programs.keys)
    for key in streamOwners.values { keys.insert(key) }
    for key in keys.sorted() { reconcile(key) }
  }

  /// Brings the replay's program for `key` to what the server shows of it, with a step where
  /// it differs.
  mutating func reconcile(_ key: ProgramKey) {
    let streams = visibleStreams(of: key)
    guard var program = programs[key] else {
      if !streams.isEmpty { start(key, streams) }
      return
    }
    guard !streams.isEmpty else {
      if program.closed { return }
      inferNeverCorks(&program)
      let player = incarnations[program.incarnation]?.player
      if let player, livePlayers[player] != nil, !program.playerGone {
        // Its player stays on the bus: the program only let its streams go.
        program.closed = true
        programs[key] = program
        emit(.command(session: nil, words: ["simulate", "program", name(of: program), "close"]))
        change(.program(incarnation: program.incarnation, state(of: program)))
        return
      }
      stop(key)
      return
    }
    if program.closed {
      // One that opens its streams before it has done what it was told (the daemon told it
      // while the server was lost) opens them as the replay's, which has done it, does: its
      // own pause or play here would be news to the daemon, which heard its player say nothing
      // (a pause of its own plays what was paused for it); what it then does is obeying.
      program.closed = false
      program.liveCorked = predictedCork(program)
      programs[key] = program
      emit(.command(session: nil, words: ["simulate", "program", name(of: program), "open"]))
      change(.program(incarnation: program.incarnation, state(of: program)))
    }
    let corked = Self.corked(streams)
    checkDirections(key, &program, streams)
    let changed = corked != program.liveCorked
    program.liveCorked = corked
    programs[key] = program
    guard changed, corked != predictedCork(program), !program.obeying else { return }
    if !corked, !program.playing, let bus = incarnations[program.incarnation]?.player,
      livePlayers[bus].map({ $0.status != .playing }) == true
    {
      // Uncorked while its player says it is paused: it plays silence, as one that never
      // corks does.
      incarnations[program.incarnation]?.neverCorks = true
      return
    }
    if corked, !program.playing {
      // Paused in the replay, where it never corks: no step corks it.
      note(
        "the program '\(name(of: program))' corked its stream after it had paused without "
          + "corking it: the replay's plays silence on")
      return
    }
    if corked, program.playing, !starting, let bus = incarnations[program.incarnation]?.player,
      livePlayers[bus]?.status == .playing
    {
      // Corked while its player says Playing: buffering, not a pause (docs/mpris.md "A cork
      // while the player plays"); its uncork is its play.
      program.playing = false
      program.stalled = true
      programs[key] = program
      emit(.command(session: nil, words: ["simulate", "program", name(of: program), "stall"]))
      change(.program(incarnation: program.incarnation, state(of: program)))
      return
    }
    act(key, corked ? .pause : .play)
  }

  /// The replay's program has a playback stream, and a record stream beside it when it starts
  /// with `--records`: its start shows the playback stream, then the record one; its stop takes
  /// the record stream away, then the playback one. A program whose record stream comes in the
  /// fact right after its start records from the start; one whose record stream goes in the fact
  /// right before its stop is stopping; any other change of its streams' directions the replay
  /// cannot act out, and says so.
  mutating func checkDirections(
    _ key: ProgramKey, _ program: inout Program, _ streams: [ServerStream]
  ) {
    guard !program.noted, let incarnation = incarnations[program.incarnation] else { return }
    let records = streams.contains { $0.key.direction == .record }
    let plays = streams.contains { $0.key.direction == .playback }
    if plays, records == incarnation.records { return }
    if plays, records, program.startedAt == facts - 1, entries.last.map(\.isStart) == true {
      incarnations[program.incarnation]?.records = true
      return
    }
    if plays, !records, recordGone.map({ $0.key != key || $0.fact == facts }) ?? true {
      // Stopping, if the playback stream goes next.
      recordGone = (key, facts)
      return
    }
    noteDirections(program)
    program.noted = true
  }

  mutating func noteDirections(_ program: Program) {
    note(
      "the program '\(name(of: program))' changed which streams it has (a playback one, a "
        + "record one) while it ran: the replay's keeps the streams it started with")
  }

  /// A program's own pause or play, as the replay acts it out (its player's status with it).
  mutating func act(_ key: ProgramKey, _ act: PlayerAction.Command) {
    guard var program = programs[key] else { return }
    if act == .play { inferNeverCorks(&program) }
    program.playing = act == .play
    if program.status != nil { program.status = act == .play ? .playing : .paused }
    program.obeying = false
    program.stalled = false
    programs[key] = program
    if starting,
      let index = baseline.programs.firstIndex(where: { $0.incarnation == program.incarnation })
    {
      // Found so as the daemon started (its player's word came after its streams): set up so.
      baseline.programs[index].state.paused = act != .play
      if act == .pause, !program.liveCorked, program.status != nil {
        incarnations[program.incarnation]?.neverCorks = true
      }
      return
    }
    emit(.command(session: nil, words: ["simulate", "program", name(of: program), act.rawValue]))
    change(.program(incarnation: program.incarnation, state(of: program)))
  }

  /// The program quits: its streams and its player go.
  mutating func stop(_ key: ProgramKey) {
    guard let program = programs.removeValue(forKey: key) else { return }
    emit(.command(session: nil, words: ["simulate", "program", name(of: program), "stop"]))
    change(.program(incarnation: program.incarnation, nil))
  }

  func state(of program: Program) -> Baseline.ProgramState {
    Baseline.ProgramState(paused: !program.playing, closed: program.closed)
  }

  /// A paused program whose streams stayed uncorked all along, which the replay thought would
  /// cork, never corks (Chromium).
  mutating func inferNeverCorks(_ program: inout Program) {
    guard !program.playing, !program.stalled, !program.liveCorked, program.status != nil,
      incarnations[program.incarnation]?.neverCorks == false
    else { return }
    incarnations[program.incarnation]?.neverCorks = true
  }

  /// What the replay's program does with its streams as it is now.
  func predictedCork(_ program: Program) -> Bool {
    !program.playing && incarnations[program.incarnation]?.neverCorks != true
  }

  private mutating func start(_ key: ProgramKey, _ streams: [ServerStream]) {
    let first = streams.first { $0.key.direction == .playback } ?? streams[0]
    let properties = first.properties
    let pid: Int32
    switch key {
    case .process(let process): pid = process
    case .client(let index):
      pid = 4_194_305 + Int32(truncatingIfNeeded: index & 0xF_FFFF)
      note(
        "a stream of '\(properties["application.name"] ?? "a program")' names no process: the "
          + "replay gives it process \(pid), so its app session's name differs")
    }
    let binary =
      properties["application.process.binary"] ?? properties["application.name"] ?? "program"
    let name = programName(key, binary: binary)
    let bus = attachablePlayer(for: pid, appID: properties["pipewire.access.portal.app_id"])
    let player = bus.flatMap { livePlayers[$0] }
    let corked = Self.corked(streams)
    let playerPaused = player.map { $0.status != .playing } ?? false
    let paused = corked || playerPaused
    var extra: [String: String] = [:]
    for (key, value) in properties where propertyKeys.contains(key) { extra[key] = value }
    let group = processFacts[pid]?.group
    let incarnation = Incarnation(
      name: name, binary: binary, role: properties["media.role"],
      appName: properties["application.name"], pid: pid, group: group == pid ? nil : group,
      records: streams.contains { $0.key.direction == .record },
      neverCorks: playerPaused && !corked, player: bus, paused: paused, properties: extra)
    let number = nextIncarnation
    nextIncarnation += 1
    incarnations[number] = incarnation
    programs[key] = Program(
      incarnation: number, liveCorked: corked, playing: !paused,
      status: bus == nil ? nil : paused ? .paused : .playing, startedAt: facts)
    if starting {
      // Found as the daemon started: set up before it starts.
      baseline.programs.append((number, Baseline.ProgramState(paused: paused)))
    } else {
      emit(.start(incarnation: number))
      change(.program(incarnation: number, Baseline.ProgramState(paused: paused)))
    }
  }

  func name(of program: Program) -> String {
    incarnations[program.incarnation]?.name ?? "program"
  }

  /// The streams of a program the replay acts out: not those of a library client's process
  /// (they are its session's) nor those tagged for a session (`audiosession.session`).
  private func visibleStreams(of key: ProgramKey) -> [ServerStream] {
    if case .process(let pid) = key, clientProcesses.contains(pid) { return [] }
    return streamOwners.filter { $0.value == key }.keys.sorted().compactMap { stream in
      guard let value = liveStreams[stream], value.properties["audiosession.session"] == nil
      else { return nil }
      return value
    }
  }

  /// The processes of the library clients with a session.
  var clientProcesses: Set<Int32> {
    var pids: Set<Int32> = []
    for (id, sessions) in clientSessions where !sessions.isEmpty {
      if let pid = clientPIDs[id] { pids.insert(pid) }
    }
    return pids
  }

  /// Whether none of the streams plays (a program that only records: none records).
  static func corked(_ streams: [ServerStream]) -> Bool {
    let playback = streams.filter { $0.key.direction == .playback }
    return !(playback.isEmpty ? streams : playback).contains { !$0.isCorked }
  }

  static func programKey(of stream: ServerStream) -> ProgramKey {
    if stream.properties[ServerStream.unverifiedProcessKey] == nil,
      let text = stream.properties["application.process.id"], let pid = Int32(text), pid > 0
    {
      return .process(pid)
    }
    return .client(stream.clientIndex ?? stream.key.index)
  }

  /// The scenario's name of a program: its binary, made a valid name, and its process when
  /// another process took the name first.
  private mutating func programName(_ key: ProgramKey, binary: String) -> String {
    if let name = names[key] { return name }
    var base = String(
      String.UnicodeScalarView(
        binary.unicodeScalars.filter {
          ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)))
            || "_.-".unicodeScalars.contains($0)
        }
      ).prefix(40))
    while base.hasPrefix("-") { base.removeFirst() }
    if base.isEmpty { base = "program" }
    var name = base
    if usedNames.contains(name) {
      switch key {
      case .process(let pid): name = "\(base)-\(pid)"
      case .client(let index): name = "\(base)-c\(index)"
      }
    }
    var suffix = 2
    while usedNames.contains(name) {
      name = "\(base)-\(suffix)"
      suffix += 1
    }
    usedNames.insert(name)
    names[key] = name
    return name
  }
}
