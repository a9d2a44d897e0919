// A desktop's programs (docs/apps.md "Speed"), each section on a private PulseAudio server of its
// own with the daemon's host (DaemonCore) on the pulse backend and the default policies, and
// measured from the server's own events as a raw subscriber sees them:
//
// 6. A program's phone stream starts (`pacat --property=media.role=phone --latency-msec=20`, a
//    call's buffer, docs/apps.md "Speed") while mpv with mpv-mpris plays music on a private
//    `dbus-daemon`: from the phone stream's `new sink-input` to the `Pause` call reaching mpv,
//    as `dbus-monitor` on the same bus stamps it (section 5's clock). Goal: p99 < 20 ms. The
//    phone program is stopped after each round; the daemon plays mpv again (the end of the
//    call's interruption, with shouldResume), or the bench does, as its user would, and says
//    how often it had to.
// 7. Speech starts (a real `espeak-ng` speaking a short sentence; the policies' eSpeak rule
//    makes it spoken audio that ducks others, docs/apps.md "Speech") while another program's
//    music plays (`pacat --property=media.role=music`): from the speech stream's `new
//    sink-input` to the music stream's next `change sink-input`, the one that carries the
//    ducked volume (read back from the server at once, each round). espeak-ng opens a stream
//    and closes it within milliseconds as it starts, then the one it speaks on: the speech
//    stream is the one still there 20 ms after its start. Each utterance is cut short 100 ms
//    after the duck, as a screen reader's is when the user moves on (espeak-ng's stream lasts
//    the sentence plus its 2 s buffer). Goal: p99 < 5 ms.
// 8. Headphones go while a program plays a 5 kHz tone on them (`pacat`, role music, on a null
//    sink `hpN` with `device.form_factor=headphone`; the speaker is another null sink, `spk`):
//    `parec` records the speaker's monitor while the headphones are unloaded, until 300 ms after
//    the program's stream was muted, and the bench counts the 1 ms windows of that recording
//    that carry the tone (Goertzel at 5 kHz, above -40 dBFS). The server moves the program's
//    stream to the speaker; the daemon mutes it. Goal: 0 ms in each of 20 rounds. One round
//    without the daemon first shows what the recording hears then; a stream found unmuted at
//    the end of a round is named.
import AudioSession
import AudioSessionHost
import AudioSessionMPRIS
import AudioSessionPulse
import AudioSessionSystem
import BenchGoals
import Foundation
import Logging

#if canImport(Glibc)
  import Glibc
#endif

extension PulseBench {
  static let quiet = Logger(label: "pulse-bench", factory: { _ in SwiftLogNoOpLogHandler() })

  /// The server's environment for a program of the bench's.
  static func environment(of server: PulsePrivateServer) -> [String: String] {
    var environment = ProcessInfo.processInfo.environment
    environment["PULSE_SERVER"] = server.serverString
    environment["PULSE_COOKIE"] = server.cookiePath
    return environment
  }

  // MARK: 6. A program's phone stream → its players paused

