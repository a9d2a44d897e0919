import AudioSession
import Testing

extension PulseAudioTests {
  /// Module argument strings in the quoting PulseAudio accepts (spec/pulseaudio.md §1.2).
  @Suite struct PulseModuleArgumentsTests {
    // spec/pulseaudio.md §1.2 (quoting that works)
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

    // spec/pulseaudio.md §1.2 (backslash escapes did not work)
    @Test("a value with a quote cannot be written and is rejected with the key named")
    func make_valueWithQuote_throwsInvalidModuleArgument() throws {
      let error = try #require(throws: PulseServerError.self) {
        _ = try PulseModuleArguments.make(
          [:], propertyLists: ["sink_properties": ["device.description": "Bob's \"Pods\""]])
      }
      #expect(error.code == .invalidModuleArgument)
      #expect(error.message.hasPrefix("the value of 'device.description' contains a quote"))
    }

    // spec/pulseaudio.md §1.2
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
