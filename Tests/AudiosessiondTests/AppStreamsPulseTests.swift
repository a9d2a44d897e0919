import AudioSession
import AudioSessionClient
import AudioSessionPulse
import AudioSessionSystem
import AudioSessionWire
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Another program's real stream, arbitrated by a `sessionctl daemon --backend pulse` on a
/// private server (docs/apps.md "On the server"): a `pacat` playing music becomes an app session,
/// interrupts a non-mixable session, is ducked by a duckOthers session and restored exactly, is
/// muted when a non-mixable session interrupts it, and its session goes when it quits. Checked on
/// the server's own view (`pactl -f json list sink-inputs`), not only on our events.
@Suite(.serialized) struct AppStreamsPulseTests {
  typealias Rig = PulseDaemonServerLossTests.Rig

  /// The server's view of pacat's playback stream: its mute and channel volumes. (pactl runs
  /// through the package's own spawner: Foundation's Process can miss a child's exit here.)
  static func pacatStream(
    _ rig: Rig, list: String = "sink-inputs", pid: pid_t? = nil, binary: String = "pacat"
  ) throws -> (muted: Bool, volumes: [Int])? {
    let path = NSTemporaryDirectory() + "pactl-\(UUID().uuidString).json"
    defer { try? FileManager.default.removeItem(atPath: path) }
    let child = try ChildProcess.spawn(
      "/usr/bin/pactl", arguments: ["-f", "json", "list", list],
      environment: ProcessInfo.processInfo.environment.merging(rig.environment) { $1 },
      output: .appending(path), error: .null)
    guard child.waitForExit(seconds: 10) else { return nil }
    let data = Data(ProcFile.bytes(path) ?? [])
    guard case .array(let inputs) = try JSONParser.parse(Array(data), options: .document).value
    else { return nil }
    for case .object(let input) in inputs {
      guard case .object(let properties)? = input["properties"],
        properties["application.process.binary"] == .string(binary),
        pid.map({ properties["application.process.id"] == .string("\($0)") }) ?? true,
        case .bool(let muted)? = input["mute"], case .object(let volume)? = input["volume"]
      else { continue }
      let volumes = volume.members.compactMap { member -> Int? in
        guard case .object(let channel) = member.value, case .int(let value)? = channel["value"]
        else { return nil }
        return value
      }
      return (muted, volumes)
    }
    return nil
  }

