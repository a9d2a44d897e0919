import ArgumentParser
import AudioSession
import Foundation
import Testing

@testable import sessionctl

// product.md "Commands": names are Apple's Swift case names; wrong names list the valid ones;
// live commands talk to the daemon, and say exactly how to start one when none answers.
@Suite struct LiveCommandTests {
  @Test(
    "with no daemon and autostart off, a live command says how to start one (product.md Commands)",
    arguments: [
      ["activate"], ["set", "playback"], ["status", "--json"], ["simulate", "plug", "headphones"],
      ["simulate", "mic-mute", "on"],
    ])
  func run_noDaemonAutostartOff_saysHowToStartOne(arguments: [String]) throws {
    // Given no daemon on a private socket, and live commands told not to start one
    let socket = try CLIFixtures.temporaryFile("", name: "absent") + ".sock"
    // When the command runs
    let run = try SessionctlProcess.run(
      arguments + ["--socket", socket], environment: ["AUDIOSESSION_AUTOSTART": "0"])
    // Then it exits 1 naming the socket, the command that starts a daemon, and the switch
    #expect(run.status == 1)
    #expect(
      run.error.hasPrefix(
        "Error: no audio session daemon answers on '\(socket)' (no daemon answers on"))
    #expect(
      run.error.hasSuffix(
        "Start one with 'sessionctl daemon --socket \(socket) &' (or 'systemctl --user start "
          + "audiosession' with contrib/audiosession.service installed), or unset "
          + "AUDIOSESSION_AUTOSTART so that live commands start it themselves.\n"))
  }

  @Test(
    "a started daemon uses PulseAudio when a server is reachable, else the simulated backend (product.md Commands)"
  )
  func automatic_environment_choosesBackendAndSaysWhy() throws {
    let named = BackendChoice.automatic(environment: ["PULSE_SERVER": "unix:/x"])
    #expect(named.0 == .pulse && named.reason == "PULSE_SERVER names a PulseAudio server: unix:/x")
    let unset = BackendChoice.automatic(environment: [:])
    #expect(unset.0 == .simulated)
    #expect(unset.reason == "no PulseAudio server: neither PULSE_SERVER nor XDG_RUNTIME_DIR is set")
    let folder = try DaemonHarness.makeFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let silent = BackendChoice.automatic(environment: ["XDG_RUNTIME_DIR": folder, "PULSE_SERVER": ""])
    #expect(silent.0 == .simulated)
    #expect(silent.reason == "no PulseAudio server answers on \(folder)/pulse/native")
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
