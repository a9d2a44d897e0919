// 9. Beside WirePlumber 0.5's role policy (docs/apps.md "Speed"), on a private PipeWire 1.4 stack
//    with the policy on (`PipeWirePrivateServer.start(rolePolicy: true)`, its speaker a null
//    sink made before WirePlumber): each case runs with WirePlumber alone, the anchor, and
//    with the daemon's host (DaemonCore on the pulse backend, the default policies) beside it,
//    in the same run, the two sides taking turns round by round (the host started for each of
//    its rounds and stopped before the round's programs end). A program plays music (`pacat`,
//    role music, a 5 kHz tone, on the multimedia role sink), `parec` records the speaker's
//    monitor, and the bench reads the recording in 1 ms windows (Goertzel, docs/pulseaudio.md
//    §2.2); a window counts as music only where the 5 kHz tone is more than three times what
//    it holds at 8 kHz, where neither tone is (a click, when a link is made or broken, has
//    energy at every frequency: counted as music, one click 60-100 ms into the call put the
//    music's silence there, on both sides). WirePlumber alone is itself late now and then
//    (about 200 ms in one round of twenty, on either side), so a run's p99 may fall either way:
//    every round's figure is printed:
//    - call: a program's phone stream starts (`pacat`, role phone, a 1 kHz tone, 20 ms buffer):
//      from the call's first audible millisecond to the first millisecond of the music's
//      silence (the music inaudible from there for 200 ms). Goal: no later than WirePlumber
//      alone (p50 and p99 within 5 ms, the spread of one WirePlumber action measured twice),
//      with the daemon's interruption decided
//      (the player pause that WirePlumber never sends; `WirePlumberRolesPulseTests` checks it
//      with mpv);
//    - navigation: a prompt (`pacat`, role Navigation, 1 kHz): from its first audible
//      millisecond to the music's first millisecond below 60 % of its level before. Goal: no
//      later than WirePlumber alone, and never silent (never 20 ms in a row under 5 % of its
//      level while the prompt plays);
//    In both, "no later" is judged as follows: p50 within 5 ms of WirePlumber alone's, and the
//    programs' streams (the music's, the call's or the prompt's) never muted or lowered on the
//    daemon's side (a user's client reads them every 5 ms from just before the prompt; a
//    change shorter than that is the model's property tests' to find): WirePlumber corks or
//    ducks through its role sinks, never the streams, so untouched streams mean what is heard
//    is WirePlumber's own action, late or not as WirePlumber is. A run's p99 is its slowest
//    round of twenty, and WirePlumber has a round of 100-340 ms about once in twenty on either
//    side (docs/apps.md "Speed"), so p99 against p99 fell either way by chance: both are
//    printed, with each side's rounds over 100 ms, for information;
//    - unplug: the music plays on headphones (a null sink, the default sink) that are unloaded:
//      the milliseconds of the music heard on the speaker in the 500 ms recorded after. Goal: 0
//      in every round with the daemon; WirePlumber alone moves the music to the speaker and it
//      is heard until the program stops.
import AudioSession
import AudioSessionHost
import AudioSessionPulse
import AudioSessionSystem
import BenchGoals
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

extension PulseBench {
  static let promptFrequency = 1_000.0
  /// Where neither tone is: a 1 ms window's energy there is a click's, not the music's.
  static let clickFrequency = 8_000.0

  /// A program of the bench's on the PipeWire stack: pacat playing a raw tone file.
  static func pacat(_ arguments: [String], on server: PipeWirePrivateServer, input: String)
    -> ChildProcess?
  {
    let file = open(input, O_RDONLY | O_CLOEXEC)
    guard file >= 0 else { return nil }
    defer { close(file) }
    var environment = ProcessInfo.processInfo.environment
    environment["PULSE_SERVER"] = server.serverString
    environment["XDG_RUNTIME_DIR"] = server.runtimeDirectory
    return try? ChildProcess.spawn(
      "/usr/bin/pacat",
      arguments: arguments + [
        "--format=s16le", "--rate=\(toneRate)", "--channels=1", "--latency-msec=20",
      ], environment: environment, input: .descriptor(file), newProcessGroup: true)
  }

