import AudioSession
import AudioSessionScenario
import AudioSessionTestSupport
import Foundation
import Testing

@testable import SessionctlCommands

/// `scenario run --explain` (docs/contract.md "Seeing why"): every notification and error says
/// which rule or table cell decided it, recorded by the engine as it decides; the path resolves
/// in its policy file, and the rule found there is the one that gives that decision.
@Suite struct ExplainTests {
  /// Runs a scenario in process, explaining or not.
  static func run(yaml: String, file: String, explain: Bool) async throws -> [TranscriptEntry] {
    let scenario = try Scenario(yaml: yaml, file: file)
    let plan = try StepParser.plan(scenario, catalog: try TestPolicies.table().devices)
    return try await plan.run(
      policy: try TestPolicies.policy(scenario.profile?.value), backend: InMemoryAudioBackend(),
      explain: explain)
  }

  /// Follows a key path (`rules[2]`, `categories.playback.options.duckOthers`) in a policy file.
  static func resolve(_ path: String, in file: String) throws -> Any? {
    let data = try Data(contentsOf: URL(fileURLWithPath: Repository.policies + "/" + file))
    var value: Any? = try JSONSerialization.jsonObject(with: data)
    for part in path.split(separator: ".") {
      var key = String(part)
      var indices: [Int] = []
      while let open = key.lastIndex(of: "["), key.hasSuffix("]"),
        let index = Int(key[key.index(after: open)..<key.index(before: key.endIndex)])
      {
        indices.insert(index, at: 0)
        key = String(key[..<open])
      }
      value = (value as? [String: Any])?[key]
      for index in indices {
        guard let array = value as? [Any], array.indices.contains(index) else { return nil }
        value = array[index]
      }
    }
    return value
  }

  /// The section numbers docs/avaudiosession.md has headings for (`5.1`, `6.3`).
  static let sections: Set<String> = {
    let text =
      (try? String(contentsOfFile: Repository.root + "/docs/avaudiosession.md", encoding: .utf8))
      ?? ""
    var numbers: Set<String> = []
    for line in text.split(separator: "\n") where line.hasPrefix("#") {
      let words = line.drop { $0 == "#" || $0 == " " }.split(separator: " ")
      if let first = words.first {
        numbers.insert(String(first).trimmingCharacters(in: CharacterSet(charactersIn: ".")))
      }
    }
    return numbers
  }()

  /// Checks one reason: it resolves, and the rule it names gives the decision it explains.
  static func check(_ because: Because, for event: SessionEvent?, step: String) throws {
    #expect(because.trigger == step)
    #expect(because.profile == "default")
    let source = because.source
    guard let policy = source.policy, let path = source.path else {
      let spec = try #require(source.spec, "no policy and no spec: \(because)")
      if let document = source.document {
        // The daemon's own rules (docs/mpris.md "What the daemon does"): a heading of that
        // document, quoted.
        let text = try String(contentsOfFile: Repository.root + "/" + document, encoding: .utf8)
        let headings = text.split(separator: "\n").filter { $0.hasPrefix("#") }.map {
          "\"" + $0.drop { $0 == "#" || $0 == " " } + "\""
        }
        #expect(headings.contains(spec), "\(spec) is no heading of \(document)")
        return
      }
      let section = spec.dropFirst().split(separator: " ").first.map(String.init) ?? ""
      #expect(spec.hasPrefix("§") && sections.contains(section), "\(spec) is no heading")
      return
    }
    let found = try resolve(path, in: policy)
    #expect(found != nil, "\(policy) \(path) does not resolve")
    if let name = source.switchName, policy == "profiles.json" {
      #expect(found is Bool || found is String, "\(path): not a switch")
      #expect(path.hasSuffix(".switches.\(name)"))
    }
    // An interaction rule gives the action the event reports.
    if policy == "interactions.json", path.hasPrefix("rules[") {
      let action = (found as? [String: Any])?["action"] as? String
      switch event {
      case .interruptionBegan?, .interruptionEnded?: #expect(action == "interrupt", "\(path)")
      case .duck?, .unduck?: #expect(action == "duck", "\(path)")
      case .mute?, .unmute?: #expect(action == "mute", "\(path)")
      default: Issue.record("\(path) explains \(String(describing: event))")
      }
    }
  }

