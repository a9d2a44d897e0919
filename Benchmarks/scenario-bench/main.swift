// Scenario benchmark (docs/contract.md "Seeing why", Speed): what `scenario run --explain` and
// `--timeline` add to `scenario run --json` on the examples, in one run, as ratios.
//
// Each round replays every example in process on the in-memory backend, as `scenario run --json`
// does after parsing its arguments (the policy loaded, the file parsed, each step run and its JSON
// lines built), plainly, with `--explain` (the engine records each decision's source; the lines
// carry "because"), and with `--timeline` (the state after each step recorded, the SVG drawn and
// written to a file); the three are interleaved so that the machine's load falls on all alike.
// Target: at most 10% added by each. Without the flags nothing is recorded (engine-bench runs the
// engine with explaining off, as scenario run does).
import AudioSession
import AudioSessionScenario
import AudioSessionSystem
import BenchGoals
import FoundationEssentials
import SessionctlCommands

#if canImport(Glibc)
  import Glibc
#endif

func now() -> UInt64 {
  var time = timespec()
  clock_gettime(CLOCK_MONOTONIC, &time)
  return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

func percentile(_ values: [UInt64], _ fraction: Double) -> UInt64 {
  let sorted = values.sorted()
  return sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * fraction))]
}

let arguments = CommandLine.arguments.dropFirst()
let directory = arguments.first ?? "policies"
let examples = arguments.dropFirst().first ?? "examples"
let goals = BenchGoals(bench: "scenario-bench", limitSeconds: 600)
/// Quick mode (`make bench-quick`): 30 rounds unless the third argument names a count.
let rounds = Int(arguments.dropFirst(2).first ?? "") ?? (goals.quick ? 30 : 200)

let files =
  ((try? FileManager.default.contentsOfDirectory(atPath: examples)) ?? [])
  .filter { $0.hasSuffix(".yaml") }.sorted()
var texts: [(file: String, yaml: String)] = []
for file in files {
  let path = examples + "/" + file
  guard let data = FileManager.default.contents(atPath: path) else { continue }
  texts.append((path, String(decoding: data, as: UTF8.self)))
}
let scenarios = texts
guard !scenarios.isEmpty else {
  print("scenario-bench: no scenarios in \(examples)")
  exit(2)
}
let output = "/tmp/scenario-bench-\(getpid()).svg"
defer { unlink(output) }

/// Runs every example once as `scenario run FILE --json` does after parsing its arguments (the
/// policy loaded, the file read as YAML, every step parsed, the steps run, their JSON lines
/// built); with `timeline`, as `--timeline OUT.svg` does on top. Returns nanoseconds.
func replay(timeline: Bool, explain: Bool = false) async -> UInt64 {
  let start = now()
  for (file, yaml) in scenarios {
    do {
      let table = try PolicyLoader.load(directory: directory)
      let scenario = try Scenario(yaml: yaml, file: file)
      let plan = try StepParser.plan(scenario, catalog: table.devices)
      let policy = try Policy(table: table, profile: scenario.profile?.value)
      var bytes = 0
      let entries = try await plan.run(
        policy: policy, backend: InMemoryAudioBackend(), recordStates: timeline, explain: explain
      ) { entry in
        for line in entry.jsonLines { bytes &+= line.utf8.count }
      }
      if timeline {
        let svg = TimelineSVG.render(title: plan.scenario.name, entries: entries)
        if let reason = StandardStreams.writeFile(svg, atPath: output) {
          print("scenario-bench: \(reason)")
        }
      }
      if bytes == 0 { print("scenario-bench: \(file) printed nothing") }
    } catch {
      print("scenario-bench: \(file): \(error)")
      exit(2)
    }
  }
  return now() - start
}

// Warm up.
_ = await replay(timeline: false)
_ = await replay(timeline: true)
_ = await replay(timeline: false, explain: true)
var plain: [UInt64] = []
var drawn: [UInt64] = []
var explained: [UInt64] = []
for round in 0..<rounds {
  // Rotate which goes first.
  for turn in 0..<3 {
    switch (round + turn) % 3 {
    case 0: plain.append(await replay(timeline: false))
    case 1: drawn.append(await replay(timeline: true))
    default: explained.append(await replay(timeline: false, explain: true))
    }
  }
}
let plainTotal = Double(plain.reduce(0, +))
func ms(_ value: UInt64) -> String {
  let hundredths = (value + 5_000) / 10_000
  return "\(hundredths / 100).\(hundredths % 100 < 10 ? "0" : "")\(hundredths % 100) ms"
}
print("scenario-bench: \(scenarios.count) examples, \(rounds) rounds, in process")
for (name, values) in [
  ("scenario run --json", plain), ("... --explain", explained),
  ("... --timeline (states, SVG)", drawn),
] {
  let label = name + String(repeating: " ", count: max(0, 30 - name.count))
  print("  \(label) p50 \(ms(percentile(values, 0.5)))  p99 \(ms(percentile(values, 0.99)))")
}
for (name, values) in [("--explain", explained), ("--timeline", drawn)] {
  let total = Double(values.reduce(0, +)) / plainTotal
  let permille = Int(((total - 1) * 1000).rounded())
  let figure = "\(permille >= 0 ? "+" : "")\(Double(permille) / 10) %"
  print("  \(name) / plain, all rounds: \(figure)")
  goals.check("scenario run \(name) adds at most 10 %", figure, met: total <= 1.10)
}
goals.finish()
