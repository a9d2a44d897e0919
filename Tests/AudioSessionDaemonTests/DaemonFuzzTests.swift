import AudioSession
import AudioSessionDaemon
import AudioSessionDaemonTestSupport
import AudioSessionHost
import AudioSessionSystem
import AudioSessionTestSupport
import AudioSessionWire
import Foundation
import Testing

/// Bad input (docs/contract.md "Bad input"): a fuzz test sends at least 100,000 random and mutated
/// messages to a real daemon socket (simulated backend), `simulate` messages among them, then
/// checks that the daemon still answers and that every session of another client is intact.
///
/// A simulated call, unplug or media-server restart legitimately changes every session, so
/// "intact" means: each of the other client's sessions still exists and still belongs to it,
/// and keeps its configuration (category, mode, options) — unless a simulated media-server
/// restart put it back to the initial configuration, which the client was told with
/// mediaServicesWereReset (docs/avaudiosession.md §6.4), and which registering the configuration
/// again restores. Then, once any simulated call has ended and the switches and devices are as at
/// the start, the client can activate every one of its sessions and start playing.
@Suite struct DaemonFuzzTests {
  /// SplitMix64: small, seedable, and good enough to choose mutations.
  struct Random: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }

  static let victims = ["v1", "v2", "v3"]
  static let names = victims + ["fz1", "fz2", "call", "", "-x", "a b"]

  /// Every `simulate` action: plugs and unplugs in equal numbers (so the device list stays
  /// short), built-in devices among them, the call, the switches, and a media-server restart.
  static let simulations: [SimulationAction] =
    ["headphones", "headset", "bluetoothHeadset", "usbAudio", "builtInSpeaker"].flatMap {
      [SimulationAction.plug(preset: $0), .unplug($0)]
    } + [
      .unplug("builtin-mic"), .plug(preset: "builtInMic"), .plug(preset: "nosuch"),
      .unplug("nosuch"), .call(active: true), .call(active: false), .silentSwitch(on: true),
      .silentSwitch(on: false), .screenLock(on: true), .screenLock(on: false),
      .micMute(on: true), .micMute(on: false), .serverRestart, .callRing(.banner),
      .callRing(.fullScreen), .siri(active: true), .siri(active: false),
      .alarm(active: true), .alarm(active: false),
    ]

  /// Valid requests of every operation, `simulate` included, on the victims' and the fuzzer's
  /// names.
  static func seeds() -> [String] {
    var operations: [DaemonRequest.Operation] = [
      .hello(client: "fuzz"), .command(.status), .command(.devices), .watch(.all), .watch(.none),
    ]
    operations += simulations.map { .command(.simulate($0)) }
    for name in victims + ["fz1", "fz2"] {
      operations += [
        .open(session: name), .session(name),
        .command(.input(.setMode(session: name, mode: .spokenAudio))),
        .command(.input(.setPreferredInput(session: name, uid: "builtin-mic"))),
        .command(.input(.setPreferredInput(session: name, uid: nil))),
        .command(
          .input(
            .setCategory(session: name, category: .playback, mode: .moviePlayback, options: []))),
        .command(
          .input(
            .setCategory(session: name, category: .playAndRecord, mode: nil, options: .duckOthers))),
        .command(.input(.setCategory(session: name, category: .record, mode: nil, options: []))),
        .command(.input(.setActive(session: name, active: true, options: []))),
        .command(
          .input(.setActive(session: name, active: false, options: .notifyOthersOnDeactivation))),
        .command(.input(.startIO(session: name))), .command(.input(.stopIO(session: name))),
        .command(.input(.overrideOutput(session: name, .speaker))),
        .command(.input(.removeSession(name))),
        .command(.route(session: name)),
      ]
    }
    return operations.enumerated().map { DaemonRequest(id: $0.offset, $0.element).json.serialized }
  }

  static let interesting: [UInt8] =
    Array(#"{}[]":,\ 0123456789-truefalsnv"#.utf8) + [
      0x00, 0x0D, 0x1F, 0x7F, 0xC3, 0xE2, 0xFF,
    ]
  static let tokens = [
    "null", "true", "1", "-1", "9223372036854775807", "99999999999999999999", "1.5", "\"\"",
    "[]", "{}", "\"playback\"", "\"v1\"", "\"\\ud83c\"", "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1",
  ]

  /// One fuzz message: a seed with one to four mutations, a seed, or random bytes.
  static func message(_ seeds: [String], _ random: inout Random) -> [UInt8] {
    let roll = Int.random(in: 0..<100, using: &random)
    if roll < 15 {
      let count = Int.random(in: 0...120, using: &random)
      return (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
        .filter { $0 != 0x0A }
    }
    var bytes = Array(seeds.randomElement(using: &random).map { $0.utf8 } ?? "".utf8)
    if roll < 35 { return bytes }
    for _ in 0..<Int.random(in: 1...4, using: &random) {
      mutate(&bytes, seeds, &random)
    }
    return bytes.filter { $0 != 0x0A }
  }

  static func mutate(_ bytes: inout [UInt8], _ seeds: [String], _ random: inout Random) {
    guard !bytes.isEmpty else {
      bytes = Array((seeds.randomElement(using: &random) ?? "{}").utf8)
      return
    }
    let index = Int.random(in: 0..<bytes.count, using: &random)
    switch Int.random(in: 0..<8, using: &random) {
    case 0: bytes[index] ^= UInt8(1 << Int.random(in: 0..<8, using: &random))
    case 1: bytes.insert(interesting.randomElement(using: &random) ?? 0, at: index)
    case 2: bytes.remove(at: index)
    case 3: bytes.removeSubrange(index...)
    case 4:
      let end = min(bytes.count, index + Int.random(in: 1...16, using: &random))
      bytes.insert(contentsOf: bytes[index..<end], at: index)
    case 5:
      let token = tokens.randomElement(using: &random) ?? "null"
      bytes.insert(contentsOf: Array(token.utf8), at: index)
    case 6:
      // Swap a name for another, possibly a victim's or an invalid one.
      let name = names.randomElement(using: &random) ?? ""
      let text = String(decoding: bytes, as: UTF8.self)
      let replaced = text.replacingOccurrences(of: "\"fz1\"", with: "\"\(name)\"")
      bytes = Array(replaced.utf8)
    default:
      let other = Array((seeds.randomElement(using: &random) ?? "").utf8)
      bytes = Array(bytes[..<index]) + other[min(other.count, index)...]
    }
  }

  @Test(
    "100,000 random and mutated messages, simulate among them, leave every session of another client intact (docs/contract.md Bad input)"
  )
  func receive_fuzzedMessages_leaveOtherSessionsIntact() async throws {
    let daemon = try await DaemonHarness.start()
    // Given a client that owns three sessions in different states
    let told = NotificationRecorder()
    let owner = try daemon.connect(told)
    let hello = try owner.request(.hello(client: "owner"))
    guard case .object(let info)? = hello["daemon"], case .int(let ownerID)? = info["connection"]
    else {
      Issue.record("no connection id: \(hello)")
      return
    }
    let configurations: [String: SessionConfiguration] = [
      "v1": SessionConfiguration(category: .playback, mode: .default, options: .mixWithOthers),
      "v2": SessionConfiguration(category: .ambient, mode: .default, options: []),
      "v3": SessionConfiguration(
        category: .playAndRecord, mode: .voiceChat, options: .mixWithOthers),
    ]
    for victim in Self.victims {
      #expect(try owner.request(.open(session: victim)).error == nil)
      #expect(try owner.request(Self.set(victim, configurations[victim])).error == nil)
    }
    for victim in ["v1", "v2"] {
      #expect(
        try owner.request(.command(.input(.setActive(session: victim, active: true, options: []))))
          .error == nil)
    }
    let before = await Self.snapshot(daemon)
    #expect(before == configurations)

    // When a second client sends 100,000 fuzzed messages (replies drained by a reader thread)
    var random = Random(state: UInt64.random(in: 0...UInt64.max))
    let seed = random.state
    let seeds = Self.seeds()
    let fuzzer = try RawSocketClient(path: daemon.socketPath)
    let drained = LineCounter(fd: fuzzer.fd, marker: #""id":987654321,"result":"ok""#)
    drained.start()
    let total = 100_000
    var batch: [UInt8] = []
    for index in 0..<total {
      if index % 20_000 == 19_999 {
        // Now and then a message over the 64 KiB limit.
        batch += Array(repeating: UInt8(ascii: "a"), count: WireProtocol.maxMessageBytes + 10)
      } else {
        batch += Self.message(seeds, &random)
      }
      batch.append(0x0A)
      if batch.count > 32_768 {
        try fuzzer.write(batch)
        batch.removeAll(keepingCapacity: true)
      }
    }
    try fuzzer.write(batch + Array(#"{"v":1,"id":987654321,"op":"hello"}"#.utf8) + [0x0A])
    let finished = drained.waitForMarker()

    // Then the daemon answered to the end
    #expect(finished, "the daemon did not answer the last message (seed \(seed))")
    #expect(drained.lines > 1000, "seed \(seed)")
    // and the simulated devices and media-server restarts reached the engine: the owner was
    // told of route changes and resets (the reply to a request comes after the notifications
    // sent before it)
    _ = try owner.request(.command(.status))
    #expect(told.wait(until: { $0.contains { Self.isRouteChange($0.event) } }), "seed \(seed)")
    #expect(
      told.wait(until: { $0.contains { $0.event == .mediaServicesWereReset } }), "seed \(seed)")
    // and the owner's sessions still exist and are still its own
    let after = await Self.snapshot(daemon)
    #expect(Set(after.keys) == Set(Self.victims), "seed \(seed)")
    for victim in Self.victims {
      #expect(
        await daemon.server.core.owner(of: victim) == .connection(ConnectionID(rawValue: ownerID)),
        "seed \(seed)")
    }
    // and each kept its configuration, unless a media-server restart reset it, which the owner
    // was told
    for victim in Self.victims where after[victim] != before[victim] {
      #expect(after[victim] == .initial, "\(victim) changed (seed \(seed))")
      #expect(
        told.wait(until: { $0.contains(Self.reset(victim)) }),
        "\(victim) was reset without being told (seed \(seed))")
    }
    // When the simulated call (if any) ends, the switches and devices are as at the start, and
    // the owner registers again what a reset cleared (as an app does after
    // mediaServicesWereReset)
    try await Self.restoreSystem(daemon, through: owner)
    for victim in Self.victims where after[victim] != before[victim] {
      #expect(try owner.request(Self.set(victim, before[victim])).error == nil, "seed \(seed)")
    }
    // Then the configurations are the owner's, and it can activate and play every session
    #expect(await Self.snapshot(daemon) == before, "seed \(seed)")
    for victim in Self.victims {
      #expect(
        try owner.request(.command(.input(.setActive(session: victim, active: true, options: []))))
          .error == nil, "seed \(seed)")
      #expect(
        try owner.request(.command(.input(.startIO(session: victim)))).error == nil, "seed \(seed)")
    }
    let status = await daemon.server.core.status()
    let victims = status.sessions.filter { Self.victims.contains($0.name) }
    #expect(victims.count == 3 && victims.allSatisfy { $0.active && $0.playing }, "seed \(seed)")
    await daemon.stop()
  }

  static func set(_ session: String, _ configuration: SessionConfiguration?)
    -> DaemonRequest.Operation
  {
    let configuration = configuration ?? .initial
    return .command(
      .input(
        .setCategory(
          session: session, category: configuration.category, mode: configuration.mode,
          options: configuration.options)))
  }

  static func isRouteChange(_ event: SessionEvent) -> Bool {
    if case .routeChange = event { return true }
    return false
  }

  static func reset(_ session: String) -> SessionNotification {
    SessionNotification(session: session, event: .mediaServicesWereReset)
  }

  /// Ends a simulated call, turns the switches and the mic mute off, and leaves exactly the
  /// default devices connected, through `client`.
  static func restoreSystem(_ daemon: DaemonHarness, through client: DaemonConnection)
    async throws
  {
    var status = await daemon.server.core.status()
    var actions: [SimulationAction] = [
      .silentSwitch(on: false), .screenLock(on: false), .micMute(on: false),
    ]
    if status.callActive || status.callRinging != nil {
      actions.insert(.call(active: false), at: 0)
    }
    if status.siriActive { actions.insert(.siri(active: false), at: 0) }
    if status.alarmActive { actions.insert(.alarm(active: false), at: 0) }
    let defaults = try TestPolicies.table().devices.defaultDevices
    actions += status.devices.filter { !defaults.contains($0.preset ?? "") }.map { .unplug($0.uid) }
    actions += defaults.filter { preset in !status.devices.contains { $0.preset == preset } }
      .map { .plug(preset: $0) }
    for action in actions {
      #expect(try client.request(.command(.simulate(action))).error == nil, "\(action)")
    }
    status = await daemon.server.core.status()
    #expect(!status.callActive && !status.silentSwitch && !status.screenLocked)
    #expect(status.callRinging == nil && !status.siriActive && !status.alarmActive)
    #expect(!status.builtInMicMuted)
    #expect(Set(status.devices.compactMap(\.preset)) == Set(defaults))
  }

  /// The victims' configurations.
  static func snapshot(_ daemon: DaemonHarness) async -> [String: SessionConfiguration] {
    let status = await daemon.server.core.status()
    var snapshot: [String: SessionConfiguration] = [:]
    for session in status.sessions where victims.contains(session.name) {
      snapshot[session.name] = session.configuration
    }
    return snapshot
  }
}

