import AudioSession
import Foundation
import Testing

extension PulseAudioTests {
  /// Strict loading of policies/pulse.json (spec/pulseaudio.md §4 as data; STYLE §3.5).
  @Suite struct PulsePortRulesTests {
    /// A valid document with one rule, to be broken by each test.
    static func document(rule: String = validRule, fallback: String = validFallback) -> Data {
      Data(#"{"schemaVersion": 1, "rules": [\#(rule)], "fallback": \#(fallback)}"#.utf8)
    }

    static let validRule =
      #"{"name": "hp", "source": "§4 row 8", "when": [{"direction": "output"}], "#
      + #""port": "headphones"}"#
    static let validFallback = #"{"output": "builtInSpeaker", "input": "builtInMic"}"#

    static func problems(_ json: Data) throws -> [String] {
      let error = try #require(throws: PulsePortRulesError.self) {
        _ = try PulsePortRules(json: json, file: "pulse.json")
      }
      return error.problems.map(\.description)
    }

    // spec/pulseaudio.md §4
    @Test("the shipped policies/pulse.json loads: rows 0-15 in order, fallback speaker/mic")
    func load_shippedFile_hasEveryRowInOrder() throws {
      let rules = try PulsePortRules.load(from: PulseTestPolicies.url)
      #expect(
        rules.rules.map(\.name) == [
          "ignoreMonitor", "ignoreInternal", "airPlay", "bluetoothLE", "bluetoothHFP",
          "bluetoothA2DP", "carAudio", "HDMI", "usbAudio", "headphones", "headsetOutput",
          "headsetMic", "builtInReceiver", "builtInSpeaker", "builtInMic", "lineOut", "lineIn",
        ])
      #expect(rules.fallback == .init(output: .builtInSpeaker, input: .builtInMic))
      #expect(rules.rules.allSatisfy { $0.source.hasPrefix("spec/pulseaudio.md §4 row ") })
    }

    @Test("a minimal valid document decodes into typed rules (policies/pulse.json schema)")
    func init_minimalDocument_decodesTypedRule() throws {
      let rules = try PulsePortRules(json: Self.document())
      #expect(
        rules
          == PulsePortRules(
            rules: [
              .init(
                name: "hp", source: "§4 row 8", when: [.init(direction: .output)],
                outcome: .port(.headphones))
            ],
            fallback: .init(output: .builtInSpeaker, input: .builtInMic)))
    }

    // STYLE §3.5 (be strict: reject unknown keys)
    @Test("an unknown key is reported with its key path and the valid keys")
    func init_unknownConditionKey_reportsKeyPath() throws {
      let rule =
        #"{"name": "hp", "source": "s", "port": "headphones", "#
        + #""when": [{"direction": "output", "formFactor": ["x"]}]}"#
      #expect(
        try Self.problems(Self.document(rule: rule)) == [
          "rules[0].when[0].formFactor: unknown key; valid keys are: direction, monitor, "
            + "properties, propertyKeys, portTypes, portNames, drivers, cards, flags"
        ])
    }

    @Test("an unknown AVAudioSession port name is reported with the valid names (spec §7.2)")
    func init_unknownPortName_listsValidPorts() throws {
      let rule = #"{"name": "hp", "source": "s", "when": [{}], "port": "headphone"}"#
      #expect(
        try Self.problems(Self.document(rule: rule)) == [
          "rules[0].port: unknown port 'headphone'; valid values are 'ignore' or a port type: "
            + PortType.validNames
        ])
    }

    @Test("every problem is reported at once, each with its key path (STYLE §3.3)")
    func init_manyProblems_reportsAll() throws {
      let json = Data(
        #"""
        {"rules": [
          {"name": "a", "source": "s",
           "when": [{"portTypes": ["hdmi", "hdmii"], "flags": ["nope"]}],
           "port": "HDMI", "extra": 1},
          {"name": "a", "source": "", "when": [], "port": 3}
         ],
         "fallback": {"output": "builtInSpeaker"}, "version": 2}
        """#.utf8)
      let problems = try Self.problems(json)
      #expect(
        problems == [
          "version: unknown key; valid keys are: schemaVersion, description, rules, fallback",
          "(top level): missing required key 'schemaVersion'",
          "rules[0].extra: unknown key; valid keys are: name, source, when, port",
          "rules[0].when[0].portTypes[1]: unknown PulseAudio port type 'hdmii'; "
            + "valid PulseAudio port types are: "
            + PulsePortType.allCases.map(\.rawValue).joined(separator: ", "),
          "rules[0].when[0].flags[0]: unknown device flag 'nope'; valid device flags are: "
            + PulseDeviceFlags.named.map(\.name).joined(separator: ", "),
          "rules[1].source: must be a non-empty string",
          "rules[1].port: must be a string: 'ignore' or a port type: " + PortType.validNames,
          "rules[1].when: must be a non-empty list",
          "fallback: missing required key 'input'",
        ])
    }

    @Test(
      "duplicate rule names and a wrong schema version are rejected (policies/pulse.json schema)")
    func init_duplicateNameAndWrongVersion_rejected() throws {
      let text =
        #"{"schemaVersion": 2, "rules": [\#(Self.validRule), \#(Self.validRule)], "#
        + #""fallback": \#(Self.validFallback)}"#
      let json = Data(text.utf8)
      #expect(
        try Self.problems(json) == [
          "schemaVersion: must be 1", "rules[1].name: duplicate rule name 'hp'",
        ])
    }

    @Test("text that is not JSON, and a missing file, are reported as such (STYLE §3.5)")
    func load_notJSONOrMissing_reportsFileProblem() throws {
      let notJSON = try Self.problems(Data("rules: []".utf8))
      #expect(notJSON.count == 1 && notJSON[0].hasPrefix("(file): is not valid JSON"))
      let missing = try #require(throws: PulsePortRulesError.self) {
        _ = try PulsePortRules.load(from: URL(fileURLWithPath: "/nonexistent/pulse.json"))
      }
      #expect(missing.file == "/nonexistent/pulse.json")
      #expect(missing.problems.map(\.keyPath) == ["(file)"])
      #expect(
        missing.description.hasPrefix(
          "/nonexistent/pulse.json has 1 problem:\n- (file): cannot be read"))
    }
  }
}
