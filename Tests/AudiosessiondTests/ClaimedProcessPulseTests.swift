import AudioSession
import AudioSessionPulse
import AudioSessionSystem
import AudioSessionTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A stream that names another program's process: `application.process.id` is the client's
/// own word (`PULSE_PROP`, `PIPEWIRE_PROPS`), which neither server checks. The daemon checks it
/// against what the kernel says, so that such a stream is never taken for that program: a call
/// that interrupts it sends no Pause to the program's player (docs/apps.md "Sessions of other
/// programs", docs/mpris.md "Which player is whose").
@Suite(.serialized) struct ClaimedProcessPulseTests {
  typealias Rig = PulseDaemonServerLossTests.Rig
  typealias Apps = AppStreamsPulseTests
  typealias Kind = PulseDaemonServerLossTests.Kind

  /// The program that claims the player's pid: `pacat` through `PULSE_PROP` (a PulseAudio
  /// client, on either server), or a native PipeWire `pw-play` through `PIPEWIRE_PROPS`.
  enum Claimant: String, Sendable, CustomTestStringConvertible {
    case pacat, pwPlay
    var testDescription: String { rawValue }
    /// The start of its app session's name (pw-play is pw-cat).
    var program: String { self == .pacat ? "pacat." : "pw-cat." }
  }

  /// An mpv with mpv-mpris on `bus` that plays with no audio output (`--ao=null`): a player
  /// that is `Playing` and has no stream, so no session of its own that a call interrupts.
  static func silentPlayer(bus: String) throws -> MPVPlayer {
    var environment = ProcessInfo.processInfo.environment
    environment["DBUS_SESSION_BUS_ADDRESS"] = bus
    let process = try ChildProcess.spawn(
      "/usr/bin/mpv",
      arguments: [
        "--no-config", "--no-video", "--no-terminal", "--ao=null", "--loop-file=inf",
        "--script=\(MPVPlayer.plugin)", "av://lavfi:sine=frequency=440",
      ], environment: environment, newProcessGroup: true)
    return MPVPlayer(process: process, environment: environment)
  }

  /// A 30 s tone as a WAV file, for pw-play.
  static func toneFile() throws -> String {
    let path = NSTemporaryDirectory() + "tone-\(UUID().uuidString).wav"
    let rate = 48000
    let frames = rate * 30
    var bytes: [UInt8] = []
    func append<T: FixedWidthInteger>(_ value: T) {
      withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
    }
    bytes += Array("RIFF".utf8)
    append(UInt32(36 + frames * 2))
    bytes += Array("WAVEfmt ".utf8)
    append(UInt32(16))
    append(UInt16(1))
    append(UInt16(1))
    append(UInt32(rate))
    append(UInt32(rate * 2))
    append(UInt16(2))
    append(UInt16(16))
    bytes += Array("data".utf8)
    append(UInt32(frames * 2))
    for frame in 0..<frames {
      append(Int16(8000 * sin(2 * Double.pi * 440 * Double(frame) / Double(rate))))
    }
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return path
  }

  /// Starts the claimant, naming `pid` as its process.
  static func claimant(_ claimant: Claimant, rig: Rig, pid: Int32, tone: String) throws
    -> ChildProcess
  {
    switch claimant {
    case .pacat:
      let zero = open("/dev/zero", O_RDONLY)
      defer { close(zero) }
      var environment = ProcessInfo.processInfo.environment.merging(rig.environment) { $1 }
      environment["PULSE_PROP"] = "application.process.id=\(pid)"
      return try ChildProcess.spawn(
        "/usr/bin/pacat", arguments: ["--property=media.role=music"], environment: environment,
        input: .descriptor(zero), newProcessGroup: true)
    case .pwPlay:
      var environment = ProcessInfo.processInfo.environment
      environment["XDG_RUNTIME_DIR"] = (rig.server as? PipeWirePrivateServer)?.runtimeDirectory
      environment["PIPEWIRE_REMOTE"] = nil
      environment["PIPEWIRE_PROPS"] = "{ application.process.id = \(pid) media.role = Music }"
      return try ChildProcess.spawn(
        "/usr/bin/pw-play", arguments: [tone], environment: environment, newProcessGroup: true)
    }
  }

  @Test(
    "a stream that names a player's pid is not taken for that player's program: a call that interrupts it sends the player no Pause (docs/apps.md Sessions of other programs)",
    arguments: [
      (Kind.pulseaudio, Claimant.pacat), (.pipewire, .pacat), (.pipewire, .pwPlay),
    ])
  func claimedPid_callInterruptsClaimant_playerNotPaused(kind: Kind, claimant: Claimant)
    async throws
  {
    let bus = try PrivateSessionBus()
    defer { bus.stop() }
    let rig = try await Rig.start(kind, bus: bus.address)
    defer { rig.stop() }
    let tone = try Self.toneFile()
    defer { try? FileManager.default.removeItem(atPath: tone) }
    // Given a player that plays with no stream of its own
    let mpv = try Self.silentPlayer(bus: bus.address)
    defer { mpv.stop() }
    try Apps.waitFor("mpv to play") { try mpv.status() == "Playing" }
    // and another program whose stream names the player's pid as its own
    let impostor = try Self.claimant(claimant, rig: rig, pid: mpv.process.pid, tone: tone)
    defer { Apps.stop(impostor) }
    var app = ""
    try Apps.waitFor("the claimant's app session to play") {
      app =
        try Apps.sessionNames(rig).first {
          $0.hasPrefix(claimant.program) && (try? Apps.session(rig, $0)?["playing"]) == .bool(true)
        } ?? ""
      return !app.isEmpty
    }
    // Then its session is not the player's program's: it is named after its own client, and
    // has none of that player
    #expect(app != "\(claimant.program)\(mpv.process.pid)", "\(app)")
    #expect(try MPRISPulseTests.players(rig, app) == [], "\(app)")
    // When a call comes (a phone stream of a third program) and interrupts it
    let phone = try Apps.pacat(rig, ["--property=media.role=phone"])
    defer { Apps.stop(phone) }
    try Apps.waitFor("the call to interrupt \(app)") {
      try Apps.session(rig, app)?["interrupted"] == .bool(true)
    }
    // Then the daemon sent the player nothing (a Pause would be among the decisions that came
    // with the interruption), and the player plays on
    let explained = try rig.run(["explain", "--session", app, "--json"])
    #expect(explained.contains(#""event":"interruption""#), "\(explained)")
    #expect(!explained.contains(#""event":"player""#), "\(explained)")
    #expect(try mpv.status() == "Playing")
  }
}
