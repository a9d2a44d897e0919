#if canImport(PortedIOSApps)
  import AVFAudio
  import AudioSession
  import AudioSessionClient
  import Foundation
  import PortedIOSApps
  import Testing

  // Stereo capture from the built-in microphones, as an iOS 14 app selects it
  // (`Tests/PortedIOSApps/StereoRecorder.swift`), in-process and against the daemon
  // (docs/avaudiosession.md §7.1; policies/README.md "devices.json").
  extension PortedAppsTests {
    @Test(
      "a recorder picks the Bottom microphone by its orientation's name and gets stereo, two channels, then Front's cardioid and one channel (docs/avaudiosession.md §7.1)",
      arguments: rigs)
    func stereoRecorder_bottomThenFront_selectsPatterns(kind: String) async throws {
      let rig = try await Self.rig(kind)
      let recorder = StereoRecorder()
      try recorder.prepare()
      #expect(try recorder.preferBuiltInMicrophone())
      let session = AVAudioSession.sharedInstance()
      let sources = try #require(session.preferredInput?.dataSources)
      #expect(sources.map(\.dataSourceName) == ["Bottom", "Front", "Back"])
      #expect(sources.map(\.location) == [.lower, .upper, .upper])
      #expect(sources.map(\.orientation) == [.bottom, .front, .back])
      #expect(sources[0].supportedPolarPatterns == [.omnidirectional, .stereo])
      #expect(sources[1].supportedPolarPatterns == [.omnidirectional, .cardioid, .subcardioid])
      #expect(sources.map(\.selectedPolarPattern) == [.omnidirectional, .cardioid, .cardioid])
      #expect(sources.allSatisfy { $0.preferredPolarPattern == nil })
      #expect(session.inputNumberOfChannels == 1)

      #expect(try recorder.pick(.orientationBottom, holding: .landscapeLeft) == .stereo)
      #expect(recorder.inUse.name == "Bottom" && recorder.inUse.pattern == .stereo)
      #expect(session.inputDataSource?.preferredPolarPattern == .stereo)
      #expect(session.inputNumberOfChannels == 2)
      #expect(session.maximumInputNumberOfChannels == 2)
      #expect(session.preferredInputOrientation == .landscapeLeft)
      let name = session.name
      let stereo = await rig.status().sessions.first { $0.name == name }
      #expect(stereo?.inputDataSource == "Bottom" && stereo?.inputPolarPattern == .stereo)
      #expect(stereo?.hardware.inputNumberOfChannels == 2)

      #expect(try recorder.pick(.orientationFront, holding: .portrait) == .mono)
      #expect(recorder.inUse.name == "Front" && recorder.inUse.pattern == .cardioid)
      #expect(session.inputNumberOfChannels == 1)
      // Bottom keeps its preference: selected again, it is stereo again.
      #expect(try recorder.pick(.orientationBottom, holding: .portrait) == .stereo)
      #expect(session.inputNumberOfChannels == 2)
      await rig.stop()
    }

    @Test(
      "asking the Front microphone for stereo is badParam (-50), and changes nothing (docs/avaudiosession.md §7.1)",
      arguments: rigs)
    func stereoRecorder_stereoOnFront_isBadParam(kind: String) async throws {
      let rig = try await Self.rig(kind)
      let recorder = StereoRecorder()
      try recorder.prepare()
      #expect(try recorder.preferBuiltInMicrophone())
      #expect(try recorder.pick(.orientationFront, holding: .portrait) == .mono)
      #expect(
        recorder.forceStereo(.orientationFront) == AVAudioSession.ErrorCode.badParam.rawValue)
      #expect(recorder.inUse.name == "Front" && recorder.inUse.pattern == .cardioid)
      #expect(recorder.forceStereo(.orientationBottom) == nil)
      await rig.stop()
    }
  }
#endif
