import AudioSession
import AudioSessionClient
import AudioSessionDaemonTestSupport
import AudioSessionHost
import AudioSessionSystem
import AudioSessionTestSupport
import AudioSessionWire
import Foundation
import Testing

/// docs/contract.md "Bad input": a failed command changes nothing, and a command that only reads
/// creates nothing (docs/protocol.md "Sessions, owners and lifetime"). Scenarios keep "created on
/// first mention" (docs/contract.md "Scenario files"); the daemon does not.
@Suite struct DaemonSideEffectTests {
  /// The names of the sessions in the daemon's `status --json`.
  static func sessionNames(_ socket: String) throws -> [String] {
    let run = try SessionctlProcess.run(["status", "--json", "--socket", socket])
    #expect(run.status == 0, "\(run.error)")
    guard case .object(let root) = try JSONParser.parse(Array(run.output.utf8)),
      case .object(let status)? = root["status"], case .object(let sessions)? = status["sessions"]
    else {
      Issue.record("status --json is not an object with sessions: \(run.output)")
      return []
    }
    return sessions.members.map(\.key)
  }

  /// The sessions saved in the daemon's state file (none when it was never written).
  static func savedNames(_ daemon: DaemonHarness) throws -> [String] {
    try SessionStore(path: daemon.statePath).load().map(\.name)
  }

  @Test(
    "route for a session that does not exist fails, naming the sessions, and creates nothing (docs/contract.md Bad input)"
  )
  func route_unknownSession_failsAndCreatesNothing() async throws {
    let daemon = try await DaemonHarness.start()
    defer { Task { await daemon.stop() } }
    let socket = daemon.socketPath
    // Given one session held by the daemon
    #expect(
      try SessionctlProcess.run(["set", "playback", "--session", "music", "--socket", socket])
        .status == 0)
    // When route asks about the default session, which does not exist
    let run = try SessionctlProcess.run(["route", "--socket", socket])
    // Then it fails with a sentence that says which sessions exist and how to make this one
    #expect(run.status == 1)
    #expect(
      run.error
        == "Error: expiredSession (561210739): no session named 'default' (the sessions are "
        + "'music'); name one with --session NAME, or create 'default' by configuring it "
        + "(sessionctl set CATEGORY --session default)\n")
    // and neither the daemon nor its state file has a session 'default'
    #expect(try Self.sessionNames(socket) == ["music"])
    #expect(try Self.savedNames(daemon) == ["music"])
  }

  @Test(
    "a command that fails on a new session leaves no session behind, live or saved (docs/contract.md Bad input)",
    arguments: [
      ["mode", "voiceChat", "--session", "fresh"], ["override", "speaker", "--session", "fresh"],
      ["set", "playback", "--options", "allowAirPlay,defaultToSpeaker", "--session", "fresh"],
    ])
  func failingCommand_newSession_leavesNothing(arguments: [String]) async throws {
    let daemon = try await DaemonHarness.start()
    defer { Task { await daemon.stop() } }
    let socket = daemon.socketPath
    // When a command that fails names a session nobody created
    let run = try SessionctlProcess.run(arguments + ["--socket", socket])
    // Then it fails, and no session 'fresh' exists, in the daemon or in its state file
    #expect(run.status == 1, "\(run.output)")
    #expect(run.error.hasPrefix("Error: "))
    #expect(try Self.sessionNames(socket) == [])
    #expect(try Self.savedNames(daemon) == [])
  }

  @Test(
    "a command that succeeds on a new session creates and saves it (docs/contract.md Commands --session)"
  )
  func succeedingCommand_newSession_createsAndSaves() async throws {
    let daemon = try await DaemonHarness.start()
    defer { Task { await daemon.stop() } }
    let socket = daemon.socketPath
    #expect(
      try SessionctlProcess.run(["deactivate", "--session", "quiet", "--socket", socket]).status
        == 0)
    #expect(try Self.sessionNames(socket) == ["quiet"])
    #expect(try Self.savedNames(daemon) == ["quiet"])
  }

  @Test(
    "setMode and setPreferredInput need an existing session and create none; a held session's new mode is saved (docs/protocol.md Operations)"
  )
  func setModeAndPreferredInput_newSession_failAndHeldModeIsSaved() async throws {
    let daemon = try await DaemonHarness.start()
    defer { Task { await daemon.stop() } }
    let client = try daemon.connect()
    // When setMode and setPreferredInput name a session nobody created, each fails
    let expired = "expiredSession (561210739): no session named 'fresh'"
    let mode = try client.request(.command(.input(.setMode(session: "fresh", mode: .spokenAudio))))
    #expect(mode.error?.description == expired)
    let input = try client.request(.command(.input(.setPreferredInput(session: "fresh", uid: nil))))
    #expect(input.error?.description == expired)
    // and no session exists, live or saved
    #expect(try Self.sessionNames(daemon.socketPath) == [])
    #expect(try Self.savedNames(daemon) == [])
    // Given a session held by the daemon, when setMode changes it, then the state file has it
    _ = try client.request(
      .command(.input(.setCategory(session: "talk", category: .playback, mode: nil, options: []))))
    #expect(
      try client.request(.command(.input(.setMode(session: "talk", mode: .spokenAudio)))).error
        == nil)
    let saved = try SessionStore(path: daemon.statePath).load()
    #expect(saved.map(\.configuration.mode) == [.spokenAudio])
    // A route-sharing policy is saved too, and a file written before policies existed reads as
    // the default policy (docs/protocol.md "Sessions, owners and lifetime").
    _ = try client.request(
      .command(
        .input(
          .setCategory(
            session: "talk", category: .playback, mode: .spokenAudio, options: [],
            policy: .longFormAudio))))
    #expect(
      try SessionStore(path: daemon.statePath).load().map(\.configuration.policy)
        == [.longFormAudio])
    let older = daemon.statePath + ".older"
    try #"{"v":1,"sessions":[{"name":"a","category":"playback","mode":"default","options":[]}]}"#
      .write(toFile: older, atomically: true, encoding: .utf8)
    #expect(try SessionStore(path: older).load().map(\.configuration.policy) == [.default])
  }

  @Test(
    "status of a daemon on the simulated backend has no server; a scenario's status has none either (docs/protocol.md The server in status)"
  )
  func status_simulatedBackend_hasNoServer() async throws {
    let daemon = try await DaemonHarness.start()
    defer { Task { await daemon.stop() } }
    let run = try SessionctlProcess.run(["status", "--json", "--socket", daemon.socketPath])
    #expect(run.status == 0)
    #expect(run.output.contains("\"system\":{"))
    #expect(!run.output.contains("\"server\""))
    // A scenario's status step, on the simulated backend, has the same system object
    let file = try CLIFixtures.temporaryFile(
      "name: status\nsteps:\n  - music set playback\n  - status\n")
    let scenario = try SessionctlProcess.run(["scenario", "run", file, "--json"])
    #expect(scenario.status == 0, "\(scenario.error)")
    #expect(scenario.output.contains("\"system\":{"))
    #expect(!scenario.output.contains("\"server\""))
  }
}
