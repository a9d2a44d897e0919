import AudioSession
import AudioSessionClient
import AudioSessionDaemonTestSupport
import AudioSessionWire
import Foundation
import Testing

/// The client library's share of "More of AVAudioSession" (docs/contract.md): AVAudioSession's
/// names for preferences, hardware values, input gain and data sources, the route-sharing
/// policy, the prompt style, and iOS 27's notifications (docs/avaudiosession.md §8, §13).
@Suite struct AudioSessionPreferencesClientTests {
  @Test(
    "preferences read back as set; hardware values follow them once active; incompatibleCategory and badParam as iOS (docs/avaudiosession.md §8, §13.5)"
  )
  func preferences_readBackAndGranted() async throws {
    let daemon = try await DaemonHarness.start()
    let voip = try daemon.session("voip")
    try voip.setCategory(.playAndRecord, mode: .voiceChat)
    #expect(voip.sampleRate == 48000 && voip.preferredSampleRate == 0)
    try voip.setPreferredSampleRate(16000)
    try voip.setPreferredIOBufferDuration(0.01)
    try voip.setPreferredOutputNumberOfChannels(1)
    #expect(voip.preferredSampleRate == 16000 && voip.preferredIOBufferDuration == 0.01)
    // Hints: granted once the session is active.
    #expect(voip.sampleRate == 48000)
    try voip.setActive(true)
    #expect(voip.sampleRate == 16000 && voip.ioBufferDuration == 0.01)
    #expect(voip.outputNumberOfChannels == 1 && voip.inputNumberOfChannels == 1)
    #expect(voip.inputLatency == 0 && voip.outputLatency == 0, "unknown on the simulated backend")
    try voip.setPrefersNoInterruptionsFromSystemAlerts(true)
    #expect(voip.prefersNoInterruptionsFromSystemAlerts)
    #expect(voip.prefersInterruptionOnRouteDisconnect, "iOS's default")
    try voip.setPrefersInterruptionOnRouteDisconnect(false)
    #expect(!voip.prefersInterruptionOnRouteDisconnect)
    try voip.setAggregatedIOPreference(.aggregated)
    // A playback session has no input: incompatibleCategory ('!cat').
    let music = try daemon.session("music")
    try music.setCategory(.playback)
    #expect(music.inputNumberOfChannels == 0 && !music.isInputGainSettable)
    let refused = #expect(throws: NSError.self) {
      try music.setPreferredInputNumberOfChannels(1)
    }
    #expect(refused?.sessionError?.code == .incompatibleCategory)
    let aggregated = #expect(throws: NSError.self) {
      try music.setAggregatedIOPreference(.aggregated)
    }
    #expect(aggregated?.sessionError?.code == .incompatibleCategory)
    await daemon.stop()
  }

  @Test(
    "echo-cancelled input through the library: incompatibleCategory outside playAndRecord/default, enabled once active on the built-in mic, off after a route change to a headset (docs/avaudiosession.md §13.5)"
  )
  func echoCancelledInput_throughTheEngine() async throws {
    let daemon = try await DaemonHarness.start()
    let voip = try daemon.session("voip")
    try voip.setCategory(.playAndRecord, mode: .voiceChat)
    let refused = #expect(throws: NSError.self) { try voip.setPrefersEchoCancelledInput(true) }
    #expect(refused?.sessionError?.code == .incompatibleCategory)
    #expect(!voip.prefersEchoCancelledInput)
    try voip.setCategory(.playAndRecord, mode: .default)
    try voip.setPrefersEchoCancelledInput(true)
    #expect(voip.prefersEchoCancelledInput && voip.isEchoCancelledInputAvailable)
    #expect(!voip.isEchoCancelledInputEnabled, "not active yet")
    try voip.setActive(true)
    #expect(voip.isEchoCancelledInputEnabled)
    // Another session sees it in status: it is the engine's, not this process's.
    let system = try daemon.connect()
    #expect(try system.request(.command(.simulate(.plug(preset: "headset")))).error == nil)
    #expect(!voip.isEchoCancelledInputAvailable && !voip.isEchoCancelledInputEnabled)
    #expect(voip.prefersEchoCancelledInput)
    await daemon.stop()
  }

  @Test(
    "input gain is clamped and data sources select with routeConfigurationChange (docs/avaudiosession.md §8, §13.5)"
  )
  func inputGainAndDataSources() async throws {
    let daemon = try await DaemonHarness.start()
    let center = NotificationCenter()
    let voip = try AVAudioSession(
      name: "voip", connection: .daemon(socketPath: daemon.socketPath), notificationCenter: center)
    let posted = PostedNotifications(center, name: AVAudioSession.routeChangeNotification)
    try voip.setCategory(.playAndRecord)
    #expect(voip.isInputGainSettable && voip.inputGain == 1)
    try voip.setInputGain(1.5)
    #expect(voip.inputGain == 1)
    try voip.setInputGain(0.25)
    #expect(voip.inputGain == 0.25)
    #expect(voip.inputDataSources?.map(\.dataSourceName) == ["Bottom", "Front", "Back"])
    #expect(voip.inputDataSource?.dataSourceName == "Bottom")
    try voip.setInputDataSource(voip.inputDataSources?[1])
    #expect(voip.inputDataSource?.dataSourceName == "Front")
    let notes = posted.wait(for: 1)
    let reason = notes.first?.userInfo?[AVAudioSessionRouteChangeReasonKey] as? NSNumber
    #expect(reason?.uintValue == RouteChangeReason.routeConfigurationChange.rawValue)
    await daemon.stop()
  }

  @Test(
    "setCategory(_:mode:policy:options:) and routeSharingPolicy; a long-form policy with options is badParam (docs/avaudiosession.md §13.3)"
  )
  func routeSharingPolicy() async throws {
    let daemon = try await DaemonHarness.start()
    let podcast = try daemon.session("podcast")
    try podcast.setCategory(.playback, mode: .spokenAudio, policy: .longFormAudio)
    #expect(podcast.routeSharingPolicy == .longFormAudio)
    let refused = #expect(throws: NSError.self) {
      try podcast.setCategory(
        .playback, mode: .spokenAudio, policy: .longFormAudio, options: .mixWithOthers)
    }
    #expect(refused?.sessionError?.code == .badParam)
    #expect(podcast.routeSharingPolicy == .longFormAudio)
    try podcast.setCategory(.playback)
    #expect(podcast.routeSharingPolicy == .default)
    await daemon.stop()
  }

  @Test(
    "under ios27 the library posts didBecomeInactive and resumptionRecommendation with their contexts; promptStyle follows Siri (docs/avaudiosession.md §13.1, §13.5)"
  )
  func ios27Notifications_andPromptStyle() async throws {
    let daemon = try await DaemonHarness.start(profile: "ios27")
    let center = NotificationCenter()
    let music = try AVAudioSession(
      name: "music", connection: .daemon(socketPath: daemon.socketPath), notificationCenter: center)
    let inactive = PostedNotifications(center, name: AVAudioSession.didBecomeInactiveNotification)
    let resumption = PostedNotifications(
      center, name: AVAudioSession.resumptionRecommendationNotification)
    try music.setCategory(.playback)
    try music.setActive(true)
    let nav = try daemon.session("nav")
    try nav.setCategory(.playback, mode: .voicePrompt)
    try nav.setActive(true)
    try nav.setActive(false, options: .notifyOthersOnDeactivation)
    let deactivation = inactive.wait(for: 1).first?.userInfo?[AVAudioSessionDeactivationContextKey]
    let context = try #require(deactivation as? DeactivationContext)
    #expect(context.source == .system && context.interruptionContext?.reason == .default)
    let recommendation = resumption.wait(for: 1).first?.userInfo?[
      AVAudioSessionResumptionContextKey]
    #expect((recommendation as? ResumptionContext)?.recommendation == .shouldResume)
    // Siri listening: a voicePrompt session reads none.
    #expect(nav.promptStyle == .normal)
    let system = try daemon.connect()
    #expect(try system.request(.command(.simulate(.siri(active: true)))).error == nil)
    #expect(nav.promptStyle == .none)
    await daemon.stop()
  }
}
