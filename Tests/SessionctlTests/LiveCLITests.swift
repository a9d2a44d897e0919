import AudioSession
import AudioSessionDaemonTestSupport
import AudioSessionSystem
import AudioSessionTestSupport
import AudioSessionWire
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The live commands as a person runs them (docs/contract.md "Commands"): real `sessionctl`
/// processes against a daemon on a private socket.
@Suite struct LiveCLITests {
  @Test(
    "set, activate and status print what happened; errors exit 1 with a sentence (docs/contract.md)"
  )
  func liveCommands_againstDaemon_printResults() async throws {
    let daemon = try await DaemonHarness.start()
    let socket = ["--socket", daemon.socketPath]
    #expect(
      try SessionctlProcess.run(["set", "playback", "--session", "music"] + socket).status == 0)
    #expect(try SessionctlProcess.run(["activate", "--session", "music"] + socket).status == 0)
    let nav = try SessionctlProcess.run(
      ["set", "playback", "--mode", "voicePrompt", "--options", "duckOthers", "--session", "nav"]
        + socket)
    #expect(nav.status == 0)
    let activate = try SessionctlProcess.run(["activate", "--session", "nav"] + socket)
    #expect(activate.lines == ["music  duck (by: nav)"])
    let status = try SessionctlProcess.run(["status"] + socket)
    #expect(status.lines.first?.hasPrefix("session  category  mode") == true)
    #expect(status.lines.contains { $0.hasPrefix("nav      playback  voicePrompt") })
    let json = try SessionctlProcess.run(["route", "--session", "music", "--json"] + socket)
    #expect(
      json.lines == [
        #"{"result":"ok","route":{"inputs":[],"outputs":[{"portType":"builtInSpeaker","portName":"Speaker","uid":"builtin-speaker"}]}}"#
      ])
    let bad = try SessionctlProcess.run(
      ["set", "playback", "--options", "defaultToSpeaker", "--session", "music"] + socket)
    #expect(bad.status == 1)
    #expect(bad.error.hasPrefix("Error: badParam (-50): "))
    await daemon.stop()
  }

  @Test(
    "output-muted goes to the daemon: the session is told, status shows it, a bad state lists on and off and changes nothing (docs/contract.md More of AVAudioSession, Bad input)"
  )
  func outputMuted_againstDaemon_toldAndShown() async throws {
    let daemon = try await DaemonHarness.start()
    let socket = ["--socket", daemon.socketPath]
    #expect(
      try SessionctlProcess.run(
        ["set", "playback", "--mode", "shortFormVideo", "--session", "feed"] + socket
      ).status == 0)
    let muted = try SessionctlProcess.run(["output-muted", "on", "--session", "feed"] + socket)
    #expect(muted.status == 0)
    #expect(muted.lines == ["feed  outputMuteStateChange muted"])
    let bad = try SessionctlProcess.run(["output-muted", "maybe", "--session", "feed"] + socket)
    #expect(bad.status != 0)
    #expect(bad.error.contains("'on' and 'off'"))
    let status = try SessionctlProcess.run(["status"] + socket)
    #expect(status.lines.contains("feed: output muted"))
    let down = try SessionctlProcess.run(["simulate", "volume", "0.5"] + socket)
    #expect(down.status == 0 && down.lines.isEmpty)
    let up = try SessionctlProcess.run(["simulate", "volume", "0.8"] + socket)
    #expect(
      up.lines == ["feed  userIntentToUnmuteOutput", "feed  outputMuteStateChange unmuted"])
    await daemon.stop()
  }

  @Test(
    "against the daemon, a muted playAndRecord session set to mode voiceChat is unmuted and told; every session's status shows outputVolume (docs/avaudiosession.md §13.6, docs/contract.md More of AVAudioSession)"
  )
  func playAndRecordMode_againstDaemon_unmutes() async throws {
    let daemon = try await DaemonHarness.start()
    let socket = ["--socket", daemon.socketPath]
    _ = try SessionctlProcess.run(["set", "playAndRecord", "--session", "voip"] + socket)
    let muted = try SessionctlProcess.run(["output-muted", "on", "--session", "voip"] + socket)
    #expect(muted.lines == ["voip  outputMuteStateChange muted"])
    let voice = try SessionctlProcess.run(
      ["set", "playAndRecord", "--mode", "voiceChat", "--session", "voip"] + socket)
    #expect(voice.status == 0 && voice.lines == ["voip  outputMuteStateChange unmuted"])
    _ = try SessionctlProcess.run(["set", "playback", "--session", "music"] + socket)
    _ = try SessionctlProcess.run(["simulate", "volume", "0.25"] + socket)
    let status = try SessionctlProcess.run(["status", "--json"] + socket)
    #expect(status.lines.count == 1)
    #expect(status.lines.first?.components(separatedBy: #""outputVolume":0.25"#).count == 3)
    let text = try SessionctlProcess.run(["status"] + socket)
    #expect(text.lines.contains("voip: outputVolume 0.25"))
    #expect(text.lines.contains("music: outputVolume 0.25"))
    await daemon.stop()
  }

  @Test(
    "input-muted goes to the daemon: stored while inactive, told on activation, status shows it; the hardware mic stays unmuted (docs/contract.md More of AVAudioSession, docs/avaudiosession.md §13.6)"
  )
  func inputMuted_againstDaemon_toldAndShown() async throws {
    let daemon = try await DaemonHarness.start()
    let socket = ["--socket", daemon.socketPath]
    _ = try SessionctlProcess.run(["set", "record", "--session", "memo"] + socket)
    let stored = try SessionctlProcess.run(
      ["input-muted", "on", "--session", "memo", "--json"] + socket)
    #expect(stored.lines == [#"{"result":"ok"}"#])
    let active = try SessionctlProcess.run(["activate", "--session", "memo"] + socket)
    #expect(active.status == 0 && active.lines == ["memo  inputMuteStateChange muted"])
    let unmuted = try SessionctlProcess.run(
      ["input-muted", "off", "--session", "memo", "--json"] + socket)
    #expect(
      unmuted.lines == [
        #"{"result":"ok"}"#, #"{"session":"memo","event":"inputMuteStateChange","muted":false}"#,
      ])
    _ = try SessionctlProcess.run(["input-muted", "on", "--session", "memo"] + socket)
    let again = try SessionctlProcess.run(["input-muted", "on", "--session", "memo"] + socket)
    #expect(again.status == 0 && again.lines.isEmpty)
    let status = try SessionctlProcess.run(["status"] + socket)
    #expect(status.lines.contains("memo: input muted"))
    #expect(status.lines.last?.contains("built-in mic unmuted") == true)
    await daemon.stop()
  }

  @Test("watch prints each notification as it happens (docs/contract.md watch)")
  func watch_interruptions_printsAsTheyHappen() async throws {
    let daemon = try await DaemonHarness.start()
    let launched = try SessionctlProcess.launch(
      ["watch", "interruptions", "--json", "--socket", daemon.socketPath])
    let watcher = launched.process
    let output = launched.output
    let errors = launched.error
    // Once subscribed, it says so on standard error.
    let ready = SessionctlProcess.readLine(errors)
    #expect(
      ready == "sessionctl: watching interruptions on \(daemon.socketPath); Ctrl-C stops")
    let socket = ["--socket", daemon.socketPath]
    _ = try SessionctlProcess.run(["set", "playback", "--session", "music"] + socket)
    _ = try SessionctlProcess.run(["activate", "--session", "music"] + socket)
    _ = try SessionctlProcess.run(["simulate", "call", "begin"] + socket)
    #expect(
      SessionctlProcess.readLine(output)
        == #"{"session":"music","event":"interruption","type":"began","reason":"default","by":"call"}"#
    )
    watcher.terminate()
    watcher.waitUntilExit()
    await daemon.stop()
  }

  @Test(
    "with no daemon running, a live command starts one and says which backend (docs/contract.md)")
  func liveCommand_noDaemon_startsOneAndSaysWhich() throws {
    let folder = try TemporaryFolder.make()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let socket = folder + "/daemon.sock"
    let run = try SessionctlProcess.run(
      ["status", "--socket", socket],
      environment: ["AUDIOSESSION_AUTOSTART": "1", "XDG_RUNTIME_DIR": folder, "PULSE_SERVER": ""])
    #expect(run.status == 0)
    #expect(run.lines.first == "no sessions")
    let announcement = run.error.trimmingCharacters(in: .newlines)
    #expect(announcement.hasPrefix("sessionctl: started the audio session daemon (pid "))
    #expect(
      announcement.hasSuffix(
        "with the simulated backend (no PulseAudio server answers on \(folder)/pulse/native); "
          + "stop it with 'kill \(Self.pid(in: announcement))'"))
    kill(Self.pid(in: announcement), SIGTERM)
    let deadline = Date(timeIntervalSinceNow: 20)
    while FileManager.default.fileExists(atPath: socket), Date() < deadline { usleep(20_000) }
    #expect(!FileManager.default.fileExists(atPath: socket))
  }

  static func pid(in announcement: String) -> pid_t {
    guard let range = announcement.range(of: "(pid ") else { return 0 }
    return pid_t(announcement[range.upperBound...].prefix { $0.isNumber }) ?? 0
  }
}
