import AudioSession
import AudioSessionPulse
import AudioSessionSystem
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Real programs as a desktop runs them, judged on the server and by ear (docs/apps.md "Sessions
/// of other programs", "Rules", "Focus"): a call made of two processes is one app and silences
/// none of itself; speech ducks the music, which stays audible, as the sink's monitor records.
@Suite(.serialized) struct DesktopAppsPulseTests {
  typealias Rig = PulseDaemonServerLossTests.Rig
  typealias Apps = AppStreamsPulseTests

  static var environment: [String: String] { ProcessInfo.processInfo.environment }

  @Test(
    "a call whose recording and playback come from two processes of one program is one call session: nothing of it is muted, and it silences the music (docs/apps.md \"Sessions of other programs\", Calls)",
    arguments: PulseDaemonServerLossTests.Kind.allCases)
  func twoProcessCall(kind: PulseDaemonServerLossTests.Kind) async throws {
    let rig = try await Rig.start(kind)
    defer { rig.stop() }
    let music = try Apps.pacat(rig, ["--property=media.role=music"])
    defer { Apps.stop(music) }
    try Apps.waitUntilPlaying(rig, "pacat.\(music.pid)")

    // As a browser's WebRTC call: no role.
    let call = try Self.startCall(rig, role: nil)
    defer { Self.endCall(call) }
    let session = "pacat.\(call.pid)"
    try Apps.waitFor("the call's session to record and play") {
      try Apps.session(rig, session)?["mode"] == .string("voiceChat")
        && Apps.session(rig, session)?["playing"] == .bool(true)
    }
    #expect(try Apps.session(rig, session)?["category"] == .string("playAndRecord"))
    #expect(try Apps.sessionNames(rig).filter { $0.hasPrefix("pacat.") }.count == 2)
    // The music is silenced; nothing of the call is.
    try Apps.waitFor("the music to be muted") {
      try Apps.pacatStream(rig, pid: music.pid)?.muted == true
    }
    usleep(300_000)
    let playback = try Self.streams(rig, "sink-inputs").filter { $0.pid != music.pid }
    let recording = try Self.streams(rig, "source-outputs")
    #expect(playback.count == 1 && recording.count == 1, "\(playback) \(recording)")
    #expect(playback.allSatisfy { !$0.muted } && recording.allSatisfy { !$0.muted })

    // The call ends: the music is heard again.
    Self.endCall(call)
    try Apps.waitFor("the music to be unmuted") {
      try Apps.pacatStream(rig, pid: music.pid)?.muted == false
    }
  }

  /// A program that speaks: espeak-ng on its own, or `spd-say` through speech-dispatcher (a
  /// daemon of its own, started on demand, with its output modules as other processes).
  enum Speaker: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case espeak = "espeak-ng", speechDispatcher = "spd-say"
    var testDescription: String { rawValue }
  }

  @Test(
    "speech (espeak-ng, or spd-say through speech-dispatcher's processes) ducks the music, which is heard throughout at about -20 dB and at full level after, while the speech is heard at its own level, never ducked by itself, as the sink's monitor records (docs/apps.md Rules, Speech)",
    arguments: PulseDaemonServerLossTests.Kind.allCases, Speaker.allCases)
  func speechDucksMusic(kind: PulseDaemonServerLossTests.Kind, speaker: Speaker) async throws {
    let rig = try await Rig.start(kind)
    defer { rig.stop() }
    let sink = try Apps.pactl(rig, ["get-default-sink"])
    // speech-dispatcher's socket, pid file and logs go in the runtime dir: a private one.
    let runtime = rig.folder + "/run"
    try FileManager.default.createDirectory(
      atPath: runtime, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
    var environment = Self.environment.merging(rig.environment) { $1 }
    environment["XDG_RUNTIME_DIR"] = runtime
    let folder = rig.folder
    let tone = folder + "/tone.wav"
    try Self.writeTone(Self.toneFrequency, seconds: 30, to: tone)
    let player = try ChildProcess.spawn(
      "/usr/bin/paplay", arguments: ["--property=media.role=music", tone],
      environment: environment, newProcessGroup: true)
    defer { Apps.stop(player) }
    try Apps.waitUntilPlaying(rig, "pacat.\(player.pid)")

    let recording = folder + "/monitor.raw"
    let recorder = try Self.record(sink, environment, to: recording)
    defer { Apps.stop(recorder) }
    // A second of the music alone first.
    try Self.waitForRecording(recording, seconds: 1)
    let words = "one two three four five six seven eight nine ten"
    let speech =
      switch speaker {
      case .espeak:
        try ChildProcess.spawn(
          "/usr/bin/espeak-ng", arguments: [words], environment: environment,
          newProcessGroup: true)
      case .speechDispatcher:
        try ChildProcess.spawn(
          "/usr/bin/spd-say", arguments: ["--wait", words], environment: environment,
          newProcessGroup: true)
      }
    #expect(speech.waitForExit(seconds: 20))
    // speech-dispatcher keeps its streams open and running after it speaks (docs/apps.md
    // Speech): silent for a second, they count as paused, and the music comes back while they
    // are still there. Waited for as the daemon says it, then a second more of the recording
    // (what the monitor recorded from then on is at full level).
    let music = "pacat.\(player.pid)"
    try Apps.waitFor("the music to come back") {
      try Apps.session(rig, music)?["ducked"] == .bool(false)
    }
    let unducked =
      (try? FileManager.default.attributesOfItem(atPath: recording)[.size] as? Int) ?? 0
    try Apps.waitFor("a second of recording after the music came back") {
      ((try? FileManager.default.attributesOfItem(atPath: recording)[.size] as? Int) ?? 0)
        >= unducked + 88_200
    }
    Apps.stop(recorder)
    if speaker == .speechDispatcher {
      let pidFile = runtime + "/speech-dispatcher/pid/speech-dispatcher.pid"
      let daemon = try #require(
        pid_t(
          String(decoding: try Data(contentsOf: URL(fileURLWithPath: pidFile)), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)))
      defer { kill(daemon, SIGTERM) }
      #expect(kill(daemon, 0) == 0, "speech-dispatcher left before the recording ended")
      #expect(try Apps.session(rig, "speech-dispatcher")?["active"] == .bool(false))
    }

    let windows = try Self.listen(recording)
    let full = Double(Self.toneAmplitude)
    let spoken = windows.dropFirst(2).filter { $0.other > 500 }
    #expect(spoken.count >= 5, "speech was heard in \(spoken.count) windows of 100 ms")
    // Never silenced while speech plays, and ducked (-20 dB is 0.1 of full) most of the time.
    #expect(spoken.allSatisfy { $0.tone > 0.03 * full }, "\(spoken.map(\.tone))")
    let ducked = spoken.filter { $0.tone < 0.2 * full }
    #expect(ducked.count * 10 >= spoken.count * 7, "\(spoken.map(\.tone))")
    // The speech at its own level: its loud quarter well above what a -20 dB copy of it gives
    // (ducked by one of its own processes, speech-dispatcher's peaked near 1,000 here; its own
    // level peaks near 10,000).
    let loud = spoken.map(\.other).sorted().dropFirst(spoken.count * 3 / 4).first ?? 0
    #expect(loud > 2500, "\(spoken.map(\.other))")
    // Before and after: at full level.
    // (The recording's first 200 ms are left out: its start cuts the tone mid-window.)
    let before = windows.dropFirst(2).prefix { $0.other <= 500 }
    #expect(
      before.count >= 3 && before.allSatisfy { $0.tone > 0.9 * full }, "\(windows.prefix(12))")
    #expect(windows.suffix(3).allSatisfy { $0.tone > 0.9 * full }, "\(windows.suffix(3))")
  }

  // Headphones plugged in during a program's call once gave the call
  // noSuitableRouteForCategory (its two streams were two sessions); iOS says newDeviceAvailable.
  @Test(
    "headphones plugged in during a program's call give the call's app session a route change with reason newDeviceAvailable (docs/apps.md Calls; docs/avaudiosession.md §7)",
    arguments: PulseDaemonServerLossTests.Kind.allCases)
  func plugDuringCall(kind: PulseDaemonServerLossTests.Kind) async throws {
    let rig = try await Rig.start(kind)
    defer { rig.stop() }
    // A call as a softphone makes it, with the phone role.
    let call = try Self.startCall(rig, role: "phone")
    defer { Self.endCall(call) }
    let session = "pacat.\(call.pid)"
    try Apps.waitUntilPlaying(rig, session)
    let watcher = try MPRISPulseTests.Watcher(rig)
    defer { watcher.stop() }

    _ = try Apps.pactl(rig, ["load-module", "module-null-sink"] + [try Apps.headphones()])
    let change = watcher.next {
      $0.contains(#""session":"\#(session)""#) && $0.contains(#""event":"routeChange""#)
    }
    #expect(change?.contains(#""reason":"newDeviceAvailable""#) == true, "\(change ?? "none")")
    #expect(change?.contains(#""portType":"headphones""#) == true, "\(change ?? "none")")
  }

  /// A call one job makes (a process group of its own, as a shell with job control starts it):
  /// its recording (from a `mic` made from the default sink's monitor) and its playback in two
  /// `pacat` processes, with `media.role` `role` on both, or none.
  static func startCall(_ rig: Rig, role: String?) throws -> ChildProcess {
    let sink = try Apps.pactl(rig, ["get-default-sink"])
    _ = try Apps.pactl(
      rig, ["load-module", "module-remap-source", "master=\(sink).monitor", "source_name=mic"])
    let property = role.map { " --property=media.role=\($0)" } ?? ""
    return try ChildProcess.spawn(
      "/bin/sh",
      arguments: [
        "-c",
        "pacat --record --device=mic\(property) >/dev/null & "
          + "pacat --latency-msec=20\(property) </dev/zero & wait",
      ],
      environment: Self.environment.merging(rig.environment) { $1 }, newProcessGroup: true)
  }

  /// Ends a call of ``startCall(_:role:)``: both its processes.
  static func endCall(_ call: ChildProcess) {
    kill(-call.pid, SIGTERM)
    _ = call.waitForExit(seconds: 5)
  }

  // A program that speaks PipeWire's own protocol (pw-play), in
  // the server's runtime dir as on a desktop, is an app by its process, and a call silences it.
  @Test(
    "a native PipeWire program (pw-play) is an app session named after its process; a program's call interrupts it and it is silent on the speaker's monitor until the call ends (docs/apps.md \"On the server\", Calls)"
  )
  func nativeProgramSilencedByCall() async throws {
    let rig = try await Rig.start(.pipewire)
    defer { rig.stop() }
    let server = try #require(rig.server as? PipeWirePrivateServer)
    let sink = try Apps.pactl(rig, ["get-default-sink"])
    // Natively, as a desktop's programs connect: the server's runtime dir, no PULSE_SERVER.
    var native = Self.environment.filter { $0.key != "PULSE_SERVER" }
    native["XDG_RUNTIME_DIR"] = server.runtimeDirectory
    let tone = rig.folder + "/tone.wav"
    try Self.writeTone(Self.toneFrequency, seconds: 30, to: tone)
    let player = try ChildProcess.spawn(
      "/usr/bin/pw-play", arguments: ["--media-role=Music", tone], environment: native,
      newProcessGroup: true)
    defer { Apps.stop(player) }
    // pw-play is pw-cat: its streams name that binary, with its process found (docs/apps.md
    // "Owners").
    let app = "pw-cat.\(player.pid)"
    try Apps.waitUntilPlaying(rig, app)

    let recording = rig.folder + "/monitor.raw"
    let recorder = try Self.record(
      sink, Self.environment.merging(rig.environment) { $1 }, to: recording)
    defer { Apps.stop(recorder) }
    try Self.waitForRecording(recording, seconds: 1)
    let phone = try Apps.pacat(rig, ["--property=media.role=phone", "--latency-msec=20"])
    try Apps.waitFor("\(app) to be interrupted") {
      try Apps.session(rig, app)?["interrupted"] == .bool(true)
    }
    try Self.waitForRecording(recording, seconds: 3)
    Apps.stop(phone)
    try Apps.waitFor("\(app) to play again") {
      try Apps.session(rig, app)?["interrupted"] == .bool(false)
    }
    try Self.waitForRecording(recording, seconds: 5)
    Apps.stop(recorder)

    // Heard, then silent through the call (after the 100 ms windows the call's start and end
    // straddle), then heard again.
    let tones = try Self.listen(recording).map(\.tone)
    let full = Double(Self.toneAmplitude)
    let heard = tones.indices.filter { tones[$0] > 0.5 * full }
    let silent = tones.indices.filter { tones[$0] < 0.01 * full }
    #expect(heard.first.map { $0 < 10 } == true, "\(tones.map(Int.init))")
    #expect(silent.count >= 10, "\(tones.map(Int.init))")
    // The silence is one stretch between sound, with nothing of the tone inside it.
    if let first = silent.first, let last = silent.last {
      #expect(
        heard.contains { $0 < first } && heard.contains { $0 > last }, "\(tones.map(Int.init))")
      #expect(
        tones[first...last].allSatisfy { $0 < 0.01 * full }, "\(tones.map(Int.init))")
    }
  }

  @Test(
    "a program's stream the user moves to another sink makes that sink its app session's route, and status shows where it plays; one that starts on another sink than its route's is taken where it plays (docs/apps.md \"On the server\")",
    arguments: PulseDaemonServerLossTests.Kind.allCases)
  func movedStreamIsTheRoute(kind: PulseDaemonServerLossTests.Kind) async throws {
    let rig = try await Rig.start(kind)
    defer { rig.stop() }
    // A speaker of its own (pipewire's rig has only a placeholder sink), then headphones,
    // plugged last: a program that asks for the speaker starts there.
    let speaker = "desk"
    _ = try Apps.pactl(rig, ["load-module", "module-null-sink", "sink_name=\(speaker)"])
    _ = try Apps.pactl(rig, ["load-module", "module-null-sink"] + [try Apps.headphones()])
    try Apps.waitFor("the speaker and the headphones to be devices") {
      let devices = try rig.run(["devices"])
      return devices.contains("headphones") && devices.contains(speaker)
    }
    let pacat = try Apps.pacat(rig, ["--property=media.role=music", "--device=\(speaker)"])
    defer { Apps.stop(pacat) }
    let app = "pacat.\(pacat.pid)"
    try Apps.waitUntilPlaying(rig, app)
    // The route names the sink it plays on (on pipewire the stream may first show on the
    // default sink, and WirePlumber links it to the one it asked for a moment later: a move
    // before that link may be undone by it).
    try Apps.waitFor("\(app)'s route to be the speaker it plays on") {
      try Self.output(rig, app) == "builtInSpeaker" && Self.output(rig, app, "uid") == speaker
    }
    // The user moves it to the headphones: its route follows. (PipeWire 0.3 may drop a move
    // made while WirePlumber still links the new stream, with or without the daemon: the user
    // sees it stay and moves it again. The daemon moves it nowhere, or this fails.)
    let index = try #require(try Self.sinkInput(rig, of: pacat.pid))
    let cans = try #require(try Self.sinkIndex(rig, "cans"))
    for _ in 0..<5 {
      _ = try Apps.pactl(rig, ["move-sink-input", "\(index)", "cans"])
      usleep(300_000)
      if try Self.streams(rig, "sink-inputs").first(where: { $0.index == index })?.device == cans {
        break
      }
    }
    try Apps.waitFor("\(app)'s route to be the headphones") {
      try Self.output(rig, app) == "headphones"
    }
  }

  @Test(
    "a volume the user sets while a program is ducked is the volume after the ducking (docs/apps.md \"On the server\")",
    arguments: PulseDaemonServerLossTests.Kind.allCases)
  func userVolumeDuringDucking(kind: PulseDaemonServerLossTests.Kind) async throws {
    let rig = try await Rig.start(kind)
    defer { rig.stop() }
    let pacat = try Apps.pacat(rig, ["--property=media.role=music"])
    defer { Apps.stop(pacat) }
    try Apps.waitUntilPlaying(rig, "pacat.\(pacat.pid)")
    let original = try #require(try Apps.pacatStream(rig, pid: pacat.pid))
    try Apps.play(rig, "nav", ["playback", "--options", "duckOthers"])
    try Apps.waitFor("pacat's stream to be ducked") {
      try Apps.pacatStream(rig, pid: pacat.pid)?.volumes.allSatisfy {
        $0 < original.volumes[0] / 2
      } == true
    }
    let index = try #require(try Self.sinkInput(rig, of: pacat.pid))
    _ = try Apps.pactl(rig, ["set-sink-input-volume", "\(index)", "50%"])
    try Apps.waitFor("the user's volume to be on the server") {
      try Apps.pacatStream(rig, pid: pacat.pid)?.volumes.allSatisfy { $0 == 32768 } == true
    }
    try rig.run(["stop", "--session", "nav"])
    try rig.run(["deactivate", "--session", "nav"])
    try Apps.waitFor("nav to be inactive") {
      try Apps.session(rig, "nav")?["active"] == .bool(false)
    }
    usleep(500_000)
    #expect(try Apps.pacatStream(rig, pid: pacat.pid)?.volumes.allSatisfy { $0 == 32768 } == true)
  }

  /// The index of a program's playback stream.
  static func sinkInput(_ rig: Rig, of pid: pid_t) throws -> Int? {
    try streams(rig, "sink-inputs").first { $0.pid == pid }?.index
  }

  /// The index of the sink named `name`.
  static func sinkIndex(_ rig: Rig, _ name: String) throws -> Int? {
    let output = try Apps.pactl(rig, ["-f", "json", "list", "sinks"])
    guard
      case .array(let items) = try JSONParser.parse(Array(output.utf8), options: .document).value
    else { return nil }
    for case .object(let sink) in items {
      if case .string(name)? = sink["name"], case .int(let index)? = sink["index"] { return index }
    }
    return nil
  }

  /// A member (`portType`, `uid`) of a session's first output in `status --json`.
  static func output(_ rig: Rig, _ session: String, _ member: String = "portType") throws
    -> String?
  {
    guard case .object(let route)? = try Apps.session(rig, session)?["route"],
      case .array(let outputs)? = route["outputs"], case .object(let first)? = outputs.first,
      case .string(let value)? = first[member]
    else { return nil }
    return value
  }

  static let toneFrequency = 5000.0
  static let toneAmplitude: Int16 = 8000

  /// A mono 44.1 kHz 16-bit WAV file of a sine.
  static func writeTone(_ frequency: Double, seconds: Int, to path: String) throws {
    let count = 44100 * seconds
    var data = Data()
    func put(_ value: UInt32, _ bytes: Int) {
      for shift in 0..<bytes { data.append(UInt8((value >> (8 * shift)) & 0xff)) }
    }
    data.append(contentsOf: Array("RIFF".utf8))
    put(UInt32(36 + count * 2), 4)
    data.append(contentsOf: Array("WAVEfmt ".utf8))
    put(16, 4)
    put(1, 2)
    put(1, 2)
    put(44100, 4)
    put(88200, 4)
    put(2, 2)
    put(16, 2)
    data.append(contentsOf: Array("data".utf8))
    put(UInt32(count * 2), 4)
    for i in 0..<count {
      let value = Int16(Double(toneAmplitude) * sin(2 * Double.pi * frequency * Double(i) / 44100))
      put(UInt32(UInt16(bitPattern: value)), 2)
    }
    try data.write(to: URL(fileURLWithPath: path))
  }

  /// The ear: a sink's monitor recorded with `parec` into `path`, as a level meter records it
  /// (role `test`: no session, docs/apps.md Rules), raw s16le mono at 44.1 kHz.
  static func record(_ sink: String, _ environment: [String: String], to path: String) throws
    -> ChildProcess
  {
    try ChildProcess.spawn(
      "/usr/bin/parec",
      arguments: [
        "-d", "\(sink).monitor", "--raw", "--format=s16le", "--rate=44100", "--channels=1",
        "--property=media.role=test", "--latency-msec=20",
      ], environment: environment, output: .appending(path), newProcessGroup: true)
  }

  /// Waits until a recording holds `seconds` of sound.
  static func waitForRecording(_ path: String, seconds: Int) throws {
    try Apps.waitFor("\(seconds) s of recording") {
      ((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0)
        >= 88_200 * seconds
    }
  }

  /// Each 100 ms of a raw recording: the tone's amplitude (Goertzel) and the level of the rest.
  static func listen(_ path: String, frequency: Double = toneFrequency) throws -> [(
    tone: Double, other: Double
  )] {
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    let samples = stride(from: 0, to: bytes.count - 1, by: 2).map {
      Double(Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8))
    }
    let window = 4410
    let k = 2 * cos(2 * Double.pi * frequency / 44100)
    return stride(from: 0, to: samples.count - window + 1, by: window).map { start in
      let x = samples[start..<start + window]
      var (a, b) = (0.0, 0.0)
      for value in x { (a, b) = (value + k * a - b, a) }
      let tone = 2 * (max(a * a + b * b - k * a * b, 0)).squareRoot() / Double(window)
      let power = x.reduce(0) { $0 + $1 * $1 } / Double(window)
      return (tone, max(power - tone * tone / 2, 0).squareRoot())
    }
  }

  /// Each stream of `list` (`sink-inputs`, `source-outputs`) with its index, process, mute and
  /// the index of its sink (source).
  static func streams(_ rig: Rig, _ list: String) throws -> [(
    index: Int, pid: pid_t?, muted: Bool, device: Int?
  )] {
    let output = try Apps.pactl(rig, ["-f", "json", "list", list])
    guard
      case .array(let items) = try JSONParser.parse(Array(output.utf8), options: .document).value
    else { return [] }
    return items.compactMap { item -> (index: Int, pid: pid_t?, muted: Bool, device: Int?)? in
      guard case .object(let stream) = item, case .int(let index)? = stream["index"],
        case .bool(let muted)? = stream["mute"],
        case .object(let properties)? = stream["properties"]
      else { return nil }
      // A module's stream (the microphone's remap) has no process: no program's.
      guard case .string(let text)? = properties["application.process.id"] else { return nil }
      let device: Int? =
        switch stream["sink"] ?? stream["source"] {
        case .int(let number)?: number
        default: nil
        }
      return (index, pid_t(text), muted, device)
    }
  }
}
