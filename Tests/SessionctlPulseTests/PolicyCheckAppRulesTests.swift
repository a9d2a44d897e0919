import ArgumentParser
import AudioSession
import AudioSessionTestSupport
import Foundation
import Testing

@testable import SessionctlCommands

/// `sessionctl policy check` judges apps.json as the daemon will use it
/// (docs/apps.md "Rules", docs/contract.md "Policies"): globs that cannot work, configurations
/// setCategory refuses, rules an earlier one hides, and a missing file.
@Suite struct PolicyCheckAppRulesTests {
  /// `policy check DIR`'s output, or the message of the error it throws.
  static func check(_ fixture: PolicyFixture) throws -> (ok: Bool, text: String) {
    let command = try #require(
      try Sessionctl.parseAsRoot(["policy", "check", fixture.directory])
        as? Sessionctl.PolicyCommand.Check)
    do {
      return (true, try command.output())
    } catch {
      return (false, Sessionctl.fullMessage(for: error, columns: 1000))
    }
  }

  @Test("an unterminated glob is a problem at its key path")
  func check_unterminatedGlob_isReported() throws {
    let fixture = try PolicyFixture()
    try fixture.edit(
      "apps.json", replacing: #""match": { "media.role": "game" }"#,
      with: #""match": { "application.name": "[gam" }"#)
    let result = try Self.check(fixture)
    #expect(!result.ok)
    #expect(
      result.text.contains(
        """
        the glob '[gam' opens a set with '[' that is never closed; close it with ']', or write \
        '\\[' for a literal bracket
        """), "\(result.text)")
    let games = try #require(
      try PolicyLoader.load(directory: Repository.policies).apps.rules.firstIndex {
        $0.name == "games"
      })
    #expect(
      result.text.contains("- apps.json: rules[\(games)].match.application.name: the glob '[gam'"),
      "\(result.text)")
  }

  @Test(
    "a configuration setCategory refuses is a problem: ambient with defaultToSpeaker, animations with voiceChat",
    arguments: [
      (
        #""name": "games","#, #""name": "games", "options": ["defaultToSpeaker"],"#,
        "rule 'games' gives ambient, mode default, options [defaultToSpeaker], which setCategory refuses under profile 'default' (badParam): "
      ),
      (
        #""name": "animations","#, #""name": "animations", "mode": "voiceChat","#,
        "rule 'animations' gives ambient, mode voiceChat, options [], which setCategory refuses under profile 'default' (badParam): mode 'voiceChat' is not valid with category 'ambient'"
      ),
    ])
  func check_refusedConfiguration_isReported(text: String, replacement: String, expected: String)
    throws
  {
    let fixture = try PolicyFixture()
    try fixture.edit("apps.json", replacing: text, with: replacement)
    let result = try Self.check(fixture)
    #expect(!result.ok)
    #expect(result.text.contains(expected), "\(result.text)")
  }

  @Test("a rule after a catch-all can never apply, as interactions.json says of its rules")
  func check_catchAllFirst_reportsShadowedRules() throws {
    let fixture = try PolicyFixture()
    try fixture.edit(
      "apps.json", replacing: #""rules": ["#,
      with:
        #""rules": [ { "name": "everything", "match": {}, "category": "ambient", "source": "test" },"#
    )
    let result = try Self.check(fixture)
    #expect(!result.ok)
    #expect(
      result.text.contains(
        """
        - apps.json: rules[1].match: rule 'phoneCalls' can never apply: rule 'everything' before \
        it matches every stream it matches; move 'phoneCalls' before it, or narrow 'everything'
        """), "\(result.text)")
  }

  @Test("the shipped rules pass, and a narrower rule after a wider one is reported")
  func shadows_widerFirst() {
    let any = AppRules.Rule(name: "a", match: ["media.role": "*"], outcome: .ignore)
    let music = AppRules.Rule(name: "m", match: ["media.role": "music"], outcome: .ignore)
    let absent = AppRules.Rule(name: "n", match: ["media.role": nil], outcome: .ignore)
    let mpv = AppRules.Rule(
      name: "p", match: ["media.role": "music", "application.name": "mpv"], outcome: .ignore)
    let glob = AppRules.Rule(name: "g", match: ["media.role": "mus*"], outcome: .ignore)
    #expect(AppRules.shadows(any, music))
    #expect(!AppRules.shadows(any, absent))
    #expect(AppRules.shadows(music, mpv))
    #expect(!AppRules.shadows(mpv, music))
    #expect(AppRules.shadows(glob, music))
    #expect(!AppRules.shadows(music, glob))
  }

  @Test("a directory without apps.json passes with a warning")
  func check_missingApps_warns() throws {
    let fixture = try PolicyFixture()
    try fixture.remove("apps.json")
    let result = try Self.check(fixture)
    #expect(result.ok)
    #expect(
      result.text.hasSuffix(
        """
        warning: \(fixture.directory) has no apps.json: on the PulseAudio backend other \
        programs' streams would not be arbitrated (never interrupted, ducked or muted); copy the \
        shipped one (docs/apps.md "Rules")
        """), "\(result.text)")
  }

  @Test("an engine input is logged in the contract's words, never as a Swift dump")
  func engineInput_description_usesContractWords() {
    let input = EngineInput.setCategory(
      session: "mpv.42", category: .ambient, mode: nil, options: [.duckOthers, .defaultToSpeaker])
    #expect(
      "\(input)" == "set mpv.42 ambient, mode kept, options [duckOthers, defaultToSpeaker]")
    let played = EngineInput.setActive(
      session: "mpv.42", active: false, options: .notifyOthersOnDeactivation)
    #expect("\(played)" == "deactivate mpv.42 notifying others")
  }
}
