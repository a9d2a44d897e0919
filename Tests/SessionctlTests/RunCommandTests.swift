import AudioSession
import AudioSessionDaemonTestSupport
import AudioSessionTestSupport
import AudioSessionWire
import Foundation
import Testing

// docs/apps.md "sessionctl run": COMMAND's streams are tagged for its session, which belongs to
// the run and ends with COMMAND; run passes signals on and exits with COMMAND's status.
@Suite struct RunCommandTests {
  @Test(
    "run tags the program's streams, shows the session as owner run, and exits with its status (docs/apps.md)"
  )
  func tagsAndExitStatus() async throws {
    let daemon = try await DaemonHarness.start()
    let result = try SessionctlProcess.run(
      [
        "run", "--session", "film", "playback", "--mode", "moviePlayback", "--socket",
        daemon.socketPath, "--", "sh", "-c",
        #"echo "$PULSE_PROP"; sessionctl status --json --socket "$0"; exit 3"#,
        daemon.socketPath,
      ],
      environment: [
        "PULSE_PROP": "media.role=video",
        "PATH": (SessionctlProcess.executable as NSString).deletingLastPathComponent + ":"
          + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
      ])
    #expect(result.status == 3, "\(result.error)")
    #expect(result.lines.first == "media.role=video audiosession.session=film")
    let status = result.lines.dropFirst().joined()
    #expect(status.contains(#""film":{"category":"playback","mode":"moviePlayback""#), "\(status)")
    #expect(status.contains(#""owner":"run","pid":"#), "\(status)")
    #expect(status.contains(#""application":"sh""#), "\(status)")
    // The session ended with the program.
    let after = try SessionctlProcess.run(["status", "--json", "--socket", daemon.socketPath])
    #expect(!after.output.contains("\"film\""), "\(after.output)")
    await daemon.stop()
  }

  @Test(
    "a program a signal ends gives 128 + the signal; a bad category changes nothing (docs/apps.md, docs/contract.md Bad input)"
  )
  func signalsAndBadInput() async throws {
    let daemon = try await DaemonHarness.start()
    let killed = try SessionctlProcess.run(
      ["run", "--socket", daemon.socketPath, "--", "sh", "-c", "kill -TERM $$"])
    #expect(killed.status == 143, "\(killed.error)")
    let bad = try SessionctlProcess.run(
      ["run", "loud", "--socket", daemon.socketPath, "--", "true"])
    #expect(bad.status == 64)
    #expect(bad.error.contains("The value 'loud' is invalid for '<category>'"))
    let missing = try SessionctlProcess.run(["run", "playback", "--socket", daemon.socketPath])
    #expect(missing.status == 64)
    #expect(missing.error.contains("give the program to run after --"))
    let status = try SessionctlProcess.run(["status", "--json", "--socket", daemon.socketPath])
    #expect(status.output.contains(#""sessions":{}"#), "\(status.output)")
    await daemon.stop()
  }
}