  static func measureCallPlayers(policies: String, rounds: Int) async throws {
    guard PrivateBus.available else {
      print("\n6. skipped: it needs mpv, mpv-mpris and dbus-daemon (make deps installs them)")
      return
    }
    let bus = try await PrivateBus.start()
    defer { bus.stop() }
    let table = try PolicyLoader.load(directory: policies)
    let rig = try await SpeakerServer.start(subscribing: [.sinkInput])
    defer { rig.stop() }
    let (server, floor, user) = (rig.server, rig.floor, rig.user)

    let player = PlayerStatuses(address: bus.address, logger: quiet)
    defer { player.stop() }
    let statuses = player.stamps
    let core = try await rig.daemonCore(
      policies: policies, table: table, logger: quiet,
      players: MPRISPlayers(address: bus.address, logger: quiet))
    core.startPlayers()
    let mpv = try bus.startPlayer(on: server)
    defer { mpv.end(SIGTERM) }
    let session = "mpv.\(mpv.pid)"

    var calls: [(began: UInt64, paused: UInt64)] = []
    var missed: [String] = []
    var playedByDaemon = 0
    var playedByBench = 0
    let count = min(rounds, 100)
    for round in 0..<count {
      // mpv plays, unmuted, its session plays, and both bus connections know it.
      let ready = await waitUntil {
        guard
          let stream = try await user.sinkInputs().first(where: {
            $0.properties["application.process.id"] == "\(mpv.pid)"
          }), !stream.isMuted, !stream.isCorked
        else { return false }
        let playing = await core.status().sessions.contains { $0.name == session && $0.playing }
        return playing && player.last == "Playing"
      }
      guard ready else {
        missed.append("round \(round): mpv was not playing")
        break
      }
      // Both connections saw the same PropertiesChanged; give the daemon's a moment.
      try await Task.sleep(for: .milliseconds(20))
      let start = now()
      guard
        let phone = Program.start(
          ["--property=media.role=phone"] + PhoneBuffer.call.arguments, on: server)
      else { throw PulseError.badState }
      let paused = await waitUntil { statuses.first(after: start, "Paused") != nil }
      let phoneIndex = try await user.sinkInputs().first {
        $0.properties["application.process.id"] == "\(phone.pid)"
      }?.index
      let ended = now()
      phone.stop()
      // The call is over: the daemon plays mpv again; else the user does.
      if await waitUntil({ statuses.first(after: ended, "Playing") != nil }) {
        playedByDaemon += 1
      } else {
        playedByBench += 1
        player.observer.send(.play, to: mpvPlayer)
      }
      guard paused, let pausedAt = statuses.first(after: start, "Paused"), let phoneIndex,
        let began = floor.first(after: start, exactly: "new sink-input \(phoneIndex)")
      else {
        missed.append(
          "round \(round): paused \(paused), phone stream \(phoneIndex.map(String.init) ?? "none")")
        continue
      }
      if round > 0 { calls.append((began, pausedAt)) }
    }
    await core.shutdown()

    let (values, reactions) = pauseDelays(
      calls.map { ($0.began, $0.paused) }, routed: bus.pauses(), after: "a phone stream's start",
      missed: &missed)
    if !missed.isEmpty { print("\n  rounds left out:", missed) }
    print(
      "\n6. A program's phone stream starts → Pause received by a playing mpv (mpv-mpris, MPRIS)"
        + "\n  the phone program: pacat --property=media.role=phone --latency-msec=20")
    report("phone's new sink-input → Pause routed to mpv", values)
    report("  (→ the player's own PlaybackStatus Paused)", reactions)
    print(
      "  played again after the call: by the daemon \(playedByDaemon), by the bench "
        + "\(playedByBench), of \(playedByDaemon + playedByBench) rounds")
    if !values.isEmpty {
      print(
        "  goal p99 < 20 ms (\(values.count) rounds): "
          + "\(percentile(values, 0.99) < 20_000_000 ? "met" : "NOT met")")
    }
    goals.check(
      "6. a program's phone stream → Pause routed to mpv, p99 < 20 ms",
      values.isEmpty ? "no rounds" : "p99 \(micros(percentile(values, 0.99)).trimmed)",
      met: !values.isEmpty && percentile(values, 0.99) < 20_000_000)
  }

  // MARK: 7. Speech → music ducked

