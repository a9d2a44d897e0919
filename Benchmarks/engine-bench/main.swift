// Engine benchmark: activation storms over growing session counts (issue: engine speed target).
//
// Reports events per second and the cost per event as the session count grows, with the number of
// sessions each event affected (notifications posted), so cost can be compared with the work an
// event really causes. Figures are from one run; compare ratios, not absolute times.
import AudioSession

#if canImport(Glibc)
  import Glibc
#endif

struct Storm {
  let name: String
  let note: String
  /// Builds the inputs for session `i` of `n` in round `round`.
  let inputs: (_ i: Int, _ n: Int, _ round: Int) -> [EngineInput]
}

func name(_ i: Int) -> String { "s\(i)" }

let storms: [Storm] = [
  Storm(
    name: "non-mixable",
    note: "each playback activation interrupts the one active before it",
    inputs: { i, _, _ in
      [
        .setCategory(session: name(i), category: .playback, mode: nil, options: []),
        .setActive(session: name(i), active: true, options: []),
      ]
    }),
  Storm(
    name: "mixable",
    note: "ambient sessions activate and deactivate; nobody else is affected",
    inputs: { i, _, round in
      [
        .setCategory(session: name(i), category: .ambient, mode: nil, options: []),
        .setActive(session: name(i), active: round % 2 == 0, options: []),
      ]
    }),
  Storm(
    name: "reconfigure",
    note: "category changes on inactive sessions, then activation of a mixable one",
    inputs: { i, _, round in
      let categories: [Category] = [.playback, .playAndRecord, .ambient, .record]
      return [
        .setCategory(
          session: name(i), category: categories[(i + round) % categories.count], mode: nil,
          options: []),
        .setCategory(session: name(i), category: .playback, mode: nil, options: [.mixWithOthers]),
        .setActive(session: name(i), active: true, options: []),
        .setActive(session: name(i), active: false, options: []),
      ]
    }),
]

func loadPolicy() -> Policy {
  let arguments = CommandLine.arguments.dropFirst()
  let explicit = arguments.first
  guard let directory = PolicyLoader.defaultDirectory(explicit: explicit) else {
    print("engine-bench: no policies/ directory found; pass one as the first argument")
    exit(2)
  }
  do {
    return try Policy(table: PolicyLoader.load(directory: directory))
  } catch {
    print("engine-bench: \(error)")
    exit(2)
  }
}

let policy = loadPolicy()
let catalog = policy.table.devices
let devices = catalog.defaultDevices.compactMap { preset in
  catalog.presets[preset].map { Device(preset: $0, uid: $0.uid ?? preset) }
}

struct Row {
  var storm: String
  var sessions: Int
  var events: Int
  var seconds: Double
  var notifications: Int
  var nsPerEvent: Double { seconds * 1e9 / Double(events) }
  var eventsPerSecond: Double { Double(events) / seconds }
  var affectedPerEvent: Double { Double(notifications) / Double(events) }
}

func run(_ storm: Storm, sessions n: Int, minimumEvents: Int) -> Row {
  var engine = Engine(policy: policy, devices: devices)
  for i in 0..<n { _ = engine.handle(.createSession(name(i))) }
  // Warm up: one round over every session, untimed.
  for i in 0..<n { for input in storm.inputs(i, n, 0) { _ = engine.handle(input) } }
  var events = 0
  var notifications = 0
  var round = 1
  let clock = ContinuousClock()
  let elapsed = clock.measure {
    while events < minimumEvents {
      for i in 0..<n {
        for input in storm.inputs(i, n, round) {
          notifications += engine.handle(input).notifications.count
          events += 1
        }
      }
      round += 1
    }
  }
  let seconds =
    Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
  return Row(
    storm: storm.name, sessions: n, events: events, seconds: seconds,
    notifications: notifications)
}

func pad(_ text: String, _ width: Int) -> String {
  text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
}

func fixed(_ value: Double, _ decimals: Int) -> String {
  var scale = 1.0
  for _ in 0..<decimals { scale *= 10 }
  let rounded = (value * scale).rounded() / scale
  var text = "\(rounded)"
  if let dot = text.firstIndex(of: ".") {
    let have = text.distance(from: dot, to: text.endIndex) - 1
    if have < decimals { text += String(repeating: "0", count: decimals - have) }
  }
  return text
}

print("engine-bench: one core, release build; \(devices.count) devices; policy profile '\(policy.profile.name)'")
print("")
print(
  pad("storm", 12) + pad("sessions", 10) + pad("events", 10) + pad("events/s", 14)
    + pad("ns/event", 10) + pad("affected/ev", 13) + pad("vs 10", 8))
var rows: [Row] = []
for storm in storms {
  var base: Double?
  for n in [10, 1_000, 100_000] {
    let row = run(storm, sessions: n, minimumEvents: max(1_000_000, 4 * n))
    rows.append(row)
    let ratio = row.nsPerEvent / (base ?? row.nsPerEvent)
    if base == nil { base = row.nsPerEvent }
    print(
      pad(storm.name, 12) + pad("\(n)", 10) + pad("\(row.events)", 10)
        + pad(fixed(row.eventsPerSecond, 0), 14) + pad(fixed(row.nsPerEvent, 1), 10)
        + pad(fixed(row.affectedPerEvent, 3), 13) + pad(fixed(ratio, 2) + "x", 8))
  }
}
print("")
for storm in storms { print("  \(storm.name): \(storm.note)") }
print("")
let tenSessions = rows.filter { $0.sessions == 10 }.map(\.eventsPerSecond).min() ?? 0
let target = 1_000_000.0
print(
  "target: >= 1,000,000 configuration+activation events/s with 10 sessions: "
    + (tenSessions >= target ? "met" : "NOT met") + " (slowest storm \(fixed(tenSessions, 0)) events/s)")
let growth = storms.map { storm -> Double in
  let mine = rows.filter { $0.storm == storm.name }
  return (mine.last?.nsPerEvent ?? 0) / (mine.first?.nsPerEvent ?? 1)
}.max() ?? 0
print(
  "growth: cost per event at 100,000 sessions is at most \(fixed(growth, 2))x the cost at 10 "
    + "(the sessions each event affects stay constant, so the target is a flat cost)")
