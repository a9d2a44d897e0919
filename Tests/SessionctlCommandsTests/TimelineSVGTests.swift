import AudioSession
import AudioSessionScenario
import AudioSessionSystem
import AudioSessionTestSupport
import Foundation
import Testing

@testable import SessionctlCommands

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// `scenario run --timeline OUT.svg` (docs/contract.md "Seeing why"): every example's timeline is
/// a self-contained SVG that parses, names every session a step names, has one mark per
/// notification, and that `rsvg-convert` draws.
@Suite struct TimelineSVGTests {
  /// What an SVG holds, as an XML parser reads it.
  final class Reader: NSObject, XMLParserDelegate {
    var lanes: [String] = []
    var marks: [String: Int] = [:]
    var elements: Set<String> = []
    var attributes: [String] = []

    func parser(
      _ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
      qualifiedName: String?, attributes: [String: String]
    ) {
      elements.insert(name)
      self.attributes += attributes.keys
      guard name == "g" else { return }
      switch attributes["class"] {
      case "lane": lanes.append(attributes["data-session"] ?? "")
      case "mark":
        marks["\(attributes["data-session"] ?? "")@\(attributes["data-step"] ?? "")", default: 0] +=
          1
      default: break
      }
    }
  }

  /// Parses an SVG; nil if it is not well-formed XML.
  static func read(_ svg: String) -> Reader? {
    let parser = XMLParser(data: Data(svg.utf8))
    let reader = Reader()
    parser.delegate = reader
    return parser.parse() ? reader : nil
  }

  /// Runs a scenario in process, recording the state after each step.
  static func run(yaml: String, file: String) async throws -> (ScenarioPlan, [TranscriptEntry]) {
    let scenario = try Scenario(yaml: yaml, file: file)
    let plan = try StepParser.plan(scenario, catalog: try TestPolicies.table().devices)
    let profile = scenario.profile?.value
    let entries = try await plan.run(
      policy: try TestPolicies.policy(profile), backend: InMemoryAudioBackend(),
      recordStates: true)
    return (plan, entries)
  }

  /// `rsvg-convert` draws it (Debian's librsvg2-bin, which `make deps` installs).
  static func draws(_ svg: String) throws -> Bool {
    let folder = NSTemporaryDirectory() + "timeline-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try svg.write(toFile: folder + "/t.svg", atomically: true, encoding: .utf8)
    let child = try ChildProcess.spawn(
      "/usr/bin/rsvg-convert", arguments: [folder + "/t.svg", "-o", folder + "/t.png"],
      error: .null)
    guard child.waitForExit(seconds: 30), child.exitStatus == 0 else { return false }
    let size = (try? FileManager.default.attributesOfItem(atPath: folder + "/t.png")[.size]) as? Int
    return (size ?? 0) > 0
  }

  /// Checks an SVG against its transcript: parses, no script or external reference, a lane for
  /// every session a step names, one mark per notification, drawn by rsvg-convert.
  static func check(_ svg: String, plan: ScenarioPlan, entries: [TranscriptEntry]) throws {
    let reader = try #require(read(svg), "the SVG does not parse")
    #expect(!reader.elements.contains("script"))
    #expect(!reader.attributes.contains { $0.hasSuffix("href") })
    #expect(!svg.contains("url("))
    let named = Set(plan.commands.compactMap(\.session))
    #expect(named.isSubset(of: Set(reader.lanes)), "\(named) ⊄ \(reader.lanes)")
    #expect(Set(reader.lanes).count == reader.lanes.count)
    var expected: [String: Int] = [:]
    for entry in entries {
      for notification in entry.result.notifications {
        expected["\(notification.session)@\(entry.step)", default: 0] += 1
      }
    }
    #expect(reader.marks == expected)
    #expect(try draws(svg), "rsvg-convert could not draw it")
  }

  static let examples: [String] = {
    let folder = Repository.root + "/examples"
    let files = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    return files.filter { $0.hasSuffix(".yaml") }.sorted().map { folder + "/" + $0 }
  }()