  static func measureSpeech(policies: String, rounds: Int) async throws {
    guard access("/usr/bin/espeak-ng", X_OK) == 0 else {
      print("\n7. skipped: it needs espeak-ng (make deps installs it)")
      return
    }
    let table = try PolicyLoader.load(directory: policies)
    let rig = try await SpeakerServer.start(subscribing: [.sinkInput])
    defer { rig.stop() }
    let (server, floor, user) = (rig.server, rig.floor, rig.user)
    let core = try await rig.daemonCore(policies: policies, table: table, logger: quiet)

    guard let music = Program.start(["--property=media.role=music"], on: server) else {
      throw PulseError.badState
    }
    defer { music.stop() }
    var musicIndex: UInt32?
    let playing = await waitUntil {
      musicIndex = try await user.sinkInputs().first {
        $0.properties["application.process.id"] == "\(music.pid)"
      }?.index
      let session = await core.status().sessions.contains {
        $0.name == "pacat.\(music.pid)" && $0.playing
      }
      return musicIndex != nil && session
    }
    guard playing, let musicIndex else {
      print("pulse-bench: the music program did not become a playing app session")
      throw PulseError.badState
    }
    func musicVolume() async -> PulseVolume? {
      try? await user.sinkInput(at: musicIndex)?.volume
    }

    var values: [Int64] = []
    var missed: [String] = []
    var notDucked = 0
    var moreChanges = 0
    let count = min(rounds, 100)
    for round in 0..<count {
      guard await waitUntil({ await musicVolume() == .normal }) else {
        missed.append("round \(round): the music was not at its full volume")
        break
      }
      let start = now()
      let speaker = try ChildProcess.spawn(
        "/usr/bin/espeak-ng", arguments: ["-v", "en", "Speech over music."],
        environment: environment(of: server), newProcessGroup: true)
      // espeak-ng opens a stream and closes it within a few milliseconds as it starts, then
      // opens the one it speaks on: that is the speech stream, the one still there 20 ms after
      // its start. The bench asks the server nothing until the music's first change after it,
      // then reads the volume that change carried.
      var speech: (index: String, began: UInt64)?
      var ducked: UInt64?
      let changed = await waitUntil {
        let events = floor.all().filter { $0.time >= start }
        guard
          let began = events.last(where: {
            $0.what.hasPrefix("new sink-input ") && $0.what != "new sink-input \(musicIndex)"
          }), now() - began.time >= 20_000_000
        else { return false }
        let index = String(began.what.dropFirst("new sink-input ".count))
        guard !events.contains(where: { $0.what == "remove sink-input \(index)" }),
          let change = events.first(where: {
            $0.time > began.time && $0.what == "change sink-input \(musicIndex)"
          })
        else { return false }
        speech = (index, began.time)
        ducked = change.time
        return true
      }
      let volume = changed ? await musicVolume() : nil
      let read = now()
      // A screen reader's utterance cut short as the user moves on: the round lasts about
      // 100 ms of speech, not the sentence and espeak-ng's 2 s buffer.
      try await Task.sleep(for: .milliseconds(100))
      speaker.end(SIGTERM)
      guard changed, let volume, let speech, let ducked else {
        missed.append("round \(round): no speech stream with a change of the music after it")
        continue
      }
      guard volume < .normal else {
        notDucked += 1
        continue
      }
      // The change read back must be the only one since the speech stream's start.
      let changes = floor.all().filter {
        $0.time > speech.began && $0.time <= read && $0.what == "change sink-input \(musicIndex)"
      }
      guard changes.count == 1 else {
        moreChanges += 1
        continue
      }
      if round > 0 { values.append(Int64(ducked) - Int64(speech.began)) }
    }
    await core.shutdown()

    if !missed.isEmpty { print("\n  rounds left out:", missed) }
    print(
      "\n7. Speech starts (espeak-ng) → another program's music stream ducked"
        + "\n  the music: pacat --property=media.role=music; ducked to \(duckDecibels(policies)) dB"
    )
    report("speech's new sink-input → music ducked", values)
    if notDucked + moreChanges > 0 {
      print(
        "  rounds left out: the music's first change after the speech did not duck it "
          + "\(notDucked), more than one change before the volume was read \(moreChanges)")
    }
    if !values.isEmpty {
      print(
        "  goal p99 < 5 ms over the raw event (\(values.count) rounds): "
          + "\(percentile(values, 0.99) < 5_000_000 && notDucked == 0 ? "met" : "NOT met")")
    }
    goals.check(
      "7. speech → music ducked, p99 < 5 ms over the raw event",
      values.isEmpty
        ? "no rounds" : "p99 \(micros(percentile(values, 0.99)).trimmed), not ducked \(notDucked)",
      met: !values.isEmpty && percentile(values, 0.99) < 5_000_000 && notDucked == 0)
  }

