import AudioSession
import AudioSessionScenario
import AudioSessionTestSupport
import PropertyBased
import Testing

@testable import SessionctlCommands

/// Random desktop histories written as scenario files (docs/contract.md "Desktop steps"): media
/// players that cork while paused and one that never does, a phone call and a browser's call
/// page, speech; the programs' own pauses, the user's play and pause, daemon and server
/// restarts. Every step parses and runs, and what `heard` says after each holds what the arbiter
/// promises (docs/arbiter.md).
@Suite struct DesktopStepsPropertyTests {
  struct Cast {
    var name: String
    var start: String
    var player = false
    var call = false
  }

  static let cast: [Cast] = [
    Cast(
      name: "mpv", start: "--binary mpv --role music --player org.mpris.MediaPlayer2.mpv",
      player: true),
    Cast(
      name: "chromium",
      start: "--binary chromium --app-name Chromium --never-corks "
        + "--player org.mpris.MediaPlayer2.chromium.instance800",
      player: true),
    Cast(name: "call", start: "--binary pacat --role phone", call: true),
    Cast(name: "meet", start: "--binary firefox-esr --app-name Firefox --records", call: true),
    Cast(name: "espeak", start: "--binary espeak-ng --app-name eSpeak"),
  ]

  /// Each code is a program (5) and an act (start, stop, pause, play, the user's play, the
  /// user's pause), or, past those, a daemon restart or a server restart.
  static let histories = Gen.int(in: 0...(cast.count * 6 + 1)).array(of: 1...10)

  /// The steps a history stands for, each followed by `heard`, with the calls that play after
  /// each; acts that cannot be (a program
  /// that runs started again, a user's command to a program without a player) are left out.
  static func steps(_ codes: [Int]) -> (steps: [String], calls: [[Int]]) {
    var running: Set<Int> = []
    var paused: Set<Int> = []
    var steps: [String] = []
    var calls: [[Int]] = []
    for code in codes {
      if code >= cast.count * 6 {
        steps.append(code == cast.count * 6 ? "simulate daemon restart" : "simulate server-restart")
        if code != cast.count * 6 { running = running.filter { cast[$0].player } }
      } else {
        let index = code % cast.count
        let program = cast[index]
        let act = code / cast.count
        switch act {
        case 0 where !running.contains(index):
          running.insert(index)
          paused.remove(index)
          steps.append("simulate program \(program.name) start \(program.start)")
        case 1 where running.contains(index):
          running.remove(index)
          steps.append("simulate program \(program.name) stop")
        case 2 where running.contains(index):
          paused.insert(index)
          steps.append("simulate program \(program.name) pause")
        case 3 where running.contains(index):
          paused.remove(index)
          steps.append("simulate program \(program.name) play")
        case 4 where running.contains(index) && program.player:
          steps.append("simulate user \(program.name) play")
        case 5 where running.contains(index) && program.player:
          steps.append("simulate user \(program.name) pause")
        default:
          continue
        }
      }
      steps.append("heard")
      // The calls that run and play (a paused call plays nothing).
      calls.append(running.subtracting(paused).filter { cast[$0].call }.sorted())
    }
    return (steps, calls)
  }

  @Test(
    "over random desktop histories as scenario files, every step parses and runs, every level is 0, the duck level or 1, and a call that plays is heard, ducked at most (docs/contract.md Desktop steps, docs/arbiter.md Calls)"
  )
  func histories_heardKeepsThePromises() async throws {
    let policy = try TestPolicies.policy()
    let catalog = try TestPolicies.table().devices
    await propertyCheck(count: 150, input: Self.histories) { codes in
      let (steps, calls) = Self.steps(codes)
      guard !steps.isEmpty else { return }
      let yaml = "name: h\nsteps:\n" + steps.map { "  - \($0)\n" }.joined()
      do {
        let plan = try StepParser.plan(try Scenario(yaml: yaml, file: "h.yaml"), catalog: catalog)
        let entries = try await plan.run(policy: policy, backend: InMemoryAudioBackend())
        #expect(entries.allSatisfy { $0.result.error == nil }, "\(steps)")
        let heard = entries.compactMap(\.desktop.heard)
        #expect(heard.count == calls.count)
        for (levels, running) in zip(heard, calls) {
          #expect(levels.allSatisfy { [0, 0.1, 1].contains($0.level) }, "\(levels), \(steps)")
          let names = Set(running.map { Self.cast[$0].name })
          let callHeard = levels.contains { names.contains($0.program) && $0.level > 0 }
          #expect(running.isEmpty || callHeard, "no call heard: \(levels), \(steps)")
        }
      } catch {
        Issue.record("\(error): \(steps)")
      }
    }
  }
}
