import AudioSession
import AudioSessionPulse
import AudioSessionPulseTestSupport
import AudioSessionSystem
import AudioSessionTestSupport
import Foundation
import Testing

extension PulseAudioTests {
  /// Strict loading of policies/pulse.json (docs/pulseaudio.md §4 as data; docs/style.md §3.5).
  @Suite struct PulsePortRulesTests {
    static let validRule =
      #"{"name": "hp", "source": "§4 row 8", "when": [{"direction": "output"}], "#
      + #""port": "headphones"}"#
    static let validFallback = #"{"output": "builtInSpeaker", "input": "builtInMic"}"#

    /// A document with one rule and the fallback, to be broken by each test.
    static func document(rule: String = validRule, fallback: String = validFallback) -> String {
      #"{"schemaVersion": 1, "rules": [\#(rule)], "fallback": \#(fallback)}"#
    }

    /// Loads `text` as the pulse.json of a scratch policies directory.
    static func load(_ text: String) throws -> PulsePortRules {
      let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("audiosession-pulse-rules-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(at: directory) }
      try Data(text.utf8).write(
        to: directory.appendingPathComponent(PulsePortRules.fileName))
      return try PulsePortRules.load(directory: directory.path)
    }

    /// The problems loading `text` reports, as `pulse.json: key.path: message` lines.
    static func problems(_ text: String) throws -> [String] {
      let error = try #require(throws: PolicyValidationError.self) { _ = try load(text) }
      return error.problems.map(\.description)
    }

    // docs/pulseaudio.md §4
    @Test("the shipped policies/pulse.json loads: rows 0-15 in order, fallback speaker/mic")
    func load_shippedFile_hasEveryRowInOrder() throws {
      let rules = try PulseTestPolicies.rules()
      #expect(
        rules.rules.map(\.name) == [
          "ignoreMonitor", "ignoreInternal", "ignoreLoopbacks", "placeholder", "airPlay",
          "bluetoothLE",
          "bluetoothHFP",
          "bluetoothA2DP", "carAudio", "HDMI", "usbAudio", "headphones", "headsetOutput",
          "headsetMic", "builtInReceiver", "builtInSpeaker", "builtInMic", "lineOut", "lineIn",
        ])
      #expect(rules.fallback == .init(output: .builtInSpeaker, input: .builtInMic))
      #expect(rules.rules.allSatisfy { $0.source.hasPrefix("docs/pulseaudio.md §4 row ") })
    }

    // docs/style.md §3.5 (pulse.json sits beside the table's files; policy check must accept it)
    @Test("the policy loader accepts pulse.json beside its seven files")
    func policyLoader_directoryWithPulseJSON_loads() throws {
      #expect(FileManager.default.fileExists(atPath: Repository.policies + "/pulse.json"))
      _ = try PolicyLoader.load(directory: Repository.policies)
    }

    // policies/pulse.json schema (docs/pulseaudio-layer.md)
    @Test("a minimal valid document decodes into typed rules")
    func load_minimalDocument_decodesTypedRule() throws {
      #expect(
        try Self.load(Self.document())
          == PulsePortRules(
            rules: [
              .init(
                name: "hp", source: "§4 row 8", when: [.init(direction: .output)],
                outcome: .port(.headphones))
            ],
            fallback: .init(output: .builtInSpeaker, input: .builtInMic)))
    }

