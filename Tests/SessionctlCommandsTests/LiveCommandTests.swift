import ArgumentParser
import AudioSession
import AudioSessionSystem
import AudioSessionTestSupport
import AudioSessionWire
import Foundation
import Testing

@testable import SessionctlCommands

// docs/contract.md "Commands": names are Apple's Swift case names; wrong names list the valid ones;
// live commands talk to the daemon, and say exactly how to start one when none answers.
@Suite struct LiveCommandTests {
  @Test(
    "with no daemon and autostart off, a live command says how to start one (docs/contract.md Commands)",
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
    "a daemon that never answers: a live command gives up after --timeout or AUDIOSESSION_TIMEOUT and says what to do (docs/protocol.md Request timeout)",
    arguments: [
      (["--timeout", "0.3"], [String: String]()), ([], ["AUDIOSESSION_TIMEOUT": "0.3"]),
      (["--timeout", "0.3"], ["AUDIOSESSION_TIMEOUT": "60"]),
    ])
  func run_daemonNeverAnswers_timesOutWithSentence(
    options: [String], environment: [String: String]
  ) throws {
    // Given a socket that accepts connections but never answers
    let server = try SilentSocketServer()
    defer { server.stop() }
    // When a live command is run against it
    let clock = ContinuousClock()
    let started = clock.now
    let run = try SessionctlProcess.run(
      ["status", "--socket", server.path] + options, environment: environment)
    // Then it exits 1 after the timeout (--timeout wins over the variable), saying what to do
    #expect(clock.now - started < .seconds(10))
    #expect(run.status == 1)
    #expect(
      run.error == """
        Error: the audio session daemon on '\(server.path)' did not answer within 0.3 s. It may \
        be stuck or overloaded: look at its log ('journalctl --user -u audiosession' when it runs \
        as the systemd unit), restart it (stop the process, then 'sessionctl daemon --socket \
        \(server.path) &'), or wait longer with --timeout SECONDS or AUDIOSESSION_TIMEOUT. The \
        daemon does not run a command it reaches after that, but one it had started may still \
        take effect: check with 'sessionctl status' before you repeat it.

        """)
  }

  @Test(
    "a timeout that is not a positive number of seconds is refused (docs/contract.md Bad input)")
  func parse_badTimeout_isRefused() throws {
    for value in ["0", "nan", "100000"] {
      do {
        _ = try Sessionctl.parseAsRoot(["status", "--timeout", value])
        Issue.record("--timeout \(value) was accepted")
      } catch {
        #expect(
          Sessionctl.message(for: error)
            == "--timeout must be a number of seconds greater than 0 and at most 86400, such as "
            + "5 or 0.5")
        #expect(Sessionctl.exitCode(for: error) == .validationFailure)
      }
    }
    let parsed = try #require(
      try Sessionctl.parseAsRoot(["status", "--timeout", "2.5"]) as? Sessionctl.Status)
    #expect(try parsed.connection.requestTimeout(environment: [:]) == .milliseconds(2500))
    #expect(
      try parsed.connection.requestTimeout(environment: ["AUDIOSESSION_TIMEOUT": "9"])
        == .milliseconds(2500))
    let plain = try #require(try Sessionctl.parseAsRoot(["status"]) as? Sessionctl.Status)
    #expect(try plain.connection.requestTimeout(environment: [:]) == .seconds(5))
    #expect(
      try plain.connection.requestTimeout(environment: ["AUDIOSESSION_TIMEOUT": "0.5"])
        == .milliseconds(500))
    for value in ["abc", "-1", "0"] {
      #expect {
        try plain.connection.requestTimeout(environment: ["AUDIOSESSION_TIMEOUT": value])
      } throws: { error in
        "\(error)"
          == "AUDIOSESSION_TIMEOUT='\(value)' is not a usable timeout: set it to a number of "
          + "seconds greater than 0 and at most 86400, such as 5 or 0.5, or unset it to wait 5 "
          + "seconds."
      }
    }
  }

  @Test(
    "a started daemon uses PulseAudio when a server is reachable, else the simulated backend (docs/contract.md Commands)"
  )
  func automatic_environment_choosesBackendAndSaysWhy() throws {
    let named = BackendChoice.automatic(environment: ["PULSE_SERVER": "unix:/x"])
    #expect(named.0 == .pulse && named.reason == "PULSE_SERVER names a PulseAudio server: unix:/x")
    let unset = BackendChoice.automatic(environment: [:])
    #expect(unset.0 == .simulated)
    #expect(unset.reason == "no PulseAudio server: neither PULSE_SERVER nor XDG_RUNTIME_DIR is set")
    let folder = try TemporaryFolder.make()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let silent = BackendChoice.automatic(environment: [
      "XDG_RUNTIME_DIR": folder, "PULSE_SERVER": "",
    ])
    #expect(silent.0 == .simulated)
    #expect(silent.reason == "no PulseAudio server answers on \(folder)/pulse/native")
  }

  @Test(
    "every category, mode and override parses from its Swift name (docs/avaudiosession.md §1.1, §1.3)"
  )
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

  @Test(
    "option lists take Swift names, commas, and the allowBluetooth alias (docs/avaudiosession.md §1.2, §12 D12)"
  )
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

  @Test("a wrong mode lists the valid modes (docs/contract.md Commands)")
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

  @Test("a wrong option lists the valid options (docs/contract.md Commands)")
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

  @Test("a switch takes on or off (docs/contract.md Commands: simulate silent on|off)")
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

  @Test("--session names the session; it defaults to 'default' (docs/contract.md Commands)")
  func parse_sessionOption_setsSession() throws {
    let named = try #require(
      try Sessionctl.parseAsRoot(["play", "--session", "music"]) as? Sessionctl.Play)
    #expect(named.command() == .input(.startIO(session: "music")))
    let unnamed = try #require(try Sessionctl.parseAsRoot(["play"]) as? Sessionctl.Play)
    #expect(unnamed.command() == .input(.startIO(session: Command.defaultSession)))
    #expect(Command.defaultSession == "default")
  }
}
