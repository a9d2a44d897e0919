import AudioSession
import AudioSessionScenario
import Testing

// docs/contract.md "Scenario files" (keys, steps) and "Bad input" (file, line, what was expected).
@Suite struct ScenarioLoaderTests {
  func load(_ yaml: String) throws(ScenarioError) -> Scenario {
    try Scenario(yaml: yaml, file: "s.yaml")
  }

  /// The error's description, or nil when the file loads.
  func problem(_ yaml: String) -> String? {
    do {
      _ = try load(yaml)
      return nil
    } catch {
      return error.description
    }
  }

  @Test(
    "every key is read, and each step keeps its text and line:column (docs/contract.md Scenario files)"
  )
  func load_allKeys_readsValuesAndStepLocations() throws {
    let scenario = try load(
      """
      name: a call interrupts music
      description: the story
      devices: [builtInSpeaker, builtInMic]
      profile: default
      steps:
        - music set playback   # a comment
        - "nav set playback --options 'a b'"
      """)
    #expect(scenario.name == "a call interrupts music")
    #expect(scenario.description == "the story")
    #expect(scenario.devices?.map(\.value) == ["builtInSpeaker", "builtInMic"])
    #expect(scenario.devices?.map(\.location.description) == ["s.yaml:3:11", "s.yaml:3:27"])
    #expect(
      scenario.profile == Located("default", at: FileLocation(file: "s.yaml", line: 4, column: 10)))
    #expect(
      scenario.steps == [
        ScenarioStep(
          text: "music set playback", location: FileLocation(file: "s.yaml", line: 6, column: 5)),
        ScenarioStep(
          text: "nav set playback --options 'a b'",
          location: FileLocation(file: "s.yaml", line: 7, column: 5)),
      ])
  }

  @Test("optional keys may be left out (docs/contract.md Scenario files)")
  func load_onlyRequiredKeys_leavesOptionalsNil() throws {
    let scenario = try load("name: n\nsteps: [status]\n")
    #expect(scenario.description == nil)
    #expect(scenario.devices == nil)
    #expect(scenario.profile == nil)
    #expect(scenario.steps.map(\.text) == ["status"])
  }

  @Test("a JSON file is accepted (docs/contract.md Scenario files: YAML, JSON accepted)")
  func load_json_isAccepted() throws {
    let scenario = try load(
      """
      {"name": "json", "devices": ["builtInSpeaker"],
       "steps": ["music activate", "status"]}
      """)
    #expect(scenario.name == "json")
    #expect(scenario.steps.map(\.text) == ["music activate", "status"])
    #expect(scenario.steps[1].location.description == "s.yaml:2:30")
  }

  static let shape =
    "a mapping with the keys 'name' and 'steps' (optional: 'description', 'devices', 'profile')"

  @Test("an empty file says what a scenario is (docs/contract.md Bad input)")
  func load_emptyFile_throws() {
    #expect(problem("") == "s.yaml:1:1: expected \(Self.shape), found an empty file")
  }

  @Test("a list at the top level is rejected (docs/contract.md Bad input)")
  func load_listRoot_throws() {
    #expect(problem("- status\n") == "s.yaml:1:1: expected \(Self.shape), found a list")
  }

  @Test("an unknown key is named with the valid keys (docs/contract.md Bad input)")
  func load_unknownKey_throws() {
    #expect(
      problem("name: n\nstepz: [status]\n")
        == "s.yaml:2:1: unknown key 'stepz'; valid keys are: name, description, devices, profile, steps"
    )
  }

  @Test("a missing name is reported at the mapping (docs/contract.md Bad input)")
  func load_missingName_throws() {
    #expect(
      problem("steps: [status]\n")
        == "s.yaml:1:1: missing key 'name': expected the scenario's name (a string)")
  }

  @Test("missing steps are reported at the mapping (docs/contract.md Bad input)")
  func load_missingSteps_throws() {
    #expect(
      problem("name: n\n")
        == "s.yaml:1:1: missing key 'steps': expected a non-empty list of sessionctl command lines")
  }

  @Test("a name of the wrong type says what was found (docs/contract.md Bad input)")
  func load_integerName_throws() {
    #expect(
      problem("name: 42\nsteps: [status]\n")
        == "s.yaml:1:7: expected 'name' to be a string, found an integer (42)")
  }

  @Test("an empty description is rejected (docs/contract.md Bad input)")
  func load_nullDescription_throws() {
    #expect(
      problem("name: n\ndescription:\nsteps: [status]\n")
        == "s.yaml:2:13: expected 'description' to be a string, found nothing (null)")
  }

  @Test("an empty step list is rejected (docs/contract.md Scenario files: steps are required)")
  func load_emptySteps_throws() {
    #expect(
      problem("name: n\nsteps: []\n")
        == "s.yaml:2:8: expected 'steps' to be a non-empty list of sessionctl command lines, found an empty list"
    )
  }

  @Test("steps that are not a list are rejected (docs/contract.md Bad input)")
  func load_stepsString_throws() {
    #expect(
      problem("name: n\nsteps: status\n")
        == "s.yaml:2:8: expected 'steps' to be a non-empty list of sessionctl command lines, found a string ('status')"
    )
  }

  @Test("a step that YAML reads as a mapping gets a hint to quote it (docs/contract.md Bad input)")
  func load_stepMapping_throwsWithHint() {
    #expect(
      problem("name: n\nsteps:\n  - status\n  - music set: playback\n")
        == "s.yaml:4:5: expected step 2 to be a sessionctl command line (a string), found a mapping; quote the step if it contains ': '"
    )
  }

  @Test("a step of the wrong type says which step (docs/contract.md Bad input)")
  func load_integerStep_throws() {
    #expect(
      problem("name: n\nsteps:\n  - status\n  - 42\n")
        == "s.yaml:4:5: expected step 2 to be a string, found an integer (42)")
  }

  @Test("an empty step string is rejected (docs/contract.md Bad input)")
  func load_emptyStep_throws() {
    #expect(
      problem("name: n\nsteps: ['']\n")
        == "s.yaml:2:9: expected step 1 to be a non-empty string, found an empty string")
  }

  @Test("devices must be a list of names (docs/contract.md Scenario files)")
  func load_devicesWrongTypes_throw() {
    #expect(
      problem("name: n\ndevices: builtInSpeaker\nsteps: [status]\n")
        == "s.yaml:2:10: expected 'devices' to be a list of device preset names, found a string ('builtInSpeaker')"
    )
    #expect(
      problem("name: n\ndevices: [builtInSpeaker, true]\nsteps: [status]\n")
        == "s.yaml:2:27: expected device 2 to be a string, found a boolean (true)")
  }

  @Test("a duplicate key is rejected (docs/contract.md Bad input)")
  func load_duplicateKey_throws() {
    #expect(
      problem("name: a\nname: b\nsteps: [status]\n")
        == "s.yaml:1:1: duplicate key 'name': each key may appear only once")
  }

  @Test("invalid YAML is reported where libyaml found it (docs/contract.md Bad input)")
  func load_invalidYAML_throws() {
    #expect(
      problem("name: n\nsteps:\n  - status\n - play\n")
        == "s.yaml:4:2: invalid YAML: did not find expected key (while parsing a block mapping at line 1, column 1)"
    )
  }

  @Test("device presets are checked against the catalog (docs/contract.md Device presets)")
  func deviceProblems_unknownPreset_listsValidPresets() throws {
    let scenario = try load("name: n\ndevices: [builtInSpeaker, speaker]\nsteps: [status]\n")
    let catalog = DeviceCatalog(
      presets: [
        "builtInSpeaker": DevicePreset(
          name: "builtInSpeaker", displayName: "Speaker",
          ports: [PresetPort(type: .builtInSpeaker, direction: .output, name: "Speaker")],
          uid: "builtin-speaker", pulseProperties: [:]),
        "headphones": DevicePreset(
          name: "headphones", displayName: "Headphones",
          ports: [PresetPort(type: .headphones, direction: .output, name: "Headphones")],
          uid: nil, pulseProperties: [:]),
      ], presetOrder: ["builtInSpeaker", "headphones"], defaultDevices: ["builtInSpeaker"])
    #expect(
      scenario.deviceProblems(catalog: catalog).map(\.description) == [
        "s.yaml:2:27: unknown device preset 'speaker'; valid presets are: builtInSpeaker, headphones"
      ])
  }
}
