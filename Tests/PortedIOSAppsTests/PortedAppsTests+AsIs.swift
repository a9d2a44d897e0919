#if canImport(PortedIOSApps)
  import AVFAudio
  import AudioSession
  import AudioSessionClient
  import Foundation
  import PortedIOSApps
  import Testing

  // iOS files as they are, under each of the imports an iOS file uses for the audio session
  // (docs/ios-compat.md "The products"): `RouteInspector.swift` imports only AVKit,
  // `LockScreenOnly.swift` only MediaPlayer. That they compile is the first check; these drive
  // them in-process and against the daemon.
  extension PortedAppsTests {
    @Test(
      "an AVKit-only file reads the previous route, falls back to AVAudioSessionRouteDescription(), and compares the orientation locations' names (docs/ios-compat.md What is as on iOS)",
      arguments: rigs)
    func routeInspector_avKitOnly_readsRoutes(kind: String) async throws {
      let rig = try await Self.rig(kind)
      let inspector = RouteInspector()
      // The inspector's observer writes on the thread notifications are posted from, as on
      // iOS; the test reads what it wrote on that thread too, never while a later change may be
      // writing it (found by ThreadSanitizer: docs/fuzzing.md "Sanitizers").
      let session = AVAudioSession.sharedInstance()
      try inspector.start()
      let empty = RouteInspector.fallbackRoute()
      #expect(empty.inputs.isEmpty && empty.outputs.isEmpty)
      #expect(RouteInspector.locationNames == ["Top", "Bottom", "Front", "Back", "Left", "Right"])
      try rig.simulate(.plug(preset: "headphones"))
      #expect(Self.eventually { session.onNotificationThread { inspector.changes >= 1 } })
      #expect(session.onNotificationThread { inspector.previousOutputs } == ["Speaker"])
      // The audio engine's configuration change is a name only: nothing posts it.
      #expect(inspector.engineConfigurationChanges == 0)
      #expect(
        NSNotification.Name.AVAudioEngineConfigurationChange.rawValue
          == "AVAudioEngineConfigurationChangeNotification")
      await rig.stop()
    }

    @Test(
      "a dictation screen's setCategory(.record, mode: .measurement, options: .duckOthers) is accepted, with duckOthers' mixWithOthers (docs/avaudiosession.md §4.1a)",
      arguments: rigs)
    func dictationRecorder_recordMeasurementDuckOthers_ducks(kind: String) async throws {
      let rig = try await Self.rig(kind)
      let recorder = DictationRecorder()
      try recorder.startListening()
      #expect(recorder.isListening)
      #expect(recorder.options == [.mixWithOthers, .duckOthers])
      let name = AVAudioSession.sharedInstance().name
      let status = await rig.status()
      #expect(status.sessions.first { $0.name == name }?.active == true)
      try recorder.stopListening()
      #expect(await rig.status().sessions.first { $0.name == name }?.active == false)
      await rig.stop()
    }

    @Test(
      "a file whose only audio import is MediaPlayer configures the session and is Now Playing (docs/ios-compat.md The products)",
      arguments: rigs)
    func lockScreenOnly_mediaPlayerOnly_usesTheSession(kind: String) async throws {
      let rig = try await Self.rig(kind)
      let app = LockScreenOnly()
      try app.publish(title: "Episode 1")
      #expect(app.category == .playback)
      let name = AVAudioSession.sharedInstance().name
      #expect(await rig.status().sessions.first { $0.name == name }?.nowPlaying == true)
      try app.clear()
      #expect(await rig.status().sessions.first { $0.name == name }?.nowPlaying == false)
      await rig.stop()
    }
  }

#endif
