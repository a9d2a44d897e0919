import AudioSession
import AudioSessionSoak
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// What a run asks for (the command's options).
struct SoakSettings: Sendable {
  var servers: [SoakServer]
  var histories: Int
  var steps: Int
  var seconds: Double
  var seed: UInt64
  var output: String
  var json: Bool
  var quiet: Bool
  var verbose: Bool
  /// Histories run at once, each on its own stage.
  var jobs = 1
  var ear: SoakEar
  /// The one history to run (from 0), if only one.
  var only: Int?
  /// Half a second of the monitor per judgement.
  var windowSamples = 22_050
  /// How long the server and the daemon must look the same before the ear listens.
  var settleMilliseconds = 500
  /// How long a step may take to settle before it is judged anyway (and counted unsettled).
  var settleTimeout = 12.0
}

/// The figures of one server configuration.
struct SoakTally: Sendable {
  let server: SoakServer
  var histories = 0
  var steps = 0
  var agreeing = 0
  var unsettled = 0
  /// Steps whose first window disagreed and the second, a second later, agreed.
  var late = 0
  var failures: [String] = []
  var disagreements: [String] = []
  var seconds = 0.0

  var percent: Double { steps == 0 ? 0 : Double(agreeing) * 100 / Double(steps) }

  var json: JSONValue {
    .object([
      "server": .string(server.rawValue), "histories": .int(histories), "steps": .int(steps),
      "agreeing": .int(agreeing), "percent": .double((percent * 100).rounded() / 100),
      "unsettled": .int(unsettled), "late": .int(late),
      "seconds": .double((seconds * 10).rounded() / 10),
      "secondsPerStep": .double(steps == 0 ? 0 : (seconds / Double(steps) * 100).rounded() / 100),
      "disagreements": .array(disagreements.map { .string($0) }),
      "failures": .array(failures.map { .string($0) }),
    ])
  }
}

/// Runs histories on one server configuration: each is predicted by `sessionctl scenario run`,
/// then acted out by real programs on a fresh private server and judged by ear.
struct SoakRunner {
  let settings: SoakSettings
  let tools: SoakTools
  let material: SoakMaterial
  let work: String