  /// Runs pactl against the rig's server; returns its output, trimmed.
  static func pactl(_ rig: Rig, _ arguments: [String]) throws -> String {
    let path = NSTemporaryDirectory() + "pactl-\(UUID().uuidString).txt"
    defer { try? FileManager.default.removeItem(atPath: path) }
    let child = try ChildProcess.spawn(
      "/usr/bin/pactl", arguments: arguments,
      environment: ProcessInfo.processInfo.environment.merging(rig.environment) { $1 },
      output: .appending(path), error: .null)
    #expect(child.waitForExit(seconds: 10), "pactl \(arguments)")
    let data = Data(ProcFile.bytes(path) ?? [])
    return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// Waits, at most 15 s, for the server or the daemon to show what `check` looks for.
  static func waitFor(_ what: String, _ check: () throws -> Bool) throws {
    let deadline = Date(timeIntervalSinceNow: 15)
    while Date() < deadline {
      if try check() { return }
      usleep(50_000)
    }
    Issue.record("timed out waiting for \(what)")
  }

  static func session(_ rig: Rig, _ name: String) throws -> JSONObject? {
    guard case .object(let sessions)? = try rig.status()["sessions"],
      case .object(let session)? = sessions[name]
    else { return nil }
    return session
  }

  static func sessionNames(_ rig: Rig) throws -> [String] {
    guard case .object(let sessions)? = try rig.status()["sessions"] else { return [] }
    return sessions.members.map(\.key)
  }

  @Test(
    "a pacat playing music is an app session: it interrupts, is ducked and restored exactly, is muted when interrupted, and goes when it quits (docs/apps.md)",
    arguments: PulseDaemonServerLossTests.Kind.allCases)
  func pacatIsArbitrated(kind: PulseDaemonServerLossTests.Kind) async throws {
    let rig = try await Rig.start(kind)
    defer { rig.stop() }
    try Self.play(rig, "podcast", ["playback", "--mode", "spokenAudio"])

    let pacat = try Self.pacat(rig, ["--property=media.role=music"])
    defer { Self.stop(pacat) }
    let app = "pacat.\(pacat.pid)"
    // The music app starts: its session activates and interrupts the podcast.
    try Self.waitUntilPlaying(rig, app)
    #expect(try Self.session(rig, "podcast")?["interrupted"] == .bool(true))
    #expect(try Self.session(rig, app)?["owner"] == .string("app"))
    #expect(try Self.session(rig, app)?["pid"] == .int(Int(pacat.pid)))
    let original = try #require(try Self.pacatStream(rig))
    #expect(!original.muted)

    // A navigation prompt ducks it: each channel -20 dB, then back exactly.
    try Self.play(rig, "nav", ["playback", "--options", "duckOthers"])
    try Self.waitFor("pacat's stream to be ducked") {
      try Self.pacatStream(rig)?.volumes.allSatisfy { $0 < original.volumes[0] / 2 } == true
    }
    try rig.run(["stop", "--session", "nav"])
    try rig.run(["deactivate", "--session", "nav"])
    try Self.waitFor("pacat's volume to be restored") {
      try Self.pacatStream(rig)?.volumes == original.volumes
    }

    // The podcast comes back: non-mixable, it interrupts the app, whose stream is muted.
    try Self.play(rig, "podcast")
    try Self.waitFor("pacat's stream to be muted") { try Self.pacatStream(rig)?.muted == true }
    #expect(try Self.session(rig, app)?["interrupted"] == .bool(true))

    // The podcast ends, notifying others: the app is told it may resume, and is unmuted.
    try rig.run(["stop", "--session", "podcast"])
    try rig.run(["deactivate", "--session", "podcast", "--notify-others"])
    try Self.waitFor("pacat's stream to be unmuted") { try Self.pacatStream(rig)?.muted == false }

    // It quits: its session goes.
    kill(pacat.pid, SIGTERM)
    _ = pacat.waitForExit(seconds: 5)
    try Self.waitFor("the app session to go") { try !Self.sessionNames(rig).contains(app) }
  }

  @Test(
    "a program's phone stream is the call and its own session: playAndRecord voiceChat and active while the call mutes the music program (docs/apps.md Calls)",
    arguments: PulseDaemonServerLossTests.Kind.allCases)
  func phoneProgramOwnsItsCall(kind: PulseDaemonServerLossTests.Kind) async throws {
    let rig = try await Rig.start(kind)
    defer { rig.stop() }
    let music = try Self.pacat(rig, ["--property=media.role=music"])
    defer { Self.stop(music) }
    try Self.waitUntilPlaying(rig, "pacat.\(music.pid)")

    let phone = try Self.pacat(rig, ["--property=media.role=phone"])
    defer { Self.stop(phone) }
    let caller = "pacat.\(phone.pid)"
    try Self.waitUntilPlaying(rig, caller)
    try Self.waitFor("the call to be shown") {
      guard case .object(let system)? = try rig.status()["system"] else { return false }
      return system["call"] == .bool(true)
    }
    // Its session got the rule's configuration, which a call refuses to every other session,
    // and the call did not interrupt it.
    let session = try #require(try Self.session(rig, caller))
    #expect(session["category"] == .string("playAndRecord"), "\(session)")
    #expect(session["mode"] == .string("voiceChat"))
    #expect(session["active"] == .bool(true))
    #expect(session["interrupted"] == .bool(false))
    #expect(try Self.pacatStream(rig, pid: phone.pid)?.muted == false)
    // The music program is interrupted by the call: muted.
    try Self.waitFor("the music to be muted") {
      try Self.pacatStream(rig, pid: music.pid)?.muted == true
    }

    // The call ends with its program: the music is heard again.
    Self.stop(phone)
    try Self.waitFor("the music to be unmuted") {
      try Self.pacatStream(rig, pid: music.pid)?.muted == false
    }
    try Self.waitFor("the caller's session to go") { try !Self.sessionNames(rig).contains(caller) }
  }

  @Test(
    "a pacat recording without a role is a playAndRecord app session whose recording stream is muted while interrupted; one recording a monitor is no session (docs/apps.md)",
    arguments: PulseDaemonServerLossTests.Kind.allCases)
  func recordingIsArbitrated(kind: PulseDaemonServerLossTests.Kind) async throws {
    let rig = try await Rig.start(kind)
    defer { rig.stop() }
    let environment = ProcessInfo.processInfo.environment.merging(rig.environment) { $1 }
    // A microphone (a source that is no monitor), a level meter on the output's monitor, and a
    // recorder on the microphone.
    let sink = try Self.pactl(rig, ["get-default-sink"])
    _ = try Self.pactl(
      rig, ["load-module", "module-remap-source", "master=\(sink).monitor", "source_name=mic"])
    let meter = try ChildProcess.spawn(
      "/usr/bin/pacat", arguments: ["--record", "--device=\(sink).monitor"],
      environment: environment, output: .null, newProcessGroup: true)
    let recorder = try ChildProcess.spawn(
      "/usr/bin/pacat", arguments: ["--record", "--device=mic"], environment: environment,
      output: .null, newProcessGroup: true)
    defer {
      for child in [meter, recorder] where child.isRunning {
        kill(child.pid, SIGTERM)
        _ = child.waitForExit(seconds: 5)
      }
    }
    let app = "pacat.\(recorder.pid)"
    try Self.waitUntilPlaying(rig, app)
    #expect(try Self.session(rig, app)?["category"] == .string("playAndRecord"))
    #expect(try !Self.sessionNames(rig).contains("pacat.\(meter.pid)"))
    let recording = { try Self.pacatStream(rig, list: "source-outputs", pid: recorder.pid) }
    #expect(try recording()?.muted == false)

    // A non-mixable session interrupts it: its recording is muted on the server, then not.
    try Self.play(rig, "music", ["playback"])
    try Self.waitFor("the recording to be muted") { try recording()?.muted == true }
    #expect(try Self.session(rig, app)?["interrupted"] == .bool(true))
    try rig.run(["stop", "--session", "music"])
    try rig.run(["deactivate", "--session", "music", "--notify-others"])
    try Self.waitFor("the recording to be unmuted") { try recording()?.muted == false }
    #expect(try !Self.sessionNames(rig).contains("pacat.\(meter.pid)"))
  }

  @Test(
    "a program's stream follows its session's route change: headphones plugged move a pacat that chose the speaker to them (docs/apps.md)",
    arguments: PulseDaemonServerLossTests.Kind.allCases)
  func appStreamFollowsRouteChange(kind: PulseDaemonServerLossTests.Kind) async throws {
    let rig = try await Rig.start(kind)
    defer { rig.stop() }
    // The speaker is the configured default: the server keeps it when headphones come, and
    // moves no stream itself.
    let speaker = try Self.pactl(rig, ["get-default-sink"])
    _ = try Self.pactl(rig, ["set-default-sink", speaker])
    let pacat = try Self.pacat(rig, ["--property=media.role=music", "--device=\(speaker)"])
    defer { Self.stop(pacat) }
    let app = "pacat.\(pacat.pid)"
    try Self.waitUntilPlaying(rig, app)
    let sinkOfPacat = { () throws -> String? in
      let inputs = try Self.pactl(rig, ["list", "short", "sink-inputs"])
      let sinks = try Self.pactl(rig, ["list", "short", "sinks"])
      // Sink inputs: index, sink index, client, driver, spec; sinks: index, name, ...
      let sinkIndex = inputs.split(separator: "\n").map { $0.split(separator: "\t") }
        .first { _ in true }?[1]
      return sinks.split(separator: "\n").map { $0.split(separator: "\t") }
        .first { $0[0] == sinkIndex }.map { String($0[1]) }
    }
    #expect(try sinkOfPacat() == speaker)
    let headphones = try Self.headphones()
    _ = try Self.pactl(rig, ["load-module", "module-null-sink", headphones])
    try Self.waitFor("the app's stream on the headphones") { try sinkOfPacat() == "cans" }
    #expect(try Self.session(rig, app)?["playing"] == .bool(true))
  }

  /// `module-null-sink`'s arguments for wired headphones named `cans`.
  static func headphones() throws -> String {
    try PulseModuleArguments.make(
      ["sink_name": "cans"],
      propertyLists: [
        "sink_properties": [
          "device.description": "Headphones", "device.form_factor": "headphone",
          "device.bus": "pci",
        ]
      ])
  }

  /// Starts `pacat` playing with `arguments` on the rig's server, fed from /dev/zero.
  static func pacat(_ rig: Rig, _ arguments: [String]) throws -> ChildProcess {
    let zero = open("/dev/zero", O_RDONLY)
    defer { close(zero) }
    return try ChildProcess.spawn(
      "/usr/bin/pacat", arguments: arguments,
      environment: ProcessInfo.processInfo.environment.merging(rig.environment) { $1 },
      input: .descriptor(zero), newProcessGroup: true)
  }

  /// Configures the session (when `configuration` is given: `set`'s arguments), activates it
  /// and plays it, as `sessionctl` commands.
  static func play(_ rig: Rig, _ session: String, _ configuration: [String]? = nil) throws {
    if let configuration { try rig.run(["set"] + configuration + ["--session", session]) }
    try rig.run(["activate", "--session", session])
    try rig.run(["play", "--session", session])
  }

  /// Waits until the session named `name` plays.
  static func waitUntilPlaying(_ rig: Rig, _ name: String) throws {
    try waitFor("\(name) to play") { try session(rig, name)?["playing"] == .bool(true) }
  }

  static func stop(_ child: ChildProcess, signal: Int32 = SIGTERM) {
    guard child.isRunning else { return }
    kill(child.pid, signal)
    _ = child.waitForExit(seconds: 5)
  }

  @Test(
    "a server restart re-learns the app sessions: the dead program's goes, one started after is arbitrated on the new server (docs/apps.md)",
    arguments: PulseDaemonServerLossTests.Kind.allCases)
  func serverRestartRelearns(kind: PulseDaemonServerLossTests.Kind) async throws {
    let rig = try await Rig.start(kind)
    defer { rig.stop() }
    let before = try Self.pacat(rig, ["--property=media.role=music"])
    defer { Self.stop(before) }
    try Self.waitUntilPlaying(rig, "pacat.\(before.pid)")
    try rig.server.restart()
    // pacat does not reconnect: it exits, and its session goes with the old server's streams.
    try Self.waitFor("the first app session to go") {
      try !Self.sessionNames(rig).contains("pacat.\(before.pid)")
    }
    let after = try Self.pacat(rig, ["--property=media.role=music"])
    defer { Self.stop(after) }
    let app = "pacat.\(after.pid)"
    try Self.waitUntilPlaying(rig, app)
    try Self.play(rig, "podcast", ["playback", "--mode", "spokenAudio"])
    try Self.waitFor("the new program's stream to be muted") {
      try Self.pacatStream(rig, pid: after.pid)?.muted == true
    }
  }

  @Test(
    "the daemon's own streams take no mute the server remembers for their role: a podcast that interrupts a music program plays its own stream unmuted, though the music's mute was just saved for the role (docs/apps.md \"Our own streams never leak\")",
    arguments: PulseDaemonServerLossTests.Kind.allCases)
  func ownStreamsTakeNoRememberedMute(kind: PulseDaemonServerLossTests.Kind) async throws {
    let rig = try await Rig.start(kind)
    defer { rig.stop() }
    let music = try Self.pacat(rig, ["--property=media.role=music"])
    defer { Self.stop(music) }
    try Self.waitUntilPlaying(rig, "pacat.\(music.pid)")
    for round in 0..<2 {
      try Self.play(rig, "podcast", round == 0 ? ["playback", "--mode", "spokenAudio"] : nil)
      try Self.waitFor("the music to be muted") {
        try Self.pacatStream(rig, pid: music.pid)?.muted == true
      }
      // The server restores a new stream's saved state a moment after it appears.
      usleep(500_000)
      let own = try #require(try Self.pacatStream(rig, binary: "audiosessiond"))
      #expect(!own.muted, "round \(round): the podcast's own stream was muted")
      try rig.run(["stop", "--session", "podcast"])
      try rig.run(["deactivate", "--session", "podcast", "--notify-others"])
      try Self.waitFor("the music to be unmuted") {
        try Self.pacatStream(rig, pid: music.pid)?.muted == false
      }
    }
  }

  @Test(
    "programs killed while ducked or muted leave nothing behind, not even in the server's stream database: the next program's stream is neither muted nor ducked (docs/apps.md)",
    arguments: PulseDaemonServerLossTests.Kind.allCases)
  func appDiesMidDecision(kind: PulseDaemonServerLossTests.Kind) async throws {
    let rig = try await Rig.start(kind)
    defer { rig.stop() }
    // A desktop server remembers each program's last volume and mute (the rig's pulseaudio
    // through module-stream-restore, pipewire-pulse through WirePlumber): a program that dies
    // ducked must not start ducked next time.
    try rig.run(["set", "playback", "--options", "duckOthers", "--session", "nav"])
    try rig.run(["set", "playback", "--mode", "spokenAudio", "--session", "podcast"])
    for round in 0..<6 {
      let doomed = try Self.pacat(rig, ["--property=media.role=music"])
      try Self.waitUntilPlaying(rig, "pacat.\(doomed.pid)")
      // A prompt ducks it, or a podcast interrupts (mutes) it, while it dies.
      let session = round % 2 == 0 ? "nav" : "podcast"
      try Self.play(rig, session)
      try Self.waitFor("the decision on the server") {
        guard let stream = try Self.pacatStream(rig, pid: doomed.pid) else { return false }
        return session == "nav" ? stream.volumes.allSatisfy { $0 < 65536 } : stream.muted
      }
      Self.stop(doomed, signal: SIGKILL)
      try rig.run(["stop", "--session", session])
      try rig.run(["deactivate", "--session", session])
      try Self.waitFor("its session to go") {
        try !Self.sessionNames(rig).contains("pacat.\(doomed.pid)")
      }
    }
    let next = try Self.pacat(rig, ["--property=media.role=music"])
    defer { Self.stop(next) }
    try Self.waitUntilPlaying(rig, "pacat.\(next.pid)")
    let stream = try #require(try Self.pacatStream(rig, pid: next.pid))
    #expect(!stream.muted)
    let full = 65536
    #expect(stream.volumes.allSatisfy { $0 == full }, "\(stream.volumes)")
  }

  @Test(
    "a second program of the same role does not inherit the first one's mute or ducked volume through the server's stream database (docs/apps.md)",
    arguments: PulseDaemonServerLossTests.Kind.allCases)
  func noInheritanceBetweenPrograms(kind: PulseDaemonServerLossTests.Kind) async throws {
    let rig = try await Rig.start(kind)
    defer { rig.stop() }
    let first = try Self.pacat(rig, ["--property=media.role=music"])
    defer { Self.stop(first) }
    try Self.waitUntilPlaying(rig, "pacat.\(first.pid)")
    // The first is interrupted (muted); a second music player starts and interrupts in turn.
    try Self.play(rig, "podcast", ["playback", "--mode", "spokenAudio"])
    try Self.waitFor("the first to be muted") {
      try Self.pacatStream(rig, pid: first.pid)?.muted == true
    }
    let second = try Self.pacat(rig, ["--property=media.role=music"])
    defer { Self.stop(second) }
    try Self.waitUntilPlaying(rig, "pacat.\(second.pid)")
    usleep(500_000)  // the server's stream database acts a moment after the stream appears
    #expect(try Self.pacatStream(rig, pid: second.pid)?.muted == false)
    #expect(try Self.pacatStream(rig, pid: first.pid)?.muted == true)

    // A prompt ducks the second; a third starts meanwhile; when the prompt ends, both are back
    // at full volume.
    try Self.play(rig, "nav", ["playback", "--options", "duckOthers"])
    try Self.waitFor("the second to be ducked") {
      try Self.pacatStream(rig, pid: second.pid)?.volumes.allSatisfy { $0 < 65536 } == true
    }
    let third = try Self.pacat(rig, ["--property=media.role=music", "--property=media.name=third"])
    defer { Self.stop(third) }
    try Self.waitFor("the third app session") {
      try Self.session(rig, "pacat.\(third.pid)") != nil
    }
    usleep(500_000)
    try rig.run(["stop", "--session", "nav"])
    try rig.run(["deactivate", "--session", "nav"])
    try Self.waitFor("the second and the third at full volume") {
      let streams = [
        try Self.pacatStream(rig, pid: second.pid), try Self.pacatStream(rig, pid: third.pid),
      ]
      return streams.allSatisfy { $0?.volumes.allSatisfy { $0 == 65536 } == true }
    }
    let secondNow = try Self.pacatStream(rig, pid: second.pid)
    let thirdNow = try Self.pacatStream(rig, pid: third.pid)
    let statusNow = try rig.run(["status"])
    #expect(
      thirdNow?.volumes == [65536, 65536],
      "second \(secondNow as Any), third \(thirdNow as Any), \(statusNow)")
  }

