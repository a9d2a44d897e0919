import ArgumentParser
import AudioSession
import Testing

@testable import sessionctl

// product.md "Commands": names are Apple's Swift case names; wrong names list the valid ones;
// live commands talk to the daemon (a later issue).
@Suite struct LiveCommandTests {
  static let daemonMessage =
    "needs the audio session daemon, which this version of sessionctl does not have yet. "
    + "To run live commands now, write them as the steps of a scenario file and run "
    + "'sessionctl scenario run FILE'."

  @Test(
    "run directly, a live command says the daemon is missing and points at scenario run (product.md Commands)",
    arguments: [
      (["activate"], "sessionctl activate"),
      (["set", "playback"], "sessionctl set"),
      (["status", "--json"], "sessionctl status"),
      (["simulate", "plug", "headphones"], "sessionctl simulate plug"),
      (["simulate", "mic-mute", "on"], "sessionctl simulate mic-mute"),
    ])
  func run_liveCommand_failsWithDaemonMessage(arguments: [String], invocation: String) async throws
  {
    var command = try #require(try Sessionctl.parseAsRoot(arguments) as? any AsyncParsableCommand)
    do {
      try await command.run()
      Issue.record("\(arguments) ran without a daemon")
    } catch {
      #expect(Sessionctl.message(for: error) == "'\(invocation)' \(Self.daemonMessage)")
      #expect(Sessionctl.exitCode(for: error) == .failure)
    }
  }

  @Test("every category, mode and override parses from its Swift name (spec §1.1, §1.3)")
  func init_argument_acceptsEverySwiftName() {
    for category in AudioSession.Category.allCases {
      #expect(AudioSession.Category(argument: category.name) == category)
    }
    for mode in Mode.allCases {
      #expect(Mode(argument: mode.name) == mode)
    }
    for value in PortOverride.allCases {
      #expect(PortOverride(argument: value.name) == value)
    }
    #expect(AudioSession.Category(argument: "AVAudioSessionCategoryPlayback") == nil)
    #expect(PortOverride(argument: "1936747378") == nil)
  }

  @Test("option lists take Swift names, commas, and the allowBluetooth alias (spec §1.2, §12 D12)")
  func categoryOptionList_names_parse() {
    #expect(
      CategoryOptionList(argument: "mixWithOthers,duckOthers")?.bits == [
        .mixWithOthers, .duckOthers,
      ])
    #expect(CategoryOptionList(argument: "allowBluetooth")?.options == [.allowBluetoothHFP])
    #expect(CategoryOptionList(argument: "")?.options == [])
    #expect(CategoryOptionList(argument: "mixWithOthers,,duckOthers") == nil)
    #expect(CategoryOptionList(argument: "mixWithOthers,loud") == nil)
  }

  @Test("a wrong mode lists the valid modes (product.md Commands)")
  func parse_unknownMode_listsModes() {
    #expect(throws: (any Error).self) {
      try Sessionctl.parseAsRoot(["set", "playback", "--mode", "movie"])
    }
    do {
      _ = try Sessionctl.parseAsRoot(["set", "playback", "--mode", "movie"])
    } catch {
      #expect(
        Sessionctl.message(for: error) == """
          The value 'movie' is invalid for '--mode <mode>'. Please provide one of the following:
            - default
            - voiceChat
            - gameChat
            - videoRecording
            - measurement
            - moviePlayback
            - videoChat
            - spokenAudio
            - voicePrompt
            - shortFormVideo
            - dualRoute
          """)
      #expect(Sessionctl.exitCode(for: error) == .validationFailure)
    }
  }

  @Test("a wrong option lists the valid options (product.md Commands)")
  func parse_unknownOption_listsOptions() {
    do {
      _ = try Sessionctl.parseAsRoot(["set", "playback", "--options", "mixWithOthers,loud"])
      Issue.record("an unknown option parsed")
    } catch {
      #expect(
        Sessionctl.message(for: error) == """
          The value 'mixWithOthers,loud' is invalid for '--options <option,…>'. Please provide one of the following:
            - mixWithOthers
            - duckOthers
            - allowBluetoothHFP
            - defaultToSpeaker
            - interruptSpokenAudioAndMixWithOthers
            - allowBluetoothA2DP
            - allowAirPlay
            - overrideMutedMicrophoneInterruption
            - farFieldInput
            - bluetoothHighQualityRecording
          """)
    }
  }

  @Test("a switch takes on or off (product.md Commands: simulate silent on|off)")
  func parse_badSwitchValue_listsOnOff() {
    do {
      _ = try Sessionctl.parseAsRoot(["simulate", "silent", "yes"])
      Issue.record("'yes' parsed")
    } catch {
      #expect(
        Sessionctl.message(for: error)
          == "The value 'yes' is invalid for '<state>'. Please provide one of 'on' and 'off'.")
    }
  }

  @Test("--session names the session; it defaults to 'default' (product.md Commands)")
  func parse_sessionOption_setsSession() throws {
    let named = try #require(
      try Sessionctl.parseAsRoot(["play", "--session", "music"]) as? Sessionctl.Play)
    #expect(named.command() == .play(session: "music"))
    let unnamed = try #require(try Sessionctl.parseAsRoot(["play"]) as? Sessionctl.Play)
    #expect(unnamed.command() == .play(session: Command.defaultSession))
    #expect(Command.defaultSession == "default")
  }
}
