// Engine benchmark: activation storms over growing session counts.
//
// Reports events per second and the cost per event as the session count grows, with the number of
// sessions each event affected (notifications posted), so cost can be compared with the work an
// event really causes. Figures are from one run; compare ratios, not absolute times.
import AudioSession
import BenchGoals

#if canImport(Glibc)
  import Glibc
#endif

struct Storm {
  let name: String
  let note: String
  /// Inputs run once, untimed, after the sessions are created.
  let setup: (_ n: Int) -> [EngineInput]
  /// One round of the storm; rounds repeat until the event budget is spent.
  let round: (_ n: Int, _ round: Int) -> [EngineInput]
  /// Events to time for `n` sessions.
  let budget: (_ n: Int) -> Int
}

func name(_ i: Int) -> String { "s\(i)" }

func set(_ i: Int, _ category: Category, _ options: CategoryOptions = []) -> EngineInput {
  .setCategory(session: name(i), category: category, mode: nil, options: options)
}

func active(_ i: Int, _ on: Bool) -> EngineInput {
  .setActive(session: name(i), active: on, options: [])
}

let storms: [Storm] = [
  Storm(
    name: "non-mixable",
    note: "every session in turn: set playback, activate (interrupts the one active before it)",
    setup: { _ in [] },
    round: { n, _ in (0..<n).flatMap { [set($0, .playback), active($0, true)] } },
    budget: { n in max(1_000_000, 4 * n) }),
  Storm(
    name: "mixable",
    note: "every session in turn: set ambient, activate or deactivate (nobody else affected)",
    setup: { _ in [] },
    round: { n, round in (0..<n).flatMap { [set($0, .ambient), active($0, round % 2 == 0)] } },
    budget: { n in max(1_000_000, 4 * n) }),
  Storm(
    name: "reconfigure",
    note: "every session in turn: two category changes, activate and deactivate a mixable one",
    setup: { _ in [] },
    round: { n, round in
      let categories: [Category] = [.playback, .playAndRecord, .ambient, .record]
      return (0..<n).flatMap {
        [
          set($0, categories[($0 + round) % categories.count]),
          set($0, .playback, [.mixWithOthers]), active($0, true), active($0, false),
        ]
      }
    },
    budget: { n in max(1_000_000, 4 * n) }),
  Storm(
    name: "fan-out",
    note: "all sessions active (ambient); one ducker activates and deactivates, ducking all others",
    setup: { n in
      [set(0, .playback, [.duckOthers])]
        + (1..<n).flatMap { [set($0, .ambient), active($0, true)] }
    },
    round: { _, _ in [active(0, true), active(0, false)] },
    budget: { n in max(200, 2_000_000 / n) }),
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

let goals = BenchGoals(bench: "engine-bench", limitSeconds: 300)
/// Quick mode (`make bench-quick`): a tenth of the events per storm, the same session counts.
let budgetScale = goals.quick ? 10 : 1

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
  /// Cost per unit of work: the event itself plus each session it affected.
  var nsPerUnit: Double { seconds * 1e9 / Double(events + notifications) }
}

func run(_ storm: Storm, sessions n: Int) -> Row {
  var engine = Engine(policy: policy, devices: devices)
  for i in 0..<n { _ = engine.handle(.createSession(name(i))) }
  for input in storm.setup(n) { _ = engine.handle(input) }
  // Warm up with one untimed round.
  for input in storm.round(n, 0) { _ = engine.handle(input) }
  let budget = max(storm.budget(n) / budgetScale, 1)
  var events = 0
  var notifications = 0
  var round = 1
  let clock = ContinuousClock()
  let elapsed = clock.measure {
    while events < budget {
      for input in storm.round(n, round) {
        notifications += engine.handle(input).notifications.count
        events += 1
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

print(
  "engine-bench: one core, release build; \(devices.count) devices; policy profile '\(policy.profile.name)'"
)
print("")
print(
  pad("storm", 12) + pad("sessions", 10) + pad("events", 10) + pad("events/s", 12)
    + pad("ns/event", 11) + pad("affected/ev", 13) + pad("ns/(1+aff)", 12) + pad("vs 10", 8))
var rows: [Row] = []
for storm in storms {
  var base: Double?
  for n in [10, 1_000, 100_000] {
    let row = run(storm, sessions: n)
    rows.append(row)
    let ratio = row.nsPerUnit / (base ?? row.nsPerUnit)
    if base == nil { base = row.nsPerUnit }
    print(
      pad(storm.name, 12) + pad("\(n)", 10) + pad("\(row.events)", 10)
        + pad(fixed(row.eventsPerSecond, 0), 12) + pad(fixed(row.nsPerEvent, 1), 11)
        + pad(fixed(row.affectedPerEvent, 1), 13) + pad(fixed(row.nsPerUnit, 1), 12)
        + pad(fixed(ratio, 2) + "x", 8))
  }
}
print("")
for storm in storms { print("  \(storm.name): \(storm.note)") }
print("  ns/(1+aff): time per event divided by one plus the sessions it affected (notifications)")
print("")
let configurationStorms = ["non-mixable", "mixable", "reconfigure"]
let tenSessions =
  rows.filter { $0.sessions == 10 && configurationStorms.contains($0.storm) }
  .map(\.eventsPerSecond).min() ?? 0
goals.check(
  "configuration+activation events/s, 10 sessions, one core >= 1,000,000",
  "\(fixed(tenSessions / 1e6, 2)) M events/s (slowest storm)", met: tenSessions >= 1_000_000)
let growth = storms.map { storm -> (name: String, growth: Double) in
  let mine = rows.filter { $0.storm == storm.name }
  return (storm.name, (mine.last?.nsPerUnit ?? 0) / (mine.first?.nsPerUnit ?? 1))
}
let worst = growth.max { $0.growth < $1.growth } ?? ("none", 0)
// Linear growth in all sessions would be ~10,000x; what remains below 10x is cache and
// hash-table size, not extra work.
goals.check(
  "cost per affected session, 100,000 vs 10 sessions < 10x",
  "\(fixed(worst.growth, 2))x (\(worst.name))", met: worst.growth < 10)

// Desktop histories (Desktop.swift): ten programs, each pausing and playing again, player first.
let desktopBudget = max(400_000 / budgetScale, 4)
let parts = DesktopBench.viaParts(policy: policy, devices: devices, budget: desktopBudget)
let arbiterRow = DesktopBench.viaArbiter(policy: policy, devices: devices, budget: desktopBudget)
print("")
print(pad("desktop path", 16) + pad("events", 10) + pad("events/s", 12))
for row in [parts, arbiterRow] {
  print(pad(row.path, 16) + pad("\(row.events)", 10) + pad(fixed(row.eventsPerSecond, 0), 12))
}
print("  a program's player pausing, its stream corking, and both again; ten programs")
let desktopRatio = parts.eventsPerSecond / arbiterRow.eventsPerSecond
goals.check(
  "desktop history step, arbiter vs tracker+engine path <= 1.25x the time",
  "\(fixed(desktopRatio, 2))x (\(fixed(arbiterRow.eventsPerSecond / 1e3, 0)) k events/s)",
  met: desktopRatio <= 1.25)
goals.check(
  "desktop history step through the arbiter >= 1,000,000 events/s",
  "\(fixed(arbiterRow.eventsPerSecond / 1e6, 2)) M events/s",
  met: arbiterRow.eventsPerSecond >= 1_000_000)
goals.finish()
