import AudioSession
import AudioSessionPulse
import AudioSessionSystem
import Testing

extension PulseAudioTests {
  /// Module argument strings in the quoting PulseAudio accepts (docs/pulseaudio.md §1.2).
  @Suite struct PulseModuleArgumentsTests {
    // docs/pulseaudio.md §1.2 (quoting that works)
    @Test("property lists go in single quotes, values with spaces in double quotes, keys sorted")
    func make_propertiesWithSpaces_quotesAsMeasured() throws {
      let arguments = try PulseModuleArguments.make(
        ["sink_name": "hp"],
        propertyLists: [
          "sink_properties": [
            "device.form_factor": "headphone", "device.description": "Wired Headphones",
          ]
        ])
      #expect(
        arguments
          == "sink_name=hp sink_properties='device.description=\"Wired Headphones\" "
          + "device.form_factor=headphone'")
    }

    // docs/pulseaudio.md §1.2 (backslash escapes did not work)
    @Test(
      "a value with a quote, backslash or line break is rejected with the key named",
      arguments: ["Bob's Pods", "say \"hi\"", "back\\slash", "two\nlines"])
    func make_unquotableValue_throwsInvalidModuleArgument(_ value: String) throws {
      let error = try #require(throws: PulseServerError.self) {
        _ = try PulseModuleArguments.make(
          [:], propertyLists: ["sink_properties": ["device.description": value]])
      }
      #expect(error.code == .invalidModuleArgument)
      #expect(
        error.message
          == "the value of 'device.description' contains a quote, a backslash or a line break, "
          + "which PulseAudio module arguments cannot carry: \(value)")
    }

    // docs/pulseaudio.md §1.2
    @Test("a key outside PulseAudio's name characters is rejected")
    func make_keyWithSpace_throwsInvalidModuleArgument() throws {
      let error = try #require(throws: PulseServerError.self) {
        _ = try PulseModuleArguments.make(["sink name": "hp"])
      }
      #expect(
        error.message
          == "invalid module argument name 'sink name': "
          + "use ASCII letters, digits, '.', '_' and '-' only"
      )
    }
  }
}
