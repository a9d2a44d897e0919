import AudioSession
import AudioSessionScenario
import AudioSessionSystem
import AudioSessionWire
import PropertyBased
import Testing

@testable import SessionctlCommands

// docs/contract.md "Scenario files": "music activate" means "activate --session music", for any
// session name and any command that acts on one session.
@Suite struct StepParserPropertyTests {
  static let nameCharacters = Array("abcXYZ019_.-")
  static let names = Gen<Character?>.element(of: nameCharacters).map { $0 ?? "a" }
    .string(of: 1...8)
    .filter { !$0.hasPrefix("-") && StepParser.sessionNameProblem($0) == nil }
  static let commands = Gen<String?>.element(of: [
    "set playback", "set playAndRecord --mode voiceChat --options allowBluetooth",
    "set playback --mode voicePrompt --options duckOthers,interruptSpokenAudioAndMixWithOthers",
    "activate", "deactivate", "deactivate --notify-others", "play", "stop", "override speaker",
    "override none", "remove", "route", "route --json",
  ]).map { $0 ?? "activate" }

  @Test("a session prefix is the same as --session (docs/contract.md Scenario files)")
  func command_prefixOrOption_giveSameCommand() async {
    await propertyCheck(input: Self.names, Self.commands) { name, command in
      let prefixed = try? StepParser.command("\(name) \(command)", catalog: StepParserTests.catalog)
      let option = try? StepParser.command(
        "\(command) --session \(name)", catalog: StepParserTests.catalog)
      #expect(prefixed != nil)
      #expect(prefixed == option)
      #expect(prefixed?.session == name)
    }
  }
}