  func say(_ line: String) {
    guard !settings.quiet else { return }
    if settings.json {
      FileHandle.standardError.write(Data((line + "\n").utf8))
    } else {
      FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
  }

  /// Runs up to ``SoakSettings/histories`` histories, ``SoakSettings/jobs`` at once (each on
  /// a stage of its own), until ``SoakSettings/seconds`` have passed.
  func run(_ server: SoakServer) -> SoakTally {
    let shared = SharedTally(SoakTally(server: server))
    let started = Date()
    let generator = SoakHistoryGenerator()
    say("== \(server.rawValue): \(server.description)")
    let done = DispatchGroup()
    for _ in 0..<max(settings.jobs, 1) {
      done.enter()
      Thread.detachNewThread {
        while soakInterrupted == 0, Date().timeIntervalSince(started) < settings.seconds,
          let next = shared.nextHistory(below: settings.only == nil ? settings.histories : 1)
        {
          let index = settings.only ?? next
          var history = generator.history(
            seed: settings.seed, index: index, steps: settings.steps)
          // WirePlumber's role policy acts beside the daemon: the scenario hears it too.
          if server == .pipewireRoles { history.setup = ["simulate role-policy on"] }
          var tally = SoakTally(server: server)
          runHistory(history, index: index, on: server, tally: &tally)
          tally.histories = 1
          shared.add(tally)
        }
        done.leave()
      }
    }
    done.wait()
    var tally = shared.value
    tally.seconds = Date().timeIntervalSince(started)
    say(
      "== \(server.rawValue): \(tally.agreeing) of \(tally.steps) steps agree "
        + "(\(String(format: "%.1f", tally.percent)) %) in \(tally.histories) histories, "
        + "\(String(format: "%.0f", tally.seconds)) s, "
        + "\(String(format: "%.2f", tally.steps == 0 ? 0 : tally.seconds / Double(tally.steps))) s a step"
    )
    return tally
  }

  func name(_ index: Int) -> String { "seed\(settings.seed)-history\(index + 1)" }

  /// The predicted levels of every `heard` of the history, by act.
  func predict(_ history: SoakHistory, file: String) throws -> [[(program: String, level: Double)]]
  {
    let result = Shell.run(
      tools.sessionctl,
      ["scenario", "run", file, "--json", "--policies", tools.policies],
      environment: ProcessInfo.processInfo.environment.merging(["AUDIOSESSION_AUTOSTART": "0"]) {
        $1
      }, seconds: 60)
    guard result.status == 0 else {
      throw SoakFailure("sessionctl scenario run \(file) failed: \(result.output)")
    }
    let predictions = SoakVerdict.predictions(fromTranscript: result.output)
    return try history.heardSteps.map { step in
      guard let levels = predictions[step] else {
        throw SoakFailure("the transcript of \(file) has no heard at step \(step)")
      }
      return levels
    }
  }

  func runHistory(
    _ history: SoakHistory, index: Int, on server: SoakServer, tally: inout SoakTally
  ) {
    let label = name(index)
    let folder = work + "/\(server.rawValue)-\(index + 1)"
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let file = folder + "/history.yaml"
    let description = "audiosession-soak history \(index + 1) of seed \(settings.seed)"
    let predicted: [[(program: String, level: Double)]]
    do {
      try history.scenario(name: label, description: description).write(
        toFile: file, atomically: true, encoding: .utf8)
      predicted = try predict(history, file: file)
    } catch {
      tally.failures.append("\(label): \(error)")
      say("\(label): cannot predict: \(error)")
      return
    }
    let stage = SoakStage(kind: server, folder: folder, tools: tools, material: material)
    defer { stage.stop() }
    do {
      try Self.wait { try await stage.start() }
    } catch {
      tally.failures.append("\(label): the stage did not start: \(error)")
      say("\(label): the stage did not start: \(error)")
      return
    }
    var notes: [Int: [String]] = [:]
    for (number, act) in history.acts.enumerated() {
      guard soakInterrupted == 0 else { return }
      let stepStart = Date()
      stage.mark("act \(number + 1): \(act)")
      do {
        try perform(act, on: stage)
      } catch {
        tally.failures.append("\(label) act \(number + 1) (\(act)): \(error)")
        say("\(label) act \(number + 1) (\(act)): the soak could not act it out: \(error)")
        return
      }
      var settled = settle(stage, after: act)
      let cast = history.programs.compactMap(SoakProgram.named)
      var verdict = SoakVerdict.compare(
        predicted: predicted[number], heard: settings.ear.hear(listen(stage), programs: cast),
        ear: settings.ear)
      // A second opinion a second later: what the first window caught may have been on its
      // way (a program starting under load); the step then agrees late, and is counted so.
      var late = false
      if !verdict.agrees, soakInterrupted == 0 {
        Shell.pause(milliseconds: 1000)
        settled = settle(stage, after: act)
        let again = SoakVerdict.compare(
          predicted: predicted[number], heard: settings.ear.hear(listen(stage), programs: cast),
          ear: settings.ear)
        late = again.agrees
        verdict = again
      }
      if late { tally.late += 1 }
      tally.steps += 1
      if !settled { tally.unsettled += 1 }
      let seconds = String(format: "%.1f", Date().timeIntervalSince(stepStart))
      notes[number] = ["heard on \(server.rawValue): \(verdict.heardText)"]
      if verdict.agrees {
        tally.agreeing += 1
        say(
          "\(label) act \(number + 1) \(act): agree (\(verdict.predictedText))"
            + (settled ? "" : ", unsettled") + (late ? ", late" : "") + " \(seconds) s"
            + (settings.verbose ? "\n    heard: \(verdict.heardText)" : ""))
      } else {
        let saved = save(
          history, label: label, act: number, notes: notes, server: server,
          description: description, verdict: verdict)
        keepEvidence(stage, beside: saved)
        tally.disagreements.append(saved)
        say(
          "\(label) act \(number + 1) \(act): DISAGREE" + (settled ? "" : " (unsettled)")
            + "\n    predicted: \(verdict.predictedText)\n    heard:     \(verdict.heardText)"
            + "\n    saved:     \(saved)")
      }
    }
  }

  /// Saves the history up to the act that disagreed, with what was heard after each act as
  /// comments: `sessionctl scenario run FILE` replays the prediction.
  func save(
    _ history: SoakHistory, label: String, act: Int, notes: [Int: [String]], server: SoakServer,
    description: String, verdict: SoakVerdict
  ) -> String {
    let folder = settings.output + "/\(server.rawValue)"
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let path = folder + "/\(label)-act\(act + 1).yaml"
    var text = "# audiosession-soak on \(server.description): act \(act + 1) disagreed.\n"
    text += "# predicted: \(verdict.predictedText)\n# heard:     \(verdict.heardText)\n"
    text += "# Replay the prediction: sessionctl scenario run \(path)\n"
    text += history.scenario(
      name: "\(label) on \(server.rawValue), to act \(act + 1)", description: description,
      count: act + 1, notes: notes)
    try? text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  /// What the daemon and the server said at a disagreement, beside its scenario
  /// (`….evidence.txt`): the daemon's log so far, its status and the server's streams.
  func keepEvidence(_ stage: SoakStage, beside scenario: String) {
    let path = String(scenario.dropLast(".yaml".count)) + ".evidence.txt"
    var text = "== sessionctl status --json\n" + (stage.status()?.serialized ?? "(no answer)")
    text += "\n== pactl -f json list sink-inputs\n"
    text += stage.sinkInputs().map(\.serialized).joined(separator: "\n")
    text += "\n== sessionctl watch all --json\n" + Shell.read(stage.watchLog)
    text += "\n== the daemon's log\n" + Shell.read(stage.daemonLog)
    text += "\n== pactl subscribe\n" + Shell.read(stage.serverLog)
    try? text.write(toFile: path, atomically: true, encoding: .utf8)
  }

  func perform(_ act: SoakAct, on stage: SoakStage) throws {
    switch act {
    case .start(let name): try stage.startProgram(name)
    case .stop(let name): stage.stopProgram(name)
    case .userPause(let name): try stage.userCommand(name, "pause")
    case .userPlay(let name): try stage.userCommand(name, "play")
    case .unplugHeadphones: try stage.unplugHeadphones()
    case .daemonRestart: try stage.restartDaemon()
    }
  }

  /// Waits until what the daemon says and what the server shows stay the same for
  /// ``SoakSettings/settleMilliseconds`` with every running program's stream on the server and
  /// each player found on the bus; whether that came before the timeout.
  func settle(_ stage: SoakStage, after act: SoakAct) -> Bool {
    let deadline = Date().addingTimeInterval(settings.settleTimeout)
    var last = ""
    var since = Date()
    // The user's command has reached the player once the daemon saw its status say so (the
    // daemon may pause it again at once: seen once is enough), or after 3 s.
    var commanded = Self.expectedStatus(after: act) == nil
    let commandDeadline = Date().addingTimeInterval(3)
    while Date() < deadline, soakInterrupted == 0 {
      let inputs = stage.sinkInputs()
      let status = stage.status()
      if !commanded, case .userPause(let name) = act, let status {
        commanded = Self.playerStatus(of: name, in: status, stage: stage) == "Paused"
      }
      if !commanded, case .userPlay(let name) = act, let status {
        commanded = Self.playerStatus(of: name, in: status, stage: stage) == "Playing"
      }
      commanded = commanded || Date() > commandDeadline
      let present = stage.programs.keys.allSatisfy { name in
        stage.hasStream(name, in: inputs)
          && (!(stage.programs[name]?.program.hasPlayer ?? false) || stage.playerBus(name) != nil)
      }
      let signature = Self.signature(status: status, inputs: inputs)
      if signature != last || !present || status == nil || !commanded {
        last = signature
        since = Date()
      } else if Date().timeIntervalSince(since) * 1000 >= Double(settings.settleMilliseconds) {
        return true
      }
      usleep(100_000)
    }
    return false
  }

  static func expectedStatus(after act: SoakAct) -> String? {
    switch act {
    case .userPause: "Paused"
    case .userPlay: "Playing"
    default: nil
    }
  }

  /// The `playbackStatus` the daemon's status gives the program's player.
  static func playerStatus(of name: String, in status: JSONObject, stage: SoakStage) -> String? {
    guard let bus = stage.playerBus(name), case .object(let sessions)? = status["sessions"]
    else { return nil }
    for member in sessions.members {
      guard case .object(let session) = member.value, case .array(let players)? = session["players"]
      else { continue }
      for case .object(let player) in players where player["bus"] == .string(bus) {
        if case .string(let value)? = player["playbackStatus"] { return value }
      }
    }
    return nil
  }

  /// What must stay the same: each session's state and players, and each stream's cork, mute,
  /// volume and sink.
  static func signature(status: JSONObject?, inputs: [JSONObject]) -> String {
    var parts: [String] = []
    if case .object(let sessions)? = status?["sessions"] {
      for member in sessions.members {
        guard case .object(let session) = member.value else { continue }
        let keys = ["active", "playing", "interrupted", "ducked", "muted", "players", "route"]
        parts.append(
          member.key + ":" + keys.map { session[$0]?.serialized ?? "-" }.joined(separator: ","))
      }
    }
    for input in inputs {
      let keys = ["index", "corked", "mute", "volume", "sink"]
      parts.append(keys.map { input[$0]?.serialized ?? "-" }.joined(separator: ","))
    }
    return parts.joined(separator: "|")
  }

  /// The next half second of the speaker's monitor.
  func listen(_ stage: SoakStage) -> [Double] {
    let bytes = settings.windowSamples * 2
    let start = stage.recordedBytes & ~1
    let deadline = Date().addingTimeInterval(3)
    while stage.recordedBytes < start + bytes, Date() < deadline { usleep(20_000) }
    guard let handle = FileHandle(forReadingAtPath: stage.recording) else { return [] }
    defer { try? handle.close() }
    try? handle.seek(toOffset: UInt64(start))
    let data = (try? handle.read(upToCount: bytes)) ?? Data()
    return SoakEar.samples(fromS16LE: [UInt8](data))
  }
}

extension SoakRunner {
  /// Runs async work from a worker thread and waits for it (the stage's PipeWire start is
  /// async; the workers are plain threads, so that their waiting blocks no task).
  static func wait(_ work: @escaping @Sendable () async throws -> Void) throws {
    let box = SharedResult()
    let done = DispatchSemaphore(value: 0)
    Task {
      do { try await work() } catch { box.set(error) }
      done.signal()
    }
    done.wait()
    if let error = box.error { throw error }
  }
}

/// An error handed from a task to the thread that waits for it.
final class SharedResult: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: (any Error)?
  var error: (any Error)? { lock.withLock { stored } }
  func set(_ error: any Error) { lock.withLock { stored = error } }
}

/// The tally the workers add their histories to, and the next history to run.
final class SharedTally: @unchecked Sendable {
  private let lock = NSLock()
  private var tally: SoakTally
  private var next = 0

  init(_ tally: SoakTally) { self.tally = tally }

  var value: SoakTally { lock.withLock { tally } }

  func nextHistory(below count: Int) -> Int? {
    lock.withLock {
      guard next < count else { return nil }
      defer { next += 1 }
      return next
    }
  }

  func add(_ other: SoakTally) {
    lock.withLock {
      tally.histories += other.histories
      tally.steps += other.steps
      tally.agreeing += other.agreeing
      tally.unsettled += other.unsettled
      tally.late += other.late
      tally.failures += other.failures
      tally.disagreements += other.disagreements
    }
  }
}
