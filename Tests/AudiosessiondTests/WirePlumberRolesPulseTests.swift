import AudioSession
import AudioSessionPulse
import AudioSessionSystem
import AudioSessionTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The PipeWire that desktops run (PipeWire 1.4, WirePlumber 0.5), with mpv playing
/// through PipeWire's own protocol as on a desktop, judged on the server and by ear
/// (docs/pulseaudio.md §2.2; docs/apps.md "Beside WirePlumber's role policy", "A cork as a
/// stream starts"): WirePlumber's role sinks are no devices; what its role policy does (duck,
/// cork) is left to it, and the daemon adds what it never does (pausing the player, the unplug
/// pause, notifications); a native program's session survives a restart of pipewire-pulse.
@Suite(.serialized) struct WirePlumberRolesPulseTests {
  typealias Rig = PulseDaemonServerLossTests.Rig
  typealias Apps = AppStreamsPulseTests
  typealias Desktop = DesktopAppsPulseTests
  typealias Setup = MPRISPulseTests.Setup

  static var environment: [String: String] { ProcessInfo.processInfo.environment }

  /// mpv's playback stream as the server shows it (a native PipeWire client's stream carries
  /// no process id: found by its application name).
  static func mpvStream(_ rig: Rig) throws -> (
    index: Int, muted: Bool, volumes: [Int], sink: Int?
  )? {
    let output = try Apps.pactl(rig, ["-f", "json", "list", "sink-inputs"])
    guard
      case .array(let items) = try JSONParser.parse(Array(output.utf8), options: .document).value
    else { return nil }
    for case .object(let stream) in items {
      guard case .object(let properties)? = stream["properties"],
        properties["application.name"] == .string("mpv"),
        case .int(let index)? = stream["index"], case .bool(let muted)? = stream["mute"]
      else { continue }
      var volumes: [Int] = []
      if case .object(let channels)? = stream["volume"] {
        for case .object(let channel) in channels.members.map(\.value) {
          if case .int(let value)? = channel["value"] { volumes.append(value) }
        }
      }
      let sink: Int? = if case .int(let number)? = stream["sink"] { number } else { nil }
      return (index, muted, volumes, sink)
    }
    return nil
  }

  /// The amplitude of mpv's 440 Hz tone in each 100 ms of a recording.
  static func heard(_ path: String) throws -> [Double] {
    try Desktop.listen(path, frequency: 440).map(\.tone)
  }

  /// Starts recording the default sink's monitor (where the role sinks play).
  static func record(_ rig: Rig) throws -> (ChildProcess, path: String) {
    let sink = try Apps.pactl(rig, ["get-default-sink"])
    let path = rig.folder + "/monitor-\(UUID().uuidString).raw"
    let recorder = try Desktop.record(
      sink, environment.merging(rig.environment) { $1 }, to: path)
    try Desktop.waitForRecording(path, seconds: 1)
    return (recorder, path)
  }

  /// Checks that the watcher shows no `player` event (the daemon sends the player nothing) for
  /// `seconds`.
  static func expectNoPlayerEvent(_ watcher: MPRISPulseTests.Watcher, for seconds: Double) {
    let deadline = Date(timeIntervalSinceNow: seconds)
    while deadline.timeIntervalSinceNow > 0,
      let line = SessionctlProcess.readLine(
        watcher.launched.output, timeout: deadline.timeIntervalSinceNow)
    {
      #expect(!line.contains(#""event":"player""#), "\(line)")
    }
  }

  /// The native environment of the rig's PipeWire server: its runtime dir, no PULSE_SERVER.
  static func native(_ rig: Rig) throws -> [String: String] {
    let server = try #require(rig.server as? PipeWirePrivateServer)
    var native = environment.filter { $0.key != "PULSE_SERVER" }
    native["XDG_RUNTIME_DIR"] = server.runtimeDirectory
    return native
  }

  @Test(
    "WirePlumber's role sinks are no devices; a native mpv on the multimedia role sink is an app session named after its process, matched to its player, and routed to the device behind the role sink (docs/pulseaudio.md §2.2)"
  )
  func roleSinksAreRoutes() async throws {
    let setup = try await Setup.start(.pipewire, native: true, rolePolicy: true)
    defer { setup.stop() }
    let devices = try setup.rig.run(["devices", "--json"])
    #expect(!devices.contains("loopback"), "\(devices)")
    let sink = try Apps.pactl(setup.rig, ["get-default-sink"])
    #expect(!sink.contains("loopback"))
    // mpv plays on the role sink, and its route is the device behind it.
    let stream = try #require(try Self.mpvStream(setup.rig))
    #expect(try Desktop.sinkIndex(setup.rig, "input.loopback.sink.role.multimedia") == stream.sink)
    #expect(try Desktop.output(setup.rig, setup.app, "uid") == sink)
    #expect(try MPRISPulseTests.players(setup.rig, setup.app)?.count == 1)
  }

