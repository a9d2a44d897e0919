import AudioSession
import AudioSessionArbiter
import AudioSessionArbiterTestSupport
import Testing

/// The recorder beside the arbiter: where the daemon's start ends (docs/contract.md "Recording
/// what the daemon saw").
@Suite struct DesktopRecorderTests {
  static let music = Desktop.stream(1, pid: 700, binary: "pacat", role: "music")

  @Test(
    "a daemon with no session bus (its players' watcher ends without a word) starts with the server's snapshot: a program that starts then is started in its sight, not set up as found (docs/contract.md Recording what the daemon saw, docs/mpris.md)"
  )
  func noSessionBus_startEndsWithTheServersSnapshot() async throws {
    var desktop = try await Desktop.start(recording: true)
    desktop.recorder?.playersEnded()
    desktop.feed(.streams(.snapshot([])))
    desktop.play(Self.music)
    let recording = try #require(desktop.recorder).recording()
    #expect(recording.setupSteps == 0, "\(recording.steps)")
    #expect(
      recording.steps.map(\.words).contains([
        "simulate", "program", "pacat", "start", "--binary", "pacat", "--role", "music", "--pid",
        "700",
      ]), "\(recording.steps)")
  }

  @Test(
    "while the players' snapshot is awaited, a program the server shows is what the daemon found: it is set up before the daemon starts (docs/contract.md Recording what the daemon saw)"
  )
  func busAwaited_programIsFoundAtTheStart() async throws {
    var desktop = try await Desktop.start(recording: true)
    desktop.feed(.streams(.snapshot([])))
    desktop.play(Self.music)
    let recording = try #require(desktop.recorder).recording()
    let setup = recording.steps.prefix(recording.setupSteps).map(\.words)
    #expect(setup.first == ["simulate", "daemon", "stop"], "\(recording.steps)")
    #expect(setup.contains { $0.starts(with: ["simulate", "program", "pacat", "start"]) })
  }
}