  /// The policies' ducking, in decibels (pulse.json), for the section's heading.
  static func duckDecibels(_ policies: String) -> String {
    guard let policy = try? PulsePolicy.load(directory: policies) else { return "?" }
    return String(format: "%.0f", policy.streams.duckDecibels)
  }

  // MARK: 8. Headphones go → the program's audio heard on the speaker

  static let toneFrequency = 5_000.0
  static let toneRate = 44_100

  static func measureUnplugLeak(policies: String, rounds: Int) async throws {
    var template = Array((NSTemporaryDirectory() + "pulse-bench-leak-XXXXXX").utf8CString)
    guard let made = mkdtemp(&template) else { throw PulseError.badState }
    let folder = String(cString: made)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let tone = folder + "/tone.raw"
    try writeTone(to: tone, seconds: 10)

    let table = try PolicyLoader.load(directory: policies)
    let rig = try await SpeakerServer.start(subscribing: [.sink, .sinkInput], speaker: "spk")
    defer { rig.stop() }
    let (server, user) = (rig.server, rig.user)

    var unmutedAgain: [Int] = []
    /// One round: headphones `hpN` loaded, the program playing the tone on them, the speaker's
    /// monitor recorded while they are unloaded and for 300 ms after the program's stream was
    /// silenced (muted, or gone); the milliseconds of the tone in the recording.
    func round(_ number: Int, silenced: Bool = true, ready: (Program) async -> Bool) async throws
      -> Int?
    {
      let name = "hp\(number)"
      let module = try await user.loadModule(
        "module-null-sink",
        arguments: try PulseModuleArguments.make(
          ["sink_name": name],
          propertyLists: [
            "sink_properties": [
              "device.description": "Headphones \(number)", "device.form_factor": "headphone",
              "device.bus": "pci",
            ]
          ]))
      guard
        let program = Program.start(
          [
            "--property=media.role=music", "--device=\(name)", "--format=s16le",
            "--rate=\(toneRate)", "--channels=1",
          ], on: server, input: tone)
      else {
        try await user.unloadModule(module)
        return nil
      }
      defer { program.stop() }
      var index: UInt32?
      let playing = await waitUntil {
        index = try await user.sinkInputs().first {
          $0.properties["application.process.id"] == "\(program.pid)"
        }?.index
        return index != nil
      }
      guard playing, let index, await ready(program) else {
        try await user.unloadModule(module)
        return nil
      }
      let recording = folder + "/\(name).raw"
      let recorder = try ChildProcess.spawn(
        "/usr/bin/parec",
        arguments: [
          "-d", "spk.monitor", "--raw", "--format=s16le", "--rate=\(toneRate)", "--channels=1",
          "--latency-msec=5", "--property=media.role=test",
        ], environment: environment(of: server), output: .appending(recording),
        newProcessGroup: true)
      defer { recorder.end(SIGKILL) }
      // The recorder runs: 50 ms of the speaker recorded before the unload.
      guard
        await waitUntil({
          var info = stat()
          return stat(recording, &info) == 0 && info.st_size >= toneRate * 2 / 20
        })
      else {
        try await user.unloadModule(module)
        return nil
      }
      try await user.unloadModule(module)
      if silenced {
        _ = await waitUntil {
          guard let input = try await user.sinkInput(at: index) else { return true }
          return input.isMuted
        }
      }
      try await Task.sleep(for: .milliseconds(300))
      recorder.end(SIGINT)
      if silenced, let input = try await user.sinkInput(at: index), !input.isMuted {
        unmutedAgain.append(number)
      }
      guard let data = FileManager.default.contents(atPath: recording) else { return nil }
      let samples = data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
      return toneMilliseconds(samples)
    }

    // Without the daemon: what the recording hears of a program that nobody silences.
    let unsilenced = try await round(0, silenced: false) { _ in true }

    let core = try await rig.daemonCore(policies: policies, table: table, logger: quiet)
    var heard: [Int] = []
    var missed: [String] = []
    for number in 1...20 {
      let result = try await round(number) { program in
        // The program's app session plays, routed to the headphones it plays on.
        await waitUntil {
          await core.status().sessions.contains {
            $0.name == "pacat.\(program.pid)" && $0.playing
              && $0.route.outputs.first?.portType == .headphones
          }
        }
      }
      guard let result else {
        missed.append("round \(number): the program did not play on the headphones")
        continue
      }
      heard.append(result)
    }
    await core.shutdown()

    if !missed.isEmpty { print("\n  rounds left out:", missed) }
    print(
      "\n8. Headphones removed → a program's tone heard on the speaker (parec on spk.monitor,"
        + "\n  Goertzel at 5 kHz over 1 ms windows; pacat, role music, on headphones hpN)")
    print(
      "  without the daemon (one round): \(unsilenced.map { "\($0) ms" } ?? "no round") heard "
        + "in the 300 ms recorded after the unload")
    let silent = heard.filter { $0 == 0 }.count
    print(
      "  with the daemon: 0 ms in \(silent) of \(heard.count) rounds; heard per round "
        + "\(heard.map(String.init).joined(separator: " ")) ms; max \(heard.max() ?? 0) ms")
    if !unmutedAgain.isEmpty {
      print(
        "  rounds whose stream played unmuted on the speaker 300 ms after the unload: \(unmutedAgain)"
      )
    }
    print(
      "  goal 0 ms in all 20 rounds: \(heard.count == 20 && silent == 20 ? "met" : "NOT met")")
    goals.check(
      "8. headphones removed → a program's tone heard 0 ms in 20 rounds",
      "0 ms in \(silent) of \(heard.count), max \(heard.max() ?? 0) ms",
      met: heard.count == 20 && silent == 20)
  }

