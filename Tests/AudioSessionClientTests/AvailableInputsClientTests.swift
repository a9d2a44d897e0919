import AudioSession
import AudioSessionClient
import AudioSessionDaemonTestSupport
import AudioSessionHost
import AudioSessionTestSupport
import AudioSessionWire
import Foundation
import Testing

/// iOS 26's `availableInputsChangeNotification` and `availableInputs` through the client library
/// (docs/avaudiosession.md §6.5, §7.6; docs/api-coverage.md 8 Newer APIs).
@Suite struct AvailableInputsClientTests {
  @Test(
    "a recording session is told when a headset's mic comes and goes, and availableInputs follow (docs/avaudiosession.md §6.5, §7.6)"
  )
  func plugHeadset_embedded_postsAvailableInputsChange() throws {
    let system = try EmbeddedAudioSystem(policyDirectory: Repository.policies)
    let center = NotificationCenter()
    let memo = try AVAudioSession(
      name: "memo", connection: .embedded(system), notificationCenter: center)
    let posted = PostedNotifications(
      center, name: AVAudioSession.availableInputsChangeNotification)
    try memo.setCategory(.record)
    #expect(memo.availableInputs?.map(\.portType) == [.builtInMic])
    try system.simulate(.plug(preset: "headset"))
    #expect(posted.wait(for: 1).count == 1)
    #expect(memo.availableInputs?.map(\.portType) == [.builtInMic, .headsetMic])
    try system.simulate(.unplug("headset"))
    #expect(posted.wait(for: 2).count == 2)
    #expect(memo.availableInputs?.map(\.portType) == [.builtInMic])
  }

  @Test(
    "the daemon's status lists each session's available inputs, none for playback (docs/avaudiosession.md §7.6)"
  )
  func status_daemon_listsAvailableInputs() async throws {
    let daemon = try await DaemonHarness.start()
    let memo = try daemon.session("memo")
    try memo.setCategory(.playAndRecord)
    let music = try daemon.session("music")
    try music.setCategory(.playback)
    let reply = try daemon.connect().request(.command(.status))
    guard case .object(let status)? = reply["status"],
      case .object(let sessions)? = status["sessions"],
      case .object(let memoJSON)? = sessions["memo"],
      case .object(let musicJSON)? = sessions["music"]
    else {
      Issue.record("no status: \(reply)")
      return
    }
    #expect(
      memoJSON["availableInputs"]
        == .array([
          .object([
            "portType": "builtInMic", "portName": "Built-In Microphone", "uid": "builtin-mic",
          ])
        ]))
    #expect(musicJSON["availableInputs"] == .array([]))
    await daemon.stop()
  }
}