/// Reads and counts lines on a socket from a thread of its own, until it closes.
final class LineCounter: @unchecked Sendable {
  private let fd: Int32
  private let condition = NSCondition()
  private var count = 0
  private var sawMarker = false
  private var ended = false
  private let marker: String

  /// Counts lines on `fd` and watches for a line containing `marker`.
  init(fd: Int32, marker: String) {
    self.fd = fd
    self.marker = marker
  }

  var lines: Int {
    condition.lock()
    defer { condition.unlock() }
    return count
  }

  func start() {
    Thread { [self] in
      var pending: [UInt8] = []
      var buffer = [UInt8](repeating: 0, count: 65536)
      while true {
        let got = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if got <= 0 { break }
        pending += buffer[0..<got]
        var lines: [String] = []
        while let newline = pending.firstIndex(of: 0x0A) {
          lines.append(String(decoding: pending[..<newline], as: UTF8.self))
          pending.removeSubrange(...newline)
        }
        condition.lock()
        count += lines.count
        if lines.contains(where: { $0.contains(marker) }) { sawMarker = true }
        condition.broadcast()
        condition.unlock()
      }
      condition.lock()
      ended = true
      condition.broadcast()
      condition.unlock()
    }.start()
  }

  /// Waits (at most a minute) for the line containing the marker.
  func waitForMarker() -> Bool {
    condition.lock()
    defer { condition.unlock() }
    let deadline = Date(timeIntervalSinceNow: 60)
    while !sawMarker, !ended, condition.wait(until: deadline) {}
    return sawMarker
  }
}
