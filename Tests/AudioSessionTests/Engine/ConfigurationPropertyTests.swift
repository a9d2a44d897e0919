import AudioSessionTestSupport
import PropertyBased
import Testing

@testable import AudioSession

/// setCategory through the engine over every category × mode × option set
/// (docs/avaudiosession.md §4.1–§4.3, §3.1).
@Suite struct ConfigurationPropertyTests {
  @Test(
    "setCategory succeeds with read-back explicit ∪ implied, or fails with badParam and changes nothing (docs/avaudiosession.md §4.1–§4.3)"
  )
  func setCategory_anyCombination_succeedsOrChangesNothing() async throws {
    let policy = try TestPolicies.policy()
    let bits = CategoryOption.allCases.map(\.bits.rawValue).reduce(0, |)
    await propertyCheck(
      count: 3000,
      input: Gen<Category>.case, Gen<Mode>.case, Gen.uint(in: 0...bits), Gen.int(in: 0...14)
    ) { category, mode, raw, prior in
      let options = CategoryOptions(rawValue: raw & bits)
      var h = try EngineHarness()
      // Start from some other valid configuration, active or not.
      let priors: [(Category, Mode, CategoryOptions)] = [
        (.playback, .moviePlayback, []), (.playAndRecord, .voiceChat, [.defaultToSpeaker]),
        (.ambient, .default, []), (.record, .default, [.allowBluetoothHFP]),
        (.playback, .spokenAudio, [.duckOthers]),
      ]
      let (c0, m0, o0) = priors[prior % priors.count]
      h.set("app", c0, mode: m0, o0)
      if prior >= 5 { h.activate("app") }
      let before = h.status("app")
      let outcome = h.set("app", category, mode: mode, options)
      let after = h.status("app")
      if let error = outcome.error {
        #expect(error.code == .badParam, "\(category.name) \(mode.name) \(options.names): \(error)")
        #expect(after == before, "a failed setCategory changed the session")
        #expect(outcome.lines.isEmpty)
      } else {
        let explicit = CategoryOptions(Policy.explicitNames(options).named)
        var implied = policy.rules(for: category).impliedOptions
        for option in Policy.explicitNames(options).named {
          implied.formUnion(policy.rules(for: option).implies)
        }
        #expect(
          after.configuration
            == SessionConfiguration(category: category, mode: mode, options: explicit))
        #expect(after.options == explicit.union(implied))
      }
    }
  }

  @Test(
    "setCategory without a mode keeps the mode and says so when it no longer fits (docs/avaudiosession.md §3.1)"
  )
  func setCategory_keptModeInvalid_explains() throws {
    var h = try EngineHarness()
    h.set("movie", .playback, mode: .moviePlayback)
    let outcome = h.set("movie", .ambient)
    #expect(outcome.error?.code == .badParam)
    #expect(
      outcome.error?.message
        == "mode 'moviePlayback' is not valid with category 'ambient'; categories that accept it: playback (mode 'moviePlayback' was kept from the previous configuration; set a mode too)"
    )
    #expect(h.status("movie").configuration.category == .playback)
  }

  @Test("setMode clears the category options (docs/avaudiosession.md §3.1 [F-745968])")
  func setMode_clearsOptions() throws {
    var h = try EngineHarness()
    h.set("chat", .playAndRecord, mode: .videoChat, [.allowBluetoothHFP, .defaultToSpeaker])
    #expect(h.run(.setMode(session: "chat", mode: .voiceChat)).error == nil)
    #expect(h.status("chat").configuration.options == [])
    // voiceChat's implied HFP steers routing but is not read back (§12 D13 default).
    #expect(h.status("chat").options == [])
  }

  @Test("An advisory mode is accepted with a warning (docs/avaudiosession.md §3.1, §12 D4)")
  func setCategory_advisoryMode_warns() throws {
    var h = try EngineHarness()
    let outcome = h.set("app", .playAndRecord, mode: .spokenAudio)
    #expect(outcome.error == nil)
    #expect(outcome.warnings.count == 1)
  }
}