  /// Writes `seconds` of the bench's tone (5 kHz, half of full scale) as raw s16le, mono.
  static func writeTone(to path: String, seconds: Int) throws {
    try writeTone(toneFrequency, to: path, seconds: seconds)
  }

  /// Writes `seconds` of a tone at `frequency` (half of full scale) as raw s16le, mono.
  static func writeTone(_ frequency: Double, to path: String, seconds: Int) throws {
    let count = toneRate * seconds
    var samples = [Int16](repeating: 0, count: count)
    for index in 0..<count {
      samples[index] = Int16(
        16_384 * sin(2 * Double.pi * frequency * Double(index) / Double(toneRate)))
    }
    guard
      FileManager.default.createFile(atPath: path, contents: samples.withUnsafeBytes { Data($0) })
    else { throw PulseError.badState }
  }

  /// The milliseconds of `samples` (s16, mono, at ``toneRate``) that carry the bench's tone:
  /// 1 ms windows whose 5 kHz component (Goertzel) is above 1 % of full scale (−40 dBFS).
  static func toneMilliseconds(_ samples: [Int16]) -> Int {
    amplitudes(samples, frequency: toneFrequency).filter { $0 > 327.67 }.count
  }

  /// The amplitude of `frequency` in each millisecond of `samples` (s16, mono, at ``toneRate``;
  /// Goertzel): a sine of amplitude A over N samples gives a magnitude of about A·N/2.
  static func amplitudes(_ samples: [Int16], frequency: Double) -> [Double] {
    let coefficient = 2 * cos(2 * Double.pi * frequency / Double(toneRate))
    var result: [Double] = []
    var millisecond = 0
    while true {
      let from = millisecond * toneRate / 1_000
      let to = (millisecond + 1) * toneRate / 1_000
      guard to <= samples.count else { break }
      var (previous, beforePrevious) = (0.0, 0.0)
      for sample in samples[from..<to] {
        let next = Double(sample) + coefficient * previous - beforePrevious
        beforePrevious = previous
        previous = next
      }
      let power =
        previous * previous + beforePrevious * beforePrevious
        - coefficient * previous * beforePrevious
      result.append(power.squareRoot() / (Double(to - from) / 2))
      millisecond += 1
    }
    return result
  }
}
