import AudioSession
import AudioSessionClient
import AudioSessionDaemonTestSupport
import AudioSessionHost
import AudioSessionTestSupport
import AudioSessionWire
import Foundation
import Testing

/// The client library's own mutes (iOS 26 `setOutputMuted(_:)`): the engine's, through the
/// daemon and the in-process engine, with AVFoundation's notifications (docs/avaudiosession.md
/// §1.5, §3; docs/api-coverage.md 8 Newer APIs).
@Suite struct OwnMuteClientTests {
  @Test(
    "setOutputMuted goes to the daemon: isOutputMuted and status read the engine, outputMuteStateChange carries muteStateKey (docs/avaudiosession.md §1.5)"
  )
  func setOutputMuted_daemon_isTheEngines() async throws {
    let daemon = try await DaemonHarness.start()
    let center = NotificationCenter()
    let clip = try AVAudioSession(
      name: "clip", connection: .daemon(socketPath: daemon.socketPath), notificationCenter: center)
    let posted = PostedNotifications(center, name: AVAudioSession.outputMuteStateChangeNotification)
    try clip.setCategory(.playback, mode: .shortFormVideo)
    #expect(!clip.isOutputMuted)
    try clip.setOutputMuted(true)
    #expect(clip.isOutputMuted)
    let note = try #require(posted.wait(for: 1).first)
    #expect((note.userInfo?[AVAudioSession.muteStateKey] as? NSNumber)?.boolValue == true)
    // Another client sees it in the daemon's status.
    let other = try daemon.connect()
    let reply = try other.request(.command(.status))
    guard case .object(let status)? = reply["status"],
      case .object(let sessions)? = status["sessions"],
      case .object(let session)? = sessions["clip"]
    else {
      Issue.record("no status: \(reply)")
      return
    }
    #expect(session["outputMuted"] == .bool(true))
    // playAndRecord outside mode default: refused by the engine, as iOS refuses it.
    let voip = try daemon.session("voip")
    try voip.setCategory(.playAndRecord, mode: .voiceChat)
    let refused = #expect(throws: NSError.self) { try voip.setOutputMuted(true) }
    #expect(refused?.sessionError?.code == .incompatibleCategory)
    #expect(!voip.isOutputMuted)
    await daemon.stop()
  }

  @Test(
    "in-process: the volume going up unmutes a shortFormVideo session, userIntentToUnmuteOutput first (docs/avaudiosession.md §3)"
  )
  func volumeUp_embedded_postsIntentThenUnmute() throws {
    let system = try EmbeddedAudioSystem(policyDirectory: Repository.policies)
    let center = NotificationCenter()
    let clip = try AVAudioSession(
      name: "clip", connection: .embedded(system), notificationCenter: center)
    let intents = PostedNotifications(
      center, name: AVAudioSession.userIntentToUnmuteOutputNotification)
    let changes = PostedNotifications(
      center, name: AVAudioSession.outputMuteStateChangeNotification)
    try clip.setCategory(.playback, mode: .shortFormVideo)
    try clip.setOutputMuted(true)
    try system.simulate(.volume(0.5))
    try system.simulate(.volume(0.75))
    #expect(intents.wait(for: 1).count == 1)
    let states = changes.wait(for: 2).map {
      ($0.userInfo?[AVAudioSession.muteStateKey] as? NSNumber)?.boolValue
    }
    #expect(states == [true, false])
    #expect(!clip.isOutputMuted)
  }
}
