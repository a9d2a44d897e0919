// PulseAudio backend benchmark (docs/pulseaudio-layer.md "Speed"), in one run against a private
// server:
//
// 1. Route changes: a user's client loads and unloads a headphone null sink. The floor is the
//    first event of each burst as a raw libpulse subscriber sees it (its callback, on its loop
//    thread); we measure from there to the engine's route-change notification (the coordinator
//    has handled the backend's input and applied it). Target: p99 added latency under 1 ms.
// 2. Calls: a client starts a phone-role stream while our music session plays and a peer
//    client plays a music-role stream. From the phone stream's start we measure to
//    module-role-cork's request-cork at the peer (its callback) and to our interruption
//    notification. Target: ours no later than the peer's.
// 3–4. Other programs' streams (Apps.swift): a phone stream muting a music stream, ours against
//    module-role-cork; and no stream left playing on the speaker when headphones disappear.
// 5. Media players (Players.swift): headphones removed → Pause received by an MPRIS player.
// 6–8. A desktop's programs (Desktop.swift): a program's phone stream → a media player paused
//    over MPRIS; speech → another program's music ducked; headphones removed → milliseconds of
//    a program's tone heard on the speaker (a recording of its monitor).
//
// Times are CLOCK_MONOTONIC. Figures are from one run on a shared machine: compare them with
// each other (floor vs ours), not across machines.
import AudioSession
import AudioSessionArbiter
import AudioSessionPulse
import BenchGoals
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Nanoseconds on CLOCK_MONOTONIC.
func now() -> UInt64 {
  var time = timespec()
  clock_gettime(CLOCK_MONOTONIC, &time)
  return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

/// Timestamps written by libpulse callbacks on other threads, with what happened.
final class Stamps: @unchecked Sendable {
  private let lock = NSLock()
  private var times: [(time: UInt64, what: String)] = []

  func record(_ what: String = "") {
    let time = now()
    lock.lock()
    times.append((time, what))
    lock.unlock()
  }

  /// Everything recorded, in order.
  func all() -> [(time: UInt64, what: String)] {
    lock.lock()
    defer { lock.unlock() }
    return times
  }

  /// The first time recorded at or after `start` (for `what`, if given).
  func first(after start: UInt64, _ what: String? = nil) -> UInt64? {
    lock.lock()
    defer { lock.unlock() }
    return times.first { $0.time >= start && (what == nil || $0.what.hasPrefix(what ?? "")) }?.time
  }
}

/// The bench's goals (BenchGoals): pulse-bench's own time limit is 40 minutes, the nine sections
/// with 300 rounds each taking about 25 on a 2-core machine.
let goals = BenchGoals(bench: "pulse-bench", limitSeconds: 2_400)

extension String {
  /// Without the padding `micros` puts before a figure.
  var trimmed: String { trimmingCharacters(in: .whitespaces) }
}

/// Microseconds, for printing.
func micros(_ nanoseconds: Int64) -> String {
  String(format: "%8.1f µs", Double(nanoseconds) / 1_000)
}

func percentile(_ values: [Int64], _ fraction: Double) -> Int64 {
  guard !values.isEmpty else { return 0 }
  let sorted = values.sorted()
  let position = Int((Double(sorted.count - 1) * fraction).rounded())
  return sorted[position]
}

func report(_ title: String, _ values: [Int64]) {
  guard !values.isEmpty else {
    print("  \(title): no rounds")
    return
  }
  let label = title.padding(toLength: 46, withPad: " ", startingAt: 0)
  print(
    "  \(label) p50 \(micros(percentile(values, 0.5)))"
      + "   p99 \(micros(percentile(values, 0.99)))   max \(micros(values.max() ?? 0))")
}

/// The engine side: the backend's observed inputs, handled one by one, with the times the
/// input arrived and the notifications were out.
actor Follower {
  struct Outcome: Sendable {
    var input: EngineInput
    var received: UInt64
    var notified: UInt64
    var notifications: [SessionNotification]
  }

  private var outcomes: [Outcome] = []
  private var waiterID = 0
  private var waiter:
    (
      id: Int, predicate: @Sendable (Outcome) -> Bool,
      continuation: CheckedContinuation<Outcome?, Never>
    )?

  func follow(_ backend: PulseAudioBackend, _ coordinator: ArbiterDriver) async {
    for await event in backend.observedEvents {
      guard case .input(let input) = event else { continue }
      let received = now()
      let outcome = await coordinator.handle(input)
      let done = Outcome(
        input: input, received: received, notified: now(), notifications: outcome.notifications)
      outcomes.append(done)
      if let waiter, waiter.predicate(done) {
        self.waiter = nil
        waiter.continuation.resume(returning: done)
      }
    }
  }

  /// The next outcome (after `start`) that satisfies `predicate`; nil after 2 s.
  func next(after start: UInt64, _ predicate: @escaping @Sendable (Outcome) -> Bool) async
    -> Outcome?
  {
    if let found = outcomes.first(where: { $0.received >= start && predicate($0) }) {
      return found
    }
    waiterID += 1
    let id = waiterID
    Task {
      try? await Task.sleep(for: .seconds(2))
      self.expire(id)
    }
    return await withCheckedContinuation { continuation in
      waiter = (id, { $0.received >= start && predicate($0) }, continuation)
    }
  }

  func history(since start: UInt64) -> String {
    outcomes.filter { $0.received >= start }.map {
      "\($0.input) at \(Int64($0.received) - Int64(start))"
    }
    .joined(separator: "; ")
  }

  private func expire(_ id: Int) {
    guard let waiter, waiter.id == id else { return }
    self.waiter = nil
    waiter.continuation.resume(returning: nil)
  }
}

@Sendable func routeChanged(_ outcome: Follower.Outcome) -> Bool {
  outcome.notifications.contains { if case .routeChange = $0.event { true } else { false } }
}

@main
struct PulseBench {
  static func main() async {
    let policies = CommandLine.arguments.dropFirst().first ?? "policies"
    // PULSE_BENCH_SECTIONS selects sections, comma-separated: backend (1 and 2), apps (3 and
    // 4), players (5), calls (6), speech (7), unplug (8), wireplumber (9); all of them without
    // it.
    let selected = Set(
      (ProcessInfo.processInfo.environment["PULSE_BENCH_SECTIONS"] ?? "").split(separator: ",")
        .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
    let known: Set = ["backend", "apps", "players", "calls", "speech", "unplug", "wireplumber"]
    guard selected.isSubset(of: known) else {
      print(
        "pulse-bench: unknown sections \(selected.subtracting(known).sorted()) in "
          + "PULSE_BENCH_SECTIONS; known: \(known.sorted().joined(separator: ","))")
      exit(2)
    }
    func runs(_ section: String) -> Bool { selected.isEmpty || selected.contains(section) }
    /// Quick mode (BENCH_QUICK=1) runs a tenth of the rounds, unless the second argument names
    /// a count.
    let rounds =
      Int(CommandLine.arguments.dropFirst(2).first ?? "") ?? (goals.quick ? 30 : 300)
    print("pulse-bench: private PulseAudio servers, \(rounds) rounds each")
    /// Runs one section; a section that fails, or ends without a figure, is a goal not met.
    func section(_ name: String, _ body: () async throws -> Void) async {
      guard runs(name) else { return }
      let before = goals.count
      do {
        try await body()
      } catch {
        print("pulse-bench: section \(name): \(error)")
        goals.check("section \(name) runs", "failed: \(error)", met: false)
        return
      }
      if goals.count == before {
        goals.check("section \(name) measures its goals", "stopped early (see above)", met: false)
      }
    }
    await section("backend") {
      // A machine's speaker, and module-role-cork as default.pa loads it.
      let speaker = try PulseModuleArguments.make(
        ["sink_name": "speaker"],
        propertyLists: [
          "sink_properties": ["device.description": "Speaker", "device.form_factor": "internal"]
        ])
      let server = try PulsePrivateServer.start(modules: [
        .init("module-null-sink", arguments: speaker),
        .init("module-role-cork", arguments: "trigger_roles=phone cork_roles=music,video"),
      ])
      print("pulse-bench: sections 1 and 2 on \(server.serverString)")
      defer { server.stop() }
      try await measure(server, policies: policies, rounds: rounds)
    }
    await section("apps") { try await measureApps(policies: policies, rounds: rounds) }
    await section("players") { try await measurePlayers(policies: policies, rounds: rounds) }
    await section("calls") { try await measureCallPlayers(policies: policies, rounds: rounds) }
    await section("speech") { try await measureSpeech(policies: policies, rounds: rounds) }
    await section("unplug") { try await measureUnplugLeak(policies: policies, rounds: rounds) }
    await section("wireplumber") {
      try await measureWirePlumber(policies: policies, rounds: rounds)
    }
    goals.finish()
  }

  /// `module-null-sink`'s arguments for wired headphones named `bench_headphones`.
  static func headphonesArguments() throws -> String {
    try PulseModuleArguments.make(
      ["sink_name": "bench_headphones"],
      propertyLists: [
        "sink_properties": [
          "device.description": "Headphones", "device.form_factor": "headphone",
          "device.bus": "pci",
        ]
      ])
  }

  static func measure(_ server: PulsePrivateServer, policies: String, rounds: Int) async throws {
    let table = try PolicyLoader.load(directory: policies)

    // The floor: a raw subscriber that timestamps events in its libpulse callback.
    let floor = Stamps()
    let subscriber = try PulseContext(name: "pulse-bench-floor")
    subscriber.setEventHandler { event in
      if case .subscription(let event) = event { floor.record(event.description) }
    }
    try await subscriber.connect(to: server.serverString, cookieFile: server.cookiePath)
    try await subscriber.subscribe(to: [.sink, .source, .sinkInput, .server, .card])

    // Our side: the backend on every device of the server, a coordinator, and the follower.
    let backend = PulseAudioBackend(
      configuration: PulseBackendConfiguration(
        server: .address(server.serverString, cookieFile: server.cookiePath), devices: .system,
        policy: try PulsePolicy.load(directory: policies)))
    let coordinator = try await ArbiterDriver(
      policy: Policy(table: table), backend: backend, devices: nil)
    let follower = Follower()
    let following = Task { await follower.follow(backend, coordinator) }

    // A user's client, plugging and unplugging headphones.
    let user = try PulseContext(name: "pulse-bench-user")
    try await user.connect(to: server.serverString, cookieFile: server.cookiePath)
    let headphones = try headphonesArguments()

    for command: Command in [
      .input(.setCategory(session: "music", category: .playback, mode: nil, options: [])),
      .input(.setActive(session: "music", active: true, options: [])),
    ] {
      _ = await coordinator.run(command)
    }

    // 1. Route changes.
    var module: UInt32?
    var missed: [String] = []
    var routeAdded: [Int64] = []
    var routeBackend: [Int64] = []
    var routeFloor: [Int64] = []
    for round in 0..<rounds {
      for plug in [true, false] {
        let start = now()
        if plug {
          module = try await user.loadModule("module-null-sink", arguments: headphones)
        } else if let loaded = module {
          try await user.unloadModule(loaded)
        }
        guard let outcome = await follower.next(after: start, routeChanged) else {
          missed.append("round \(round): no route change after \(plug ? "plug" : "unplug")")
          continue
        }
        // The floor: the server's event for the device itself (`new sink`, `remove sink`).
        guard let event = floor.first(after: start, plug ? "new sink" : "remove sink") else {
          continue
        }
        if round > 0 {  // the first round warms up
          routeAdded.append(Int64(outcome.notified) - Int64(event))
          routeBackend.append(Int64(outcome.received) - Int64(event))
          routeFloor.append(Int64(event) - Int64(start))
        }
      }
    }
    print("\n1. Route change, from the server's event to the engine's notification")
    report("floor: request sent → raw subscriber's event", routeFloor)
    report("added: raw subscriber's event → notification", routeAdded)
    report("  of which: event → the backend's input", routeBackend)
    let p99 = percentile(routeAdded, 0.99)
    print("  target p99 added < 1 ms: \(p99 < 1_000_000 ? "met" : "NOT met")")
    goals.check(
      "1. route change, p99 added over the raw server event < 1 ms", micros(p99).trimmed,
      met: !routeAdded.isEmpty && p99 < 1_000_000)

    // 2. Calls: our playing music session, a peer's music stream, a phone stream.
    let peerCork = Stamps()
    let peer = try PulseContext(name: "pulse-bench-peer")
    try await peer.connect(to: server.serverString, cookieFile: server.cookiePath)
    let peerMusic = try PulsePlaybackStream(
      context: peer, name: "peer music", properties: ["media.role": "music"])
    peerMusic.setEventHandler { event in
      if event == .requestCork { peerCork.record() }
    }
    try await peerMusic.connect()
    let caller = try PulseContext(name: "pulse-bench-caller")
    try await caller.connect(to: server.serverString, cookieFile: server.cookiePath)

    var ours: [Int64] = []
    var oursInput: [Int64] = []
    var theirs: [Int64] = []
    var lead: [Int64] = []
    for round in 0..<rounds {
      for command: Command in [
        .input(.setActive(session: "music", active: true, options: [])),
        .input(.startIO(session: "music")),
      ] {
        _ = await coordinator.run(command)
      }
      await backend.synchronize()
      let phone = try PulsePlaybackStream(
        context: caller, name: "call", properties: ["media.role": "phone"])
      let start = now()
      try await phone.connect()
      let began = await follower.next(after: start) { $0.input == .call(active: true) }
      let deadline = now() + 2_000_000_000
      while peerCork.first(after: start) == nil, now() < deadline {
        try await Task.sleep(for: .microseconds(100))
      }
      guard let began, let peerTime = peerCork.first(after: start) else {
        missed.append(
          "round \(round): " + (began == nil ? "no interruption" : "no request-cork at the peer"))
        phone.disconnect()
        _ = await follower.next(after: now()) { $0.input == .call(active: false) }
        continue
      }
      if round > 0 {
        ours.append(Int64(began.notified) - Int64(start))
        oursInput.append(Int64(began.received) - Int64(start))
        theirs.append(Int64(peerTime) - Int64(start))
        lead.append(Int64(began.notified) - Int64(peerTime))
      }
      // A call lasts: the backend sees the phone stream before it ends.
      await backend.synchronize()
      let end = now()
      phone.disconnect()
      // The server unmutes the peer (which did not cork) when the call ends.
      if await follower.next(after: end, { $0.input == .call(active: false) }) == nil {
        let seen = await backend.describeCalls() + " " + (await follower.history(since: start))
        let late = await follower.next(after: end) { $0.input == .call(active: false) }
        missed.append(
          "round \(round): the call did not end (\(seen))"
            + (late.map { " (it did after \(micros(Int64($0.received) - Int64(end))))" } ?? ""))
      }
    }
    if !missed.isEmpty { print("\n  rounds left out (2 s without an answer):", missed) }
    print("\n2. Phone-role stream start → interruption")
    report("module-role-cork's request-cork at the peer", theirs)
    report("our interruption notification", ours)
    report("  (the backend's call input)", oursInput)
    report("ours minus the peer's (negative: ours first)", lead)
    let lateBy = percentile(lead, 0.5)
    print(
      "  target ours no later than the peer's: \(lateBy <= 0 ? "met" : "NOT met") "
        + "(p50 \(lateBy <= 0 ? "earlier" : "later") by \(micros(abs(lateBy))))")
    goals.check(
      "2. call: our interruption no later than module-role-cork's cork (p50)",
      "\(lateBy <= 0 ? "earlier" : "later") by \(micros(abs(lateBy)).trimmed)",
      met: !lead.isEmpty && lateBy <= 0)

    following.cancel()
    await coordinator.shutdown()
    subscriber.disconnect()
    user.disconnect()
    peerMusic.disconnect()
    peer.disconnect()
    caller.disconnect()
  }
}