  @Test(
    "every example's timeline parses, names every session, has one mark per notification, and rsvg-convert draws it (docs/contract.md Seeing why)",
    arguments: examples)
  func exampleTimeline(file: String) async throws {
    let yaml = try String(contentsOfFile: file, encoding: .utf8)
    let (plan, entries) = try await Self.run(yaml: yaml, file: file)
    #expect(entries.allSatisfy { $0.after != nil })
    let svg = TimelineSVG.render(title: plan.scenario.name, entries: entries)
    try Self.check(svg, plan: plan, entries: entries)
  }

  @Test(
    "eight sessions over a hundred steps: every lane, every mark, every step on the axis (docs/contract.md Seeing why)"
  )
  func eightSessionsHundredSteps() async throws {
    let sessions = (1...8).map { "app\($0)" }
    var steps: [String] = []
    let verbs = ["activate", "play", "stop", "deactivate --notify-others"]
    for index in 0..<100 {
      let session = sessions[index % 8]
      switch index {
      case 0..<8:
        steps.append("\(session) set playback\(index % 3 == 0 ? " --options duckOthers" : "")")
      case 50: steps.append("simulate plug headphones")
      case 70: steps.append("simulate call begin")
      case 75: steps.append("simulate call end")
      default: steps.append("\(session) \(verbs[(index / 8) % verbs.count])")
      }
    }
    let yaml = "name: eight apps\nsteps:\n" + steps.map { "  - \($0)\n" }.joined()
    let (plan, entries) = try await Self.run(yaml: yaml, file: "eight.yaml")
    let svg = TimelineSVG.render(title: "eight apps", entries: entries)
    try Self.check(svg, plan: plan, entries: entries)
    #expect(Self.read(svg)?.lanes == sessions)
    #expect(svg.components(separatedBy: #"<g class="step""#).count - 1 == 100)
  }

  @Test(
    "names and commands with XML's special characters are escaped (docs/contract.md Seeing why)")
  func escaping() throws {
    let name = "a\"<&>b\u{1}"
    let entry = TranscriptEntry(
      step: 1, command: #"x <&> "y""#,
      result: CommandResult(
        error: SessionError(.badParam, #"'<&>' "quoted""#),
        notifications: [SessionNotification(session: name, event: .unduck)]))
    let svg = TimelineSVG.render(title: "<a & b>", entries: [entry])
    let reader = try #require(Self.read(svg))
    #expect(reader.lanes == ["a\"<&>b "])
    #expect(reader.marks == ["a\"<&>b @1": 1])
    #expect(svg.contains("&lt;a &amp; b&gt;"))
  }

  @Test(
    "the README's picture, docs/timeline.svg, is what examples/commute.yaml draws now (make timeline)"
  )
  func readmePicture() async throws {
    let file = Repository.root + "/examples/commute.yaml"
    let (plan, entries) = try await Self.run(
      yaml: try String(contentsOfFile: file, encoding: .utf8), file: file)
    let committed = try String(
      contentsOfFile: Repository.root + "/docs/timeline.svg", encoding: .utf8)
    #expect(
      committed == TimelineSVG.render(title: plan.scenario.name, entries: entries),
      "docs/timeline.svg is stale: run 'make timeline'")
  }

  @Test(
    "scenario run --timeline writes the SVG; a folder that does not exist is refused before anything runs (docs/contract.md Seeing why)"
  )
  func command() throws {
    let folder = try TemporaryFolder.make()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let example = Repository.root + "/examples/music-and-call.yaml"
    let written = try SessionctlProcess.run(
      ["scenario", "run", example, "--timeline", folder + "/t.svg"])
    #expect(written.status == 0, "\(written.error)")
    let svg = try String(contentsOfFile: folder + "/t.svg", encoding: .utf8)
    #expect(Self.read(svg)?.lanes == ["music"])
    let refused = try SessionctlProcess.run(
      ["scenario", "run", example, "--timeline", folder + "/missing/t.svg"])
    #expect(refused.status != 0)
    #expect(refused.error.contains("cannot write the timeline '\(folder)/missing/t.svg'"))
    #expect(refused.output.isEmpty)
  }
}
