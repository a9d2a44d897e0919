// 5. Media players over MPRIS (docs/mpris.md "Speed"): a real `mpv` with mpv-mpris
//    plays on headphones, on a private PulseAudio server and a private `dbus-daemon`; the
//    headphones are removed. From the server's `remove sink` (as a raw subscriber sees it) to
//    the `Pause` call reaching the player, as `dbus-monitor` on the same bus sees the bus route
//    it (its `time=` stamp, wall clock, converted to CLOCK_MONOTONIC). Goal: p99 < 20 ms. Also
//    shown: until the player itself reports `PlaybackStatus` `Paused` (its `PropertiesChanged`,
//    seen on a second connection), which is the player's own reaction time. After each round
//    the bench plays the player again, as its user would.
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

/// A private session bus: a `dbus-daemon` in a folder of its own, with `dbus-monitor` on it
/// logging every `Pause` call the bus routes to a player (its `time=` stamp, wall clock).
final class PrivateBus: @unchecked Sendable {
  let folder: String
  let address: String
  private let bus: ChildProcess
  private let monitor: ChildProcess
  private let monitorLog: String
  /// CLOCK_REALTIME − CLOCK_MONOTONIC, in nanoseconds, to read dbus-monitor's stamps.
  private let offset: Int64

  /// Whether this machine has what a player section needs: mpv, mpv-mpris and dbus.
  static var available: Bool {
    access("/usr/bin/mpv", X_OK) == 0 && access("/usr/lib/mpv-mpris/mpris.so", R_OK) == 0
      && access("/usr/bin/dbus-daemon", X_OK) == 0 && access("/usr/bin/dbus-monitor", X_OK) == 0
  }

  private init(
    folder: String, address: String, bus: ChildProcess, monitor: ChildProcess,
    monitorLog: String, offset: Int64
  ) {
    self.folder = folder
    self.address = address
    self.bus = bus
    self.monitor = monitor
    self.monitorLog = monitorLog
    self.offset = offset
  }

  static func start() async throws -> PrivateBus {
    var template = Array((NSTemporaryDirectory() + "pulse-bench-bus-XXXXXX").utf8CString)
    guard let made = mkdtemp(&template) else { throw PulseError.badState }
    let folder = String(cString: made)
    let address = "unix:path=\(folder)/bus"
    let bus = try ChildProcess.spawn(
      "/usr/bin/dbus-daemon",
      arguments: ["--session", "--nofork", "--nopidfile", "--address=\(address)"])
    guard await waitUntil({ access(folder + "/bus", F_OK) == 0 }) else {
      bus.end(SIGTERM)
      try? FileManager.default.removeItem(atPath: folder)
      throw PulseError.badState
    }
    // Every Pause the bus routes, stamped by dbus-monitor.
    let monitorLog = folder + "/monitor.log"
    var environment = ProcessInfo.processInfo.environment
    environment["DBUS_SESSION_BUS_ADDRESS"] = address
    let monitor = try ChildProcess.spawn(
      "/usr/bin/dbus-monitor",
      arguments: [
        "--session", "type='method_call',interface='org.mpris.MediaPlayer2.Player',member='Pause'",
      ], environment: environment, output: .appending(monitorLog), error: .null)
    var wall = timespec()
    clock_gettime(CLOCK_REALTIME, &wall)
    let offset = Int64(wall.tv_sec) * 1_000_000_000 + Int64(wall.tv_nsec) - Int64(now())
    return PrivateBus(
      folder: folder, address: address, bus: bus, monitor: monitor, monitorLog: monitorLog,
      offset: offset)
  }

