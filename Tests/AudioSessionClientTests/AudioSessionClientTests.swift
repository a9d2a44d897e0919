import AudioSession
import AudioSessionClient
import AudioSessionDaemonTestSupport
import AudioSessionHost
import AudioSessionSystem
import AudioSessionTestSupport
import AudioSessionWire
import Foundation
import Testing

/// The client library (docs/api-coverage.md): AVAudioSession's calls and properties against the
/// daemon and the embedded engine, typed events, and NotificationCenter posts with AVFoundation's
/// names and userInfo keys (docs/avaudiosession.md §1.5).
@Suite struct AudioSessionClientTests {
  @Test(
    "setCategory, setMode and the getters read back what the daemon decided (docs/avaudiosession.md §3.1, §12 D13)"
  )
  func setCategory_againstDaemon_readsBack() async throws {
    let daemon = try await DaemonHarness.start()
    let session = try daemon.session("player")
    #expect(session.category == .soloAmbient && session.mode == .default)
    try session.setCategory(.playback, mode: .moviePlayback, options: [.duckOthers])
    #expect(session.category == .playback)
    #expect(session.mode == .moviePlayback)
    #expect(session.categoryOptions == [.duckOthers, .mixWithOthers])
    try session.setMode(.spokenAudio)
    #expect(session.mode == .spokenAudio && session.categoryOptions == [])
    #expect(session.currentRoute.outputs.map(\.portType) == [.builtInSpeaker])
    // A wrong combination is AVAudioSession's error and changes nothing.
    #expect(throws: NSError.self) {
      try session.setCategory(.playback, options: .defaultToSpeaker)
    }
    #expect(session.category == .playback && session.mode == .spokenAudio)
    await daemon.stop()
  }

  @Test(
    "an interruption arrives as a typed event and as AVAudioSessionInterruptionNotification (docs/avaudiosession.md §1.5, §5.1 A2)"
  )
  func setActive_otherSessionInterrupts_postsBothForms() async throws {
    let daemon = try await DaemonHarness.start()
    let center = NotificationCenter()
    let music = try AVAudioSession(
      name: "music", connection: .daemon(socketPath: daemon.socketPath), notificationCenter: center)
    let posted = PostedNotifications(center, name: AVAudioSession.interruptionNotification)
    let events = EventRecorder(music.events)
    try music.setCategory(.playback)
    try music.setActive(true)
    let nav = try daemon.session("nav")
    try nav.setCategory(.playback)
    // When nav activates, then deactivates notifying others
    try nav.setActive(true)
    try nav.setActive(false, options: .notifyOthersOnDeactivation)
    // Then music hears began then ended with shouldResume, both ways
    let recorded = events.wait { $0.count >= 2 }
    #expect(
      recorded == [
        .interruptionBegan(reason: .default, by: .session("nav")),
        .interruptionEnded(options: .shouldResume, by: .session("nav")),
      ])
    let notes = posted.wait(for: 2)
    #expect(notes.count == 2)
    let began = notes.first?.userInfo
    #expect(
      began?[AVAudioSessionInterruptionTypeKey] as? UInt
        == AVAudioSession.InterruptionType.began.rawValue)
    #expect(began?[AVAudioSessionInterruptionReasonKey] as? UInt == 0)
    #expect(began?[AVAudioSessionInterruptionOptionKey] == nil)
    let ended = notes.last?.userInfo
    #expect(ended?[AVAudioSessionInterruptionTypeKey] as? UInt == 0)
    #expect(
      (ended?[AVAudioSessionInterruptionOptionKey] as? UInt).map(
        AVAudioSession.InterruptionOptions.init)
        == .shouldResume)
    #expect(notes.first?.object as? AVAudioSession === music)
    await daemon.stop()
  }

  @Test(
    "a route change carries its reason and the previous route (docs/avaudiosession.md §1.5, §6.2)")
  func routeChange_plug_postsReasonAndPreviousRoute() async throws {
    let system = try EmbeddedAudioSystem(policyDirectory: Repository.policies)
    let center = NotificationCenter()
    let session = try AVAudioSession(
      name: "music", connection: .embedded(system), notificationCenter: center)
    let posted = PostedNotifications(center, name: AVAudioSession.routeChangeNotification)
    try session.setCategory(.playback)
    try system.simulate(.plug(preset: "headphones"))
    let note = try #require(posted.wait(for: 1).first)
    #expect(
      note.userInfo?[AVAudioSessionRouteChangeReasonKey] as? UInt
        == AVAudioSession.RouteChangeReason.newDeviceAvailable.rawValue)
    let previous =
      note.userInfo?[AVAudioSessionRouteChangePreviousRouteKey] as? AVAudioSessionRouteDescription
    #expect(previous?.outputs.map(\.portType) == [.builtInSpeaker])
    #expect(session.currentRoute.outputs.map(\.portType) == [.headphones])
  }

  @Test(
    "isOtherAudioPlaying and the secondary-audio hint follow other sessions (docs/avaudiosession.md §6.3, §8)"
  )
  func properties_otherSessionPlays_reflectIt() throws {
    let system = try EmbeddedAudioSystem(policyDirectory: Repository.policies)
    let game = try AVAudioSession(name: "game", connection: .embedded(system))
    try game.setCategory(.ambient)
    try game.setActive(true)
    #expect(!game.isOtherAudioPlaying && !game.secondaryAudioShouldBeSilencedHint)
    let music = try AVAudioSession(name: "music", connection: .embedded(system))
    try music.setCategory(.playback, options: .mixWithOthers)
    try music.setActive(true)
    try music.setPlaying(true)
    #expect(game.isOtherAudioPlaying)
    #expect(!game.secondaryAudioShouldBeSilencedHint)
    try music.setCategory(.playback)
    #expect(game.secondaryAudioShouldBeSilencedHint)
    #expect(system.status().sessions.map(\.name) == ["game", "music"])
  }

  @Test(
    "availableInputs, setPreferredInput and overrideOutputAudioPort (docs/avaudiosession.md §7.5, §7.6)"
  )
  func inputsAndOverride_playAndRecord_work() throws {
    let system = try EmbeddedAudioSystem(policyDirectory: Repository.policies)
    try system.simulate(.plug(preset: "headset"))
    let call = try AVAudioSession(name: "voip", connection: .embedded(system))
    try call.setCategory(.playAndRecord, mode: .voiceChat)
    let inputs = try #require(call.availableInputs)
    #expect(inputs.map(\.portType) == [.builtInMic, .headsetMic])
    try call.setPreferredInput(inputs[0])
    #expect(call.preferredInput == inputs[0])
    #expect(call.currentRoute.inputs.map(\.portType) == [.builtInMic])
    try call.overrideOutputAudioPort(.speaker)
    #expect(call.currentRoute.outputs.map(\.portType) == [.builtInSpeaker])
    let music = try AVAudioSession(name: "music", connection: .embedded(system))
    #expect(throws: NSError.self) { try music.overrideOutputAudioPort(.speaker) }
  }

  @Test(
    "a handler may call back into its session (an iOS interruption handler reactivates) (docs/avaudiosession.md §5.2)"
  )
  func handler_reactivatesOnEnded_doesNotDeadlock() throws {
    let system = try EmbeddedAudioSystem(policyDirectory: Repository.policies)
    let center = NotificationCenter()
    let music = try AVAudioSession(
      name: "music", connection: .embedded(system), notificationCenter: center)
    let reactivated = NSCondition()
    nonisolated(unsafe) var done = false
    let observer = center.addObserver(
      forName: AVAudioSession.interruptionNotification, object: music, queue: nil
    ) { note in
      guard note.userInfo?[AVAudioSessionInterruptionTypeKey] as? UInt == 0 else { return }
      try? music.setActive(true)
      reactivated.lock()
      done = true
      reactivated.signal()
      reactivated.unlock()
    }
    defer { center.removeObserver(observer) }
    try music.setCategory(.playback)
    try music.setActive(true)
    try system.simulate(.call(active: true))
    try system.simulate(.call(active: false))
    reactivated.lock()
    let deadline = Date(timeIntervalSinceNow: 10)
    while !done, reactivated.wait(until: deadline) {}
    reactivated.unlock()
    #expect(done)
    #expect(music.isActive)
  }

  @Test(
    "when the session is invalidated, the daemon forgets it and calls fail (docs/engine.md \"Rules, and where they come from\")"
  )
  func invalidate_session_isRemovedFromDaemon() async throws {
    let daemon = try await DaemonHarness.start()
    let session = try daemon.session("short-lived")
    try session.setCategory(.playback)
    #expect(await daemon.core.status().sessions.map(\.name) == ["short-lived"])
    session.invalidate()
    let expired = #expect(throws: NSError.self) { try session.setActive(true) }
    #expect(
      expired?.sessionError
        == SessionError(.expiredSession, "the session 'short-lived' was invalidated"))
    #expect(expired?.domain == NSOSStatusErrorDomain)
    #expect(expired?.code == AVAudioSession.ErrorCode.expiredSession.rawValue)
    let watcher = try daemon.connect()
    let deadline = Date(timeIntervalSinceNow: 10)
    while Date() < deadline, await !daemon.core.status().sessions.isEmpty {
      _ = try watcher.request(.command(.devices))
    }
    #expect(await daemon.core.status().sessions.isEmpty)
    await daemon.stop()
  }
}

/// Collects NotificationCenter posts of one name, posted on other threads.
final class PostedNotifications: @unchecked Sendable {
  private let condition = NSCondition()
  private var posted: [Notification] = []
  private var observer: (any NSObjectProtocol)?
  private let center: NotificationCenter

  init(_ center: NotificationCenter, name: Notification.Name) {
    self.center = center
    observer = center.addObserver(forName: name, object: nil, queue: nil) { [weak self] note in
      guard let self else { return }
      self.condition.lock()
      self.posted.append(note)
      self.condition.broadcast()
      self.condition.unlock()
    }
  }

  deinit {
    if let observer { center.removeObserver(observer) }
  }

  /// Waits (at most 10 s) until `count` notifications were posted; returns them all.
  func wait(for count: Int) -> [Notification] {
    let deadline = Date(timeIntervalSinceNow: 10)
    condition.lock()
    defer { condition.unlock() }
    while posted.count < count, condition.wait(until: deadline) {}
    return posted
  }
}