  // Once silent instead of ducked: WirePlumber ducked the prompt and the daemon muted it.
  @Test(
    "a native navigation prompt ducks the music as WirePlumber's role policy does, once: the music's session is ducked, its stream keeps its volume and mute, and it stays audible on the speaker's monitor (docs/apps.md \"Beside WirePlumber's role policy\")"
  )
  func navigationDucksOnce() async throws {
    let setup = try await Setup.start(.pipewire, native: true, rolePolicy: true)
    defer { setup.stop() }
    let rig = setup.rig
    let watcher = try MPRISPulseTests.Watcher(rig)
    defer { watcher.stop() }
    let (recorder, recording) = try Self.record(rig)
    defer { Apps.stop(recorder) }
    let tone = rig.folder + "/prompt.wav"
    try Desktop.writeTone(Desktop.toneFrequency, seconds: 4, to: tone)
    let prompt = try ChildProcess.spawn(
      "/usr/bin/pw-play", arguments: ["--media-role=Navigation", tone],
      environment: try Self.native(rig), newProcessGroup: true)
    defer { Apps.stop(prompt) }
    try Apps.waitFor("the music's session to be ducked") {
      try Apps.session(rig, setup.app)?["ducked"] == .bool(true)
    }
    let during = try #require(try Self.mpvStream(rig))
    #expect(!during.muted)
    #expect(during.volumes.allSatisfy { $0 == 65536 }, "\(during.volumes)")
    #expect(try setup.mpv.status() == "Playing")
    // Ducked, never paused: the daemon sends the player nothing.
    Self.expectNoPlayerEvent(watcher, for: 1)
    try Desktop.waitForRecording(recording, seconds: 4)
    Apps.stop(recorder)
    // Heard at full level before the prompt, lower but never silent while it speaks.
    let tones = try Self.heard(recording)
    let full = tones.prefix(8).max() ?? 0
    #expect(full > 500, "\(tones.map(Int.init))")
    let ducked = tones.suffix(from: 12).prefix(15)
    #expect(ducked.allSatisfy { $0 > 0.05 * full }, "\(tones.map(Int.init))")
    #expect(ducked.contains { $0 < 0.8 * full }, "\(tones.map(Int.init))")
  }

  // Both act: WirePlumber corks, the daemon pauses, neither mutes twice.
  @Test(
    "a program's call corks the music in WirePlumber and the daemon pauses its player over MPRIS without muting its stream; when the call ends the player plays again (docs/apps.md \"Beside WirePlumber's role policy\")"
  )
  func callCorksAndPauses() async throws {
    let setup = try await Setup.start(.pipewire, native: true, rolePolicy: true)
    defer { setup.stop() }
    let rig = setup.rig
    let call = try Desktop.startCall(rig, role: "phone")
    defer { Desktop.endCall(call) }
    try Apps.waitFor("mpv to pause") { try setup.mpv.status() == "Paused" }
    #expect(try Apps.session(rig, setup.app)?["interrupted"] == .bool(true))
    for _ in 0..<5 {
      #expect(try Self.mpvStream(rig)?.muted == false)
      usleep(100_000)
    }
    Desktop.endCall(call)
    try Apps.waitFor("mpv to play again") { try setup.mpv.status() == "Playing" }
    #expect(try Self.mpvStream(rig)?.muted == false)
  }