  static let examples: [String] = {
    let folder = Repository.root + "/examples"
    let files = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    return files.filter { $0.hasSuffix(".yaml") }.sorted().map { folder + "/" + $0 }
  }()

  @Test(
    "every example, explained: the same transcript plus a reason for each notification, each resolving to the rule that gives it (docs/contract.md Seeing why)",
    arguments: examples)
  func example(file: String) async throws {
    let yaml = try String(contentsOfFile: file, encoding: .utf8)
    let plain = try await Self.run(yaml: yaml, file: file, explain: false)
    let explained = try await Self.run(yaml: yaml, file: file, explain: true)
    // Explaining changes no decision, and without it nothing is recorded.
    #expect(plain.map(\.result.notifications) == explained.map(\.result.notifications))
    #expect(plain.allSatisfy { $0.result.because.isEmpty && $0.result.errorBecause == nil })
    for entry in explained {
      #expect(entry.result.because.count == entry.result.notifications.count, "step \(entry.step)")
      for (notification, because) in zip(entry.result.notifications, entry.result.because) {
        try Self.check(because, for: notification.event, step: entry.command)
      }
      #expect((entry.result.error == nil) == (entry.result.errorBecause == nil))
      // The JSON lines carry it (the notifications', and the commands sent to other programs'
      // players); the plain ones do not.
      let lines = entry.jsonLines.dropFirst().filter {
        $0.contains(#""event":"#) || $0.contains(#""player":"#) && $0.contains(#""command":"#)
      }
      #expect(lines.allSatisfy { $0.contains(#""because":{"policy":"#) })
    }
  }

  @Test("errors name the table cell, rule or switch that refused (docs/contract.md Seeing why)")
  func errors() async throws {
    let yaml = """
      name: refusals
      steps:
        - music set playback --options defaultToSpeaker
        - music set playback --mode voiceChat
        - simulate call begin
        - voip set playAndRecord
        - simulate call end
        - game set ambient
        - game override speaker
      """
    let entries = try await Self.run(yaml: yaml, file: "refusals.yaml", explain: true)
    let reasons = entries.map { entry in
      entry.result.errorBecause.map { "\($0.source.policy ?? "-") \($0.source.path ?? "-")" }
    }
    #expect(
      reasons == [
        "categories.json categories.playback.options.defaultToSpeaker",
        "modes.json modes.voiceChat.categories.playback",
        nil,
        "interactions.json call.blocksSetCategory",
        nil,
        nil,
        "routes.json overrideCategories",
      ])
    for entry in entries {
      if let because = entry.result.errorBecause {
        try Self.check(because, for: nil, step: entry.command)
      }
    }
    let text = TranscriptText(commands: entries.map(\.command)).lines(entries[0])
    #expect(
      text.last
        == "     because categories.json categories.playback.options.defaultToSpeaker (profile default) ← music set playback --options defaultToSpeaker"
    )
  }

  @Test(
    "a rule that interrupts, a switch that ends: scenario run --explain --json prints them (docs/contract.md Seeing why)"
  )
  func command() throws {
    let run = try SessionctlProcess.run(
      [
        "scenario", "run", Repository.root + "/examples/podcast-spoken-prompt.yaml", "--explain",
        "--json",
      ])
    #expect(run.status == 0, "\(run.error)")
    #expect(
      run.lines.contains {
        $0.contains(#""event":"interruption","type":"began""#)
          && $0.contains(
            #""because":{"policy":"interactions.json","path":"rules[1]","profile":"default","switch":null,"trigger":"nav activate"}"#
          )
      }, "\(run.output)")
  }
}