    // docs/pulseaudio-layer.md "The streams section"; docs/apps.md "Our own streams never leak"
    @Test(
      "streams.movable is optional, false when absent and in the shipped file, and must be a boolean"
    )
    func load_streamsMovable_optionalBoolean() throws {
      #expect(try PulsePolicy.load(directory: Repository.policies).streams.movable == false)
      let streams =
        #""streams": {"roles": {"categories": {"ambient": "game", "soloAmbient": "game", "#
        + #""playback": "music", "record": "production", "playAndRecord": "phone", "#
        + #""audioProcessing": "production", "multiRoute": "production"}, "modes": {}}, "#
        + #""duckDecibels": -20, "callRoles": ["phone"]"#
      let base = Self.document().dropLast()
      _ = try Self.load(base + ", " + streams + "}}")
      #expect(
        try Self.problems(base + ", " + streams + #", "movable": "yes"}}"#) == [
          "pulse.json: streams.movable: expected true or false, found the string \"yes\""
        ])
    }

    // docs/style.md §3.5 (be strict: reject unknown keys)
    @Test("an unknown key is reported with its key path and the valid keys")
    func load_unknownConditionKey_reportsKeyPath() throws {
      let rule =
        #"{"name": "hp", "source": "s", "port": "headphones", "#
        + #""when": [{"direction": "output", "formFactor": ["x"]}]}"#
      #expect(
        try Self.problems(Self.document(rule: rule)) == [
          "pulse.json: rules[0].when[0].formFactor: unknown key 'formFactor'; valid keys: "
            + "direction, monitor, properties, propertyKeys, portTypes, portNames, drivers, "
            + "cards, flags"
        ])
    }

    // docs/avaudiosession.md §7.2 (port type names)
    @Test("an unknown AVAudioSession port name is reported with the valid names")
    func load_unknownPortName_listsValidPorts() throws {
      let rule = #"{"name": "hp", "source": "s", "when": [{}], "port": "headphone"}"#
      #expect(
        try Self.problems(Self.document(rule: rule)) == [
          "pulse.json: rules[0].port: unknown port type 'headphone'; valid: ignore, placeholder, "
            + PortType.validNames
        ])
    }

    // docs/style.md §3.3 (report every problem, one per key path)
    @Test("every problem is reported at once, each with its key path")
    func load_manyProblems_reportsAll() throws {
      let text = #"""
        {"rules": [
          {"name": "a", "source": "s", "port": "HDMI", "extra": 1,
           "when": [{"portTypes": ["hdmi", "hdmii"], "flags": ["nope"], "direction": "out"}]},
          {"name": "b", "source": " ", "when": [], "port": 3}
         ],
         "fallback": {"output": "builtInSpeaker"}, "version": 2}
        """#
      let portTypes = PulsePortType.allCases.map(\.name).joined(separator: ", ")
      let flags = PulseDeviceFlags.named.map(\.name).joined(separator: ", ")
      #expect(
        try Self.problems(text) == [
          "pulse.json: version: unknown key 'version'; valid keys: rules, fallback, description, "
            + "streams, schemaVersion",
          "pulse.json: schemaVersion: missing required key 'schemaVersion'; add "
            + "\"schemaVersion\": 1",
          "pulse.json: rules[0].extra: unknown key 'extra'; valid keys: name, source, when, port",
          "pulse.json: rules[0].when[0].direction: unknown direction 'out'; valid: input, output",
          "pulse.json: rules[0].when[0].portTypes[1]: unknown PulseAudio port type 'hdmii'; "
            + "valid: \(portTypes)",
          "pulse.json: rules[0].when[0].flags[0]: unknown device flag 'nope'; valid: \(flags)",
          "pulse.json: rules[1].source: must not be empty",
          "pulse.json: rules[1].port: expected a string, found the number 3",
          "pulse.json: rules[1].when: must list at least one condition ({} matches every device)",
          "pulse.json: fallback.input: missing required key 'input'",
        ])
    }

    // policies/pulse.json schema: rule names are unique; schemaVersion is 1
    @Test("duplicate rule names and a wrong schema version are rejected")
    func load_duplicateNameAndWrongVersion_rejected() throws {
      let text =
        #"{"schemaVersion": 2, "rules": [\#(Self.validRule), \#(Self.validRule)], "#
        + #""fallback": \#(Self.validFallback)}"#
      #expect(
        try Self.problems(text) == [
          "pulse.json: schemaVersion: schemaVersion must be 1, the version this loader reads; "
            + "found the number 2",
          "pulse.json: rules[1]: rule name 'hp' is used twice; names must be unique",
        ])
    }

    // docs/style.md §3.5 (bad files are reported, never a crash)
    @Test("text that is not JSON, and a missing file, are reported as such")
    func load_notJSONOrMissing_reportsFileProblem() throws {
      let notJSON = try Self.problems("rules: []")
      #expect(notJSON.count == 1)
      #expect(notJSON.first?.hasPrefix("pulse.json: invalid JSON at line 1, column 1") == true)
      let missing = try #require(throws: PolicyValidationError.self) {
        _ = try PulsePortRules.load(directory: "/nonexistent")
      }
      #expect(
        missing.problems.map(\.description) == [
          "pulse.json: missing file; the PulseAudio backend maps devices with "
            + "/nonexistent/pulse.json"
        ])
    }
  }
}