  /// The `Pause` calls the bus routed so far, on CLOCK_MONOTONIC.
  func pauses() -> [UInt64] {
    let text = (try? String(contentsOfFile: monitorLog, encoding: .utf8)) ?? ""
    return text.split(separator: "\n").compactMap { line -> UInt64? in
      guard line.contains("member=Pause"), let range = line.range(of: "time=") else { return nil }
      let stamp = line[range.upperBound...].prefix { $0 != " " }.split(separator: ".")
      guard stamp.count == 2, let seconds = Int64(stamp[0]), let micros = Int64(stamp[1]) else {
        return nil
      }
      return UInt64(seconds * 1_000_000_000 + micros * 1_000 - offset)
    }
  }

  /// Starts `mpv` with mpv-mpris on this bus, playing a generated 440 Hz tone to the server's
  /// default sink, in a process group of its own as a desktop launcher starts it.
  func startPlayer(on server: PulsePrivateServer) throws -> ChildProcess {
    var environment = ProcessInfo.processInfo.environment
    environment["PULSE_SERVER"] = server.serverString
    environment["PULSE_COOKIE"] = server.cookiePath
    environment["DBUS_SESSION_BUS_ADDRESS"] = address
    return try ChildProcess.spawn(
      "/usr/bin/mpv",
      arguments: [
        "--no-config", "--no-video", "--no-terminal", "--ao=pulse", "--loop-file=inf",
        "--script=/usr/lib/mpv-mpris/mpris.so", "av://lavfi:sine=frequency=440",
      ], environment: environment, newProcessGroup: true)
  }

  func stop() {
    monitor.end(SIGTERM)
    bus.end(SIGTERM)
    try? FileManager.default.removeItem(atPath: folder)
  }
}

/// mpv's `PlaybackStatus` as the player itself reports it, on a connection of the bench's own
/// (every `PropertiesChanged`, stamped as it arrives).
final class PlayerStatuses: @unchecked Sendable {
  let observer: MPRISPlayers
  let stamps = Stamps()
  private var watching: Task<Void, Never>?

  init(address: String, logger: Logger) {
    observer = MPRISPlayers(address: address, logger: logger)
    observer.start()
    let (observer, stamps) = (observer, stamps)
    watching = Task {
      for await event in observer.events {
        if case .updated(let player) = event, player.bus == PulseBench.mpvPlayer {
          stamps.record(player.status.rawValue)
        } else if case .snapshot(let all) = event,
          let player = all.first(where: { $0.bus == PulseBench.mpvPlayer })
        {
          stamps.record(player.status.rawValue)
        }
      }
    }
  }

  /// The status the player reported last.
  var last: String? { stamps.all().last?.what }

  func stop() {
    watching?.cancel()
    observer.stop()
  }
}

extension PulseBench {
  static let mpvPlayer = "org.mpris.MediaPlayer2.mpv"

