import AudioSession
import Testing

@testable import AudioSessionScenario

// docs/contract.md "Scenario files": a scenario is YAML (libyaml's parser; plain scalars typed as
// YAML 1.1 types them), and a value of the wrong type says what it is.
@Suite struct YAMLReaderTests {
  @Test(
    "plain scalars get YAML 1.1's types; quoted and tagged ones keep theirs (docs/contract.md Scenario files)",
    arguments: [
      ("42", YAMLScalarKind.integer), ("-17", .integer), ("0x1F", .integer), ("0o17", .string),
      ("017", .integer), ("0b101", .integer), ("1_000", .integer), ("1:30", .integer),
      ("3.5", .float), (".5", .float), ("1e+5", .float), ("1.5e-3", .float),
      (".inf", .float), ("-.Inf", .float), (".nan", .float), ("1:30.5", .float),
      ("true", .boolean), ("No", .boolean), ("OFF", .boolean), ("y", .string),
      ("~", .null), ("null", .null), ("", .null),
      ("2002-12-14", .timestamp), ("2001-12-14t21:59:43.10-05:00", .timestamp),
      ("2001-12-14 21:59:43.10", .timestamp), ("2001-12-14", .timestamp), ("2001-1-1", .string),
      ("music activate", .string), ("1.2.3", .string), ("12abc", .string), ("-", .string),
    ])
  func plainScalarKinds(text: String, kind: YAMLScalarKind) throws {
    #expect(YAMLPlainScalar.kind(of: text) == kind, "'\(text)'")
  }

  @Test("a quoted number and a !!str-tagged one are strings (docs/contract.md Scenario files)")
  func quotedAndTagged() throws {
    let root = try #require(try YAMLReader.compose("a: '42'\nb: !!str 7\nc: 7\n"))
    guard case .mapping(let pairs, _) = root else {
      Issue.record("not a mapping")
      return
    }
    let kinds = pairs.map { pair -> YAMLScalarKind? in
      if case .scalar(_, let kind, _) = pair.value { return kind }
      return nil
    }
    #expect(kinds == [.string, .string, .integer])
  }

  @Test("an alias stands for its anchor's node (docs/contract.md Scenario files)")
  func aliases() throws {
    let scenario = try Scenario(
      yaml: "name: &n story\nsteps:\n  - *n\n", file: "s.yaml")
    #expect(scenario.steps.map(\.text) == ["story"])
  }

  @Test(
    "an undefined alias and a second document are errors with their place (docs/contract.md Bad input)"
  )
  func streamErrors() {
    #expect(throws: ScenarioError.self) { try Scenario(yaml: "name: *nope\n", file: "s.yaml") }
    do {
      _ = try Scenario(yaml: "name: a\nsteps: [status]\n---\nname: b\n", file: "s.yaml")
      Issue.record("two documents were accepted")
    } catch {
      #expect(
        error.description
          == "s.yaml:3:1: invalid YAML: but found another document (expected a single document in the stream at line 1, column 1)"
      )
    }
  }
}