  // Headphones unplugged: 0 ms heard, with and without the role policy.
  @Test(
    "headphones unplugged while a native mpv plays on them: the player is paused and nothing of it is heard on the speaker, with WirePlumber's role policy or without (docs/mpris.md; docs/apps.md \"On the server\")",
    arguments: [false, true])
  func unplugNothingHeard(rolePolicy: Bool) async throws {
    let headphones = try Apps.headphones()
    var module = ""
    let setup = try await Setup.start(.pipewire, native: true, rolePolicy: rolePolicy) { rig in
      if !rolePolicy { try Rig.loadSpeaker(rig.server) }
      module = try Apps.pactl(rig, ["load-module", "module-null-sink", headphones])
      _ = try Apps.pactl(rig, ["set-default-sink", "cans"])
    }
    defer { setup.stop() }
    let rig = setup.rig
    try Apps.waitFor("mpv's session on the headphones") {
      try Desktop.output(rig, setup.app) == "headphones"
    }
    // The speaker: where the server sends the music once the headphones go.
    let sinks = try Apps.pactl(rig, ["list", "short", "sinks"]).split(separator: "\n")
    let names = sinks.compactMap { line -> String? in
      let fields = line.split(separator: "\t")
      return fields.count > 1 ? String(fields[1]) : nil
    }
    #expect(names.contains("speaker"), "\(names)")
    let speakerName = "speaker"
    let path = rig.folder + "/speaker.raw"
    let recorder = try Desktop.record(
      speakerName, Self.environment.merging(rig.environment) { $1 }, to: path)
    defer { Apps.stop(recorder) }
    // The speaker's monitor runs only while something plays on it: a silent stream keeps it.
    let keeper = try Apps.pacat(rig, ["-d", speakerName, "--property=media.role=test"])
    defer { Apps.stop(keeper) }
    try Desktop.waitForRecording(path, seconds: 1)
    _ = try Apps.pactl(rig, ["unload-module", module])
    try Apps.waitFor("mpv to pause") { try setup.mpv.status() == "Paused" }
    try Desktop.waitForRecording(path, seconds: 3)
    let afterUnplug = try Self.heard(path).count
    // The ear works: the user plays mpv again, and it is heard on the speaker.
    try setup.mpv.control("play")
    try Apps.waitFor("mpv to play") { try setup.mpv.status() == "Playing" }
    try Desktop.waitForRecording(path, seconds: 5)
    Apps.stop(recorder)
    let tones = try Self.heard(path)
    let silent = tones.prefix(afterUnplug)
    #expect(tones.suffix(5).allSatisfy { $0 > 500 }, "\(tones.map(Int.init))")
    // Milliseconds heard after the unplug: a 100 ms window at a tenth of the full level held
    // about 10 ms of the tone. The goal, 0 ms, is the bench's (pulse-bench section 8, on an idle
    // machine); here, beside a whole test run on two cores, WirePlumber's relink and our mute race
    // (both react to the sink's removal; WirePlumber hears of it one hop earlier), and up to 25
    // ms have been heard in a busy run. Heard until the pause (hundreds of ms) fails.
    let full = tones.suffix(5).max() ?? 1
    let heardMilliseconds = silent.reduce(0) { $0 + 100 * min($1 / full, 1) }
    #expect(heardMilliseconds < 40, "\(Int(heardMilliseconds)) ms: \(tones.map(Int.init))")
  }

  @Test(
    "after pipewire-pulse restarts, a native program that played on keeps its app session's configuration, and a call started afterwards pauses it (docs/apps.md \"Sessions of other programs\")"
  )
  func restartKeepsNativeSession() async throws {
    let setup = try await Setup.start(.pipewire, native: true)
    defer { setup.stop() }
    let rig = setup.rig
    let server = try #require(rig.server as? PipeWirePrivateServer)
    let watcher = try MPRISPulseTests.Watcher(rig)
    defer { watcher.stop() }
    try server.restart()
    let reset = watcher.next { $0.contains(#""event":"mediaServicesWereReset""#) }
    #expect(reset?.contains(setup.app) == true, "\(reset ?? "none")")
    try Apps.waitFor("mpv's session configured and active again") {
      try Apps.session(rig, setup.app)?["category"] == .string("playback")
        && Apps.session(rig, setup.app)?["active"] == .bool(true)
    }
    let call = try Desktop.startCall(rig, role: "phone")
    defer { Desktop.endCall(call) }
    try Apps.waitFor("mpv to pause") { try setup.mpv.status() == "Paused" }
  }

  @Test(
    "a music program whose stream corks for a moment as it starts interrupts mpv once: one Pause, no Play, mpv stays paused (docs/apps.md \"A cork as a stream starts\")",
    arguments: PulseDaemonServerLossTests.Kind.allCases)
  func startCorkSendsNoPausePlayPair(kind: PulseDaemonServerLossTests.Kind) async throws {
    let setup = try await Setup.start(kind)
    defer { setup.stop() }
    let watcher = try MPRISPulseTests.Watcher(setup.rig)
    defer { watcher.stop() }
    // A program's music stream, through libpulse as espeak-ng's: corked 15 ms after it starts,
    // playing again 15 ms later.
    let client = try PulseContext(name: "flapping program")
    defer { client.disconnect() }
    try await client.connect(to: setup.rig.server.serverString)
    let stream = try PulsePlaybackStream(
      context: client, name: "song", properties: ["media.role": "music"])
    try await stream.connect()
    defer { stream.disconnect() }
    // Both requests sent from one thread that sleeps in between, so that a busy machine (whose
    // tasks may wait long for a thread) does not make the cork last longer than a flap.
    let clock = ContinuousClock()
    let sent = clock.measure {
      usleep(15_000)
      stream.setCorked(true) { _ in }
      usleep(15_000)
      stream.setCorked(false) { _ in }
    }
    #expect(sent < .milliseconds(150), "the cork was sent and undone over \(sent)")
    let paused = watcher.nextPlayerEvent()
    #expect(paused?.contains(#""action":"pause""#) == true, "\(paused ?? "none")")
    Self.expectNoPlayerEvent(watcher, for: 1.5)
    #expect(try setup.mpv.status() == "Paused")
  }
}