  enum RoleCase: String, CaseIterable { case call, navigation, unplug }

  static func measureWirePlumber(policies: String, rounds: Int) async throws {
    guard FileManager.default.fileExists(atPath: PipeWirePrivateServer.rolePolicyExample) else {
      print("\n9. skipped: WirePlumber 0.5's role example is missing (make deps installs it)")
      return
    }
    var template = Array((NSTemporaryDirectory() + "pulse-bench-wp-XXXXXX").utf8CString)
    guard let made = mkdtemp(&template) else { throw PulseError.badState }
    let folder = String(cString: made)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let music = folder + "/music.raw"
    let prompt = folder + "/prompt.raw"
    try writeTone(toneFrequency, to: music, seconds: 30)
    try writeTone(promptFrequency, to: prompt, seconds: 10)
    let table = try PolicyLoader.load(directory: policies)
    let server = try await PipeWirePrivateServer.start(rolePolicy: true)
    defer { server.stop() }
    let user = try PulseContext(name: "pulse-bench-user")
    defer { user.disconnect() }
    try await user.connect(to: server.serverString)
    let roundsPerCase = min(rounds, 20)

    /// One round: the music plays (on headphones for an unplug), the speaker's monitor is
    /// recorded, the case happens 300 ms in; the recording's music and prompt amplitudes.
    /// With the daemon's `core`, it stops before the music does: a daemon that stops undoes
    /// what it did, and a music stream that went muted would leave WirePlumber's saved state
    /// for its role muted, and the next round's music muted from its start.
    func round(_ what: RoleCase, _ number: Int, side: Int, core: DaemonCore?) async throws
      -> Heard?
    {
      var module: UInt32?
      if what == .unplug {
        module = try await user.loadModule(
          "module-null-sink",
          arguments: try PulseModuleArguments.make(
            ["sink_name": "cans\(side)x\(number)"],
            propertyLists: [
              "sink_properties": [
                "device.description": "Headphones", "device.form_factor": "headphone",
                "device.bus": "pci",
              ]
            ]))
        try await user.setDefaultSink("cans\(side)x\(number)")
      }
      guard let player = pacat(["--property=media.role=music"], on: server, input: music) else {
        await core?.shutdown()
        return nil
      }
      defer { player.end(SIGKILL) }
      try await Task.sleep(for: .milliseconds(400))
      let recording = folder + "/\(what)-\(side)-\(number).raw"
      let recorder = try ChildProcess.spawn(
        "/usr/bin/parec",
        arguments: [
          "-d", "\(PipeWirePrivateServer.speakerSink).monitor", "--raw", "--format=s16le",
          "--rate=\(toneRate)", "--channels=1", "--latency-msec=5",
          "--property=media.role=test",
        ],
        environment: ProcessInfo.processInfo.environment.merging([
          "PULSE_SERVER": server.serverString
        ]) { $1 }, output: .appending(recording), newProcessGroup: true)
      defer { recorder.end(SIGKILL) }
      // The speaker's monitor runs only while something plays on it.
      let keeper = pacat(
        ["-d", PipeWirePrivateServer.speakerSink, "--property=media.role=test"], on: server,
        input: "/dev/zero")
      defer { keeper?.end(SIGKILL) }
      try await Task.sleep(for: .milliseconds(300))
      let startedAt =
        ((try? FileManager.default.attributesOfItem(atPath: recording)[.size])
          as? Int ?? 0) / 2 / (toneRate / 1_000)
      // Whether the music's stream, or the call's or the prompt's, is muted or lowered from
      // here to the round's end (pipewire-pulse shows a stream that just appeared at volume 0
      // until its node is set up: not a lowering).
      let watch = Task {
        var touched = false
        while !Task.isCancelled {
          let inputs = (try? await user.sinkInputs()) ?? []
          for input in inputs where input.properties["media.role"] != "test" {
            let volumes = input.channelVolumes
            if input.isMuted
              || (volumes.contains { $0 < .normal } && !volumes.allSatisfy { $0.rawValue == 0 })
            {
              touched = true
            }
          }
          try? await Task.sleep(for: .milliseconds(5))
        }
        return touched
      }
      var other: ChildProcess?
      switch what {
      case .call:
        other = pacat(["--property=media.role=phone"], on: server, input: prompt)
      case .navigation:
        other = pacat(["--property=media.role=Navigation"], on: server, input: prompt)
      case .unplug:
        if let module { try await user.unloadModule(module) }
      }
      try await Task.sleep(for: .milliseconds(800))
      watch.cancel()
      let touched = await watch.value
      other?.end(SIGKILL)
      recorder.end(SIGINT)
      try await Task.sleep(for: .milliseconds(200))
      await core?.shutdown()
      if what == .unplug { try await user.setDefaultSink(PipeWirePrivateServer.speakerSink) }
      guard let data = FileManager.default.contents(atPath: recording) else { return nil }
      let samples = data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
      // The music's tone where it stands above the broadband reference: a click (a link
      // made or broken, an underrun) has energy at every frequency, the music only at its own.
      let reference = amplitudes(samples, frequency: clickFrequency)
      let music = zip(amplitudes(samples, frequency: toneFrequency), reference).map {
        $0 > 3 * $1 ? $0 : 0
      }
      return (music, amplitudes(samples, frequency: promptFrequency), startedAt, touched)
    }

    /// A round's figure: the delay (ms) from the prompt's first audible millisecond to the
    /// music's silence (call) or duck (navigation), and whether the music stayed audible; for
    /// an unplug, the milliseconds of music heard after it.
    func figure(_ what: RoleCase, _ heard: Heard) -> (delay: Int?, audible: Bool) {
      let audible = 327.67  // −40 dBFS
      let music = heard.music
      switch what {
      case .unplug:
        let after = music.dropFirst(max(heard.at - 50, 0))
        return (after.filter { $0 > audible }.count, true)
      case .call, .navigation:
        // The prompt at full level (half of full scale): a 1 ms window also catches a little
        // of the music's tone, and the recording's first windows start mid-wave.
        guard
          let start = heard.prompt.indices.first(where: { $0 >= 20 && heard.prompt[$0] > 2_000 })
        else { return (nil, true) }
        let before = music[max(start - 200, 0)..<start].sorted()
        let level = before.isEmpty ? 0 : before[before.count / 2]
        let threshold = what == .call ? audible : 0.6 * level
        var index = max(start - 100, 0)
        while index + 200 <= music.count {
          if music[index..<index + (what == .call ? 200 : 20)].allSatisfy({ $0 < threshold }) {
            let during = music[index..<min(index + 400, music.count)]
            // Silent: 20 ms in a row under 5 % of the level before (a linking's click is not).
            var run = 0
            var longest = 0
            for value in during {
              run = value < 0.05 * level ? run + 1 : 0
              longest = max(longest, run)
            }
            return (index - start, what == .call || longest < 20)
          }
          index += 1
        }
        return (nil, true)
      }
    }

    print(
      "\n9. Beside WirePlumber 0.5's role policy (PipeWire 1.4.2, role example on; parec on the"
        + "\n  speaker's monitor, 1 ms windows; \(roundsPerCase) rounds per case and side)")
    // The sides take turns round by round, so that a busy spell of the machine, or a slow
    // spell of WirePlumber's, falls on both alike.
    let sides = ["WirePlumber alone", "with the daemon"]
    for what in RoleCase.allCases {
      var figures = sides.map {
        RoleFigures(side: $0, values: [], silent: 0, missed: 0, touched: 0)
      }
      for number in 1...roundsPerCase {
        for side in sides.indices {
          let core: DaemonCore? =
            side == 1 ? try await daemonCore(on: server, policies: policies, table: table) : nil
          let heard: Heard?
          do {
            heard = try await round(what, number, side: side, core: core)
          } catch {
            await core?.shutdown()
            throw error
          }
          guard let heard, case (let delay?, let audible) = figure(what, heard) else {
            figures[side].missed += 1
            continue
          }
          figures[side].values.append(delay)
          if !audible { figures[side].silent += 1 }
          if heard.touched { figures[side].touched += 1 }
        }
      }
      reportRoleCase(what, figures)
    }
  }