  static func measurePlayers(policies: String, rounds: Int) async throws {
    guard PrivateBus.available else {
      print("\n5. skipped: it needs mpv, mpv-mpris and dbus-daemon (make deps installs them)")
      return
    }
    let bus = try await PrivateBus.start()
    defer { bus.stop() }

    let table = try PolicyLoader.load(directory: policies)
    let rig = try await SpeakerServer.start(subscribing: [.sink])
    defer { rig.stop() }
    let (server, floor, user) = (rig.server, rig.floor, rig.user)

    // The player's own reports, on a connection of the bench's.
    let quiet = Logger(label: "pulse-bench", factory: { _ in SwiftLogNoOpLogHandler() })
    let player = PlayerStatuses(address: bus.address, logger: quiet)
    defer { player.stop() }
    let statuses = player.stamps

    let core = try await rig.daemonCore(
      policies: policies, table: table, logger: quiet,
      players: MPRISPlayers(address: bus.address, logger: quiet))

    core.startPlayers()
    let headphones = try headphonesArguments()
    var module = try await user.loadModule("module-null-sink", arguments: headphones)
    try await user.setDefaultSink("bench_headphones")
    let mpv = try bus.startPlayer(on: server)
    defer { mpv.end(SIGTERM) }
    let session = "mpv.\(mpv.pid)"

    var unplugs: [(removed: UInt64, paused: UInt64)] = []
    var missed: [String] = []
    let count = min(rounds, 100)
    for round in 0..<count {
      let start = now()
      // The player plays on the headphones, its session plays, and both connections know it.
      var sink: UInt32?
      let ready = await waitUntil {
        sink = try await user.sinks().first { $0.name == "bench_headphones" }?.index
        guard let sink,
          try await user.sinkInputs().contains(where: {
            $0.properties["application.process.id"] == "\(mpv.pid)" && $0.sinkIndex == sink
          })
        else { return false }
        let playing = await core.status().sessions.contains { $0.name == session && $0.playing }
        return playing && statuses.all().last?.what == "Playing"
      }
      guard ready, let sink else {
        missed.append("round \(round): mpv was not playing on the headphones")
        break
      }
      // Both connections saw the same PropertiesChanged; give the daemon's a moment.
      try await Task.sleep(for: .milliseconds(20))
      let unplugged = now()
      try await user.unloadModule(module)
      let paused = await waitUntil { statuses.first(after: unplugged, "Paused") != nil }
      guard paused, let pausedAt = statuses.first(after: unplugged, "Paused"),
        let removed = floor.first(after: start, "remove sink \(sink)")
      else {
        missed.append("round \(round): paused \(paused)")
        break
      }
      if round > 0 { unplugs.append((removed, pausedAt)) }
      // The user plays it again (on the speaker), and plugs the headphones back in: the
      // daemon moves the stream to them with its session's route.
      player.observer.send(.play, to: mpvPlayer)
      module = try await user.loadModule("module-null-sink", arguments: headphones)
    }
    try? await user.unloadModule(module)
    await core.shutdown()

    let (values, reactions) = pauseDelays(
      unplugs.map { ($0.removed, $0.paused) }, routed: bus.pauses(), after: "a removal",
      missed: &missed)
    if !missed.isEmpty { print("\n  rounds left out:", missed) }
    print("\n5. Headphones removed → Pause received by a player (mpv + mpv-mpris over MPRIS)")
    report("remove sink → Pause routed to the player", values)
    report("  (→ the player's own PlaybackStatus Paused)", reactions)
    if !values.isEmpty {
      print(
        "  goal p99 < 20 ms: \(percentile(values, 0.99) < 20_000_000 ? "met" : "NOT met")")
    }
    goals.check(
      "5. headphones removed → Pause routed to mpv, p99 < 20 ms",
      values.isEmpty ? "no rounds" : "p99 \(micros(percentile(values, 0.99)).trimmed)",
      met: !values.isEmpty && percentile(values, 0.99) < 20_000_000)
    print(
      """
        anchor: WirePlumber ≥ 0.5.11 mpris-pause (not on Debian 12, which ships 0.4.13) pauses \
      only players whose streams were on a removed device sink, re-links after a 1,000 ms delay \
      and never sends Play; we pause for every decision and play again what we paused.
      """)
  }
}

extension PulseBench {
  /// For each round (its cause's stamp, the player's own report of its pause): from the cause to
  /// the first `Pause` the bus routed between the two, and to the player's report. A round with
  /// no `Pause` routed in between is listed in `missed`.
  static func pauseDelays(
    _ rounds: [(cause: UInt64, paused: UInt64)], routed: [UInt64], after cause: String,
    missed: inout [String]
  ) -> (routed: [Int64], reported: [Int64]) {
    var values: [Int64] = []
    var reactions: [Int64] = []
    for round in rounds {
      guard let pause = routed.first(where: { $0 >= round.cause && $0 <= round.paused }) else {
        missed.append("no Pause routed between \(cause) and the player's pause")
        continue
      }
      values.append(Int64(pause) - Int64(round.cause))
      reactions.append(Int64(round.paused) - Int64(round.cause))
    }
    return (values, reactions)
  }
}