  @Test(
    "a library client's own real stream belongs to its session: ducked and muted on the server as the engine decides, no app session of its own (docs/apps.md Our own streams never leak)",
    arguments: PulseDaemonServerLossTests.Kind.allCases)
  func libraryClientOwnsItsRealStream(kind: PulseDaemonServerLossTests.Kind) async throws {
    let rig = try await Rig.start(kind)
    defer { rig.stop() }
    // This test process is the app: a library session, and audio of its own on the server (a
    // plain libpulse stream, as GStreamer or SDL would open).
    let player = try AVAudioSession(name: "player", connection: .daemon(socketPath: rig.socket))
    try player.setCategory(.playback)
    try player.setActive(true)
    let context = try PulseContext(name: "the-app")
    defer { context.disconnect() }
    try await context.connect(to: rig.server.serverString, cookieFile: rig.server.cookieFile)
    let stream = try PulsePlaybackStream(
      context: context, name: "song", properties: ["media.role": "music"])
    try await stream.connect()
    defer { stream.disconnect() }
    let index = try #require(stream.index)
    let own = { () async throws -> PulseSinkInput? in
      try await context.sinkInputs().first { $0.index == index }
    }
    try await Task.sleep(for: .milliseconds(300))
    #expect(try Self.sessionNames(rig).allSatisfy { !$0.hasSuffix(".\(getpid())") })
    #expect(try Self.session(rig, "player")?["owner"] == .string("client"))

    // A prompt ducks it: its real stream is lowered.
    try Self.play(rig, "nav", ["playback", "--options", "duckOthers"])
    var ducked = false
    for _ in 0..<100 where !ducked {
      ducked = try await own()?.channelVolumes.allSatisfy { $0.rawValue < 65536 } == true
      if !ducked { try await Task.sleep(for: .milliseconds(50)) }
    }
    #expect(ducked)
    try rig.run(["stop", "--session", "nav"])
    try rig.run(["deactivate", "--session", "nav"])

    // A podcast interrupts it: its real stream is muted.
    try Self.play(rig, "podcast", ["playback", "--mode", "spokenAudio"])
    var muted = false
    for _ in 0..<100 where !muted {
      muted = try await own()?.isMuted == true
      if !muted { try await Task.sleep(for: .milliseconds(50)) }
    }
    #expect(muted)
  }
}