  /// How much later than WirePlumber alone still counts as no later: the spread of the same
  /// WirePlumber action measured twice in one run (a few 1 ms windows).
  static let tolerance: Int64 = 5

  /// One side's rounds of a case: the figures, the rounds where the music went silent
  /// (navigation), had no figure, or had its own stream muted or lowered.
  struct RoleFigures {
    var side: String
    var values: [Int]
    var silent: Int
    var missed: Int
    var touched: Int
  }

  /// What a round recorded: the music's and the prompt's amplitude in each 1 ms window, the
  /// window where the case happened, and whether a program's stream was muted or lowered.
  typealias Heard = (music: [Double], prompt: [Double], at: Int, touched: Bool)

  /// A round this late is one of WirePlumber's slow ones (printed, on both sides).
  static let slowRound = 100

  static func reportRoleCase(_ what: RoleCase, _ figures: [RoleFigures]) {
    func line(_ values: [Int]) -> String {
      let sorted = values.map(Int64.init).sorted()
      guard !sorted.isEmpty else { return "no round" }
      return "p50 \(percentile(sorted, 0.5)) ms, p99 \(percentile(sorted, 0.99)) ms, "
        + "min \(sorted.first ?? 0), max \(sorted.last ?? 0)"
    }
    switch what {
    case .call, .navigation:
      print(
        "  \(what == .call ? "call → music silent" : "navigation → music ducked") "
          + "(from the prompt's first audible ms):")
    case .unplug:
      print("  unplug → ms of music heard on the speaker in the 500 ms after:")
    }
    for figure in figures {
      var text =
        "    \(figure.side): \(line(figure.values)); each: "
        + figure.values.sorted().map(String.init).joined(separator: " ")
      if what == .unplug {
        text = "    \(figure.side): \(figure.values.map(String.init).joined(separator: " ")) ms"
      }
      if what != .unplug {
        text += "; over \(slowRound) ms in \(figure.values.filter { $0 > slowRound }.count)"
        text += "; a stream muted or lowered in \(figure.touched)"
      }
      if what == .navigation, figure.silent > 0 { text += "; silent in \(figure.silent) rounds" }
      if figure.missed > 0 { text += " (\(figure.missed) rounds left out)" }
      print(text)
    }
    guard figures.count == 2 else { return }
    let (anchor, ours) = (figures[0], figures[1])
    let met: Bool
    switch what {
    case .call, .navigation:
      let a = anchor.values.map(Int64.init).sorted()
      let o = ours.values.map(Int64.init).sorted()
      met =
        !a.isEmpty && !o.isEmpty && percentile(o, 0.5) <= percentile(a, 0.5) + tolerance
        && ours.touched == 0 && ours.silent == 0 && ours.missed == 0
    case .unplug:
      met = !ours.values.isEmpty && ours.values.allSatisfy { $0 == 0 } && ours.missed == 0
    }
    print(
      "    goal (\(what == .unplug ? "0 ms in every round" : "no later than WirePlumber alone: p50 within \(tolerance) ms, the streams left to WirePlumber in every round")): "
        + (met ? "met" : "NOT met"))
    let oursSorted = ours.values.map(Int64.init).sorted()
    goals.check(
      what == .unplug
        ? "9. WirePlumber role policy, unplug: 0 ms heard in every round"
        : "9. WirePlumber role policy, \(what.rawValue): p50 within \(tolerance) ms of WirePlumber alone",
      what == .unplug
        ? "max \(ours.values.max() ?? 0) ms, \(ours.missed) left out"
        : "p50 \(percentile(oursSorted, 0.5)) vs \(percentile(anchor.values.map(Int64.init).sorted(), 0.5)) ms, touched \(ours.touched)",
      met: met)
  }

  /// The daemon's core on the PipeWire stack, once connected and its first snapshot taken.
  static func daemonCore(
    on server: PipeWirePrivateServer, policies: String, table: PolicyTable
  ) async throws -> DaemonCore {
    let core = try await SpeakerServer.daemonCore(
      server: server.serverString, cookieFile: nil, folder: server.runtimeDirectory,
      policies: policies, table: table, logger: quiet)
    _ = await waitUntil { await !core.status().devices.isEmpty }
    return core
  }
}
