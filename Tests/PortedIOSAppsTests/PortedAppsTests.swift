#if canImport(PortedIOSApps)
  import AudioSessionTestSupport
  import AudioSessionDaemonTestSupport
  import AudioSessionClient
  @testable import AudioSession
  import AudioSessionHost
  import AudioSessionWire
  import Foundation
  import PortedIOSApps
  import Testing

  /// docs/ios-compat.md "What is as on iOS": app code written as on iOS (`Tests/PortedIOSApps`,
  /// `import AVFoundation`, compiled unchanged against the Linux-only compatibility products),
  /// driven through `AVAudioSession.sharedInstance()` bound to an in-process engine and to a
  /// daemon, with a simulated call and unplug. Serialized: the shared instance is the process's.
  @Suite(.serialized) struct PortedAppsTests {
    /// Where the shared instance lives for one test, and how that test changes the system.
    enum Rig {
      case engine(EmbeddedAudioSystem)
      case daemon(DaemonHarness, DaemonConnection)

      static func engine(profile: String? = nil) throws -> Rig {
        let system = try EmbeddedAudioSystem(policyDirectory: Repository.policies, profile: profile)
        AVAudioSession.useInProcessEngine(system)
        // No MPRIS player on whatever session bus the tests run with (PortedAppsTests+MPRIS.swift
        // serves one on a private bus).
        NowPlayingService.use(.none)
        return .engine(system)
      }

      static func daemon(profile: String? = nil) async throws -> Rig {
        let harness = try await DaemonHarness.start(profile: profile)
        AVAudioSession.useDaemon(socketPath: harness.socketPath)
        NowPlayingService.use(.none)
        return .daemon(harness, try harness.connect())
      }

      func simulate(_ action: SimulationAction) throws {
        switch self {
        case .engine(let system): try system.simulate(action)
        case .daemon(_, let control):
          let reply = try control.request(.command(.simulate(action)))
          if case .session(let error)? = reply.error { throw error }
        }
      }

      func status() async -> EngineStatus {
        switch self {
        case .engine(let system): system.status()
        case .daemon(let harness, _): await harness.core.status()
        }
      }

      func stop() async {
        AVAudioSession.useInProcessEngine(nil)
        if case .daemon(let harness, let control) = self {
          control.close()
          await harness.stop()
        }
      }
    }

    static let rigs = ["engine", "daemon"]

    static func rig(_ kind: String, profile: String? = nil) async throws -> Rig {
      kind == "engine" ? try .engine(profile: profile) : try await .daemon(profile: profile)
    }

    /// Waits (up to 10 s) until `condition` holds: notifications arrive on the connection's
    /// thread, as they arrive on iOS on a thread of the system's.
    static func eventually(_ condition: () -> Bool) -> Bool {
      let deadline = Date(timeIntervalSinceNow: 10)
      while !condition() {
        if Date() > deadline { return false }
        Thread.sleep(forTimeInterval: 0.005)
      }
      return true
    }

    @Test(
      "an interruption monitor pauses on a call and resumes when it ends with shouldResume",
      arguments: rigs)
    func podcastPlayer_call_pausesAndResumes(kind: String) async throws {
      let rig = try await Self.rig(kind)
      let player = PodcastPlayer()
      try player.play()
      // The player's audio runs (what iOS sees of an AVAudioPlayer).
      try AVAudioSession.sharedInstance().setPlaying(true)
      try rig.simulate(.call(active: true))
      #expect(Self.eventually { player.recorded.contains("interrupted") })
      #expect(!player.isPlaying)
      try rig.simulate(.call(active: false))
      #expect(Self.eventually { player.recorded.contains("resumed") })
      #expect(player.isPlaying && AVAudioSession.sharedInstance().isActive)
      #expect(player.recorded == ["play", "interrupted", "resumed"])
      await rig.stop()
    }

    @Test(
      "a media-services reset handler sets its category up again",
      arguments: ["engine"])
    func podcastPlayer_mediaServicesReset_reconfigures(kind: String) async throws {
      let rig = try await Self.rig(kind)
      let player = PodcastPlayer()
      try player.play()
      try rig.simulate(.serverRestart)
      #expect(Self.eventually { player.recorded.contains("reset") })
      #expect(Self.eventually { AVAudioSession.sharedInstance().mode == .spokenAudio })
      #expect(AVAudioSession.sharedInstance().category == .playback)
      await rig.stop()
    }

    @Test(
      "a route-change handler reads the previous route and pauses when headphones go",
      arguments: rigs)
    func headphoneGuard_unplug_pauses(kind: String) async throws {
      let rig = try await Self.rig(kind)
      let session = AVAudioSession.sharedInstance()
      try session.setCategory(.playback)
      try session.setActive(true)
      let guardian = HeadphoneGuard()
      #expect(!guardian.headphonesConnected)
      try rig.simulate(.plug(preset: "headphones"))
      // The guard writes what it saw on the connection's thread, as on iOS, under its lock:
      // the test reads its events through that lock, and what it wrote with them only after
      // (found by ThreadSanitizer: docs/fuzzing.md "Sanitizers").
      #expect(Self.eventually { guardian.recorded.contains { $0.hasPrefix("new device") } })
      #expect(guardian.headphonesConnected)
      #expect(session.currentRoute.outputs.map(\.portType) == [.headphones])
      try rig.simulate(.unplug("headphones"))
      #expect(Self.eventually { guardian.recorded.contains("pause: headphones removed") })
      #expect(!guardian.headphonesConnected)
      #expect(session.currentRoute.outputs.map(\.portType) == [.builtInSpeaker])
      await rig.stop()
    }

    @Test(
      "a call app catches NSError codes: insufficientPriority during a phone call, -50",
      arguments: rigs)
    func callAudio_errors_areNSErrorsWithApplesCodes(kind: String) async throws {
      let rig = try await Self.rig(kind)
      let call = CallAudio()
      try rig.simulate(.call(active: true))
      #expect(call.startCall() == .phoneCallInProgress)
      try rig.simulate(.call(active: false))
      #expect(call.startCall() == .ok)
      #expect(call.askForChannels(8) == .failed(domain: NSOSStatusErrorDomain, code: -50))
      #expect(call.endCall() == .ok)
      await rig.stop()
    }

    @Test(
      "a call app ending its call with I/O running catches isBusy (profile ios18)",
      arguments: rigs)
    func callAudio_endWithIORunning_catchesIsBusy(kind: String) async throws {
      let rig = try await Self.rig(kind, profile: "ios18")
      let call = CallAudio()
      #expect(call.startCall() == .ok)
      try AVAudioSession.sharedInstance().setPlaying(true)
      #expect(call.endCall() == .ioStillRunning)
      #expect(!AVAudioSession.sharedInstance().isActive)
      await rig.stop()
    }

    @Test(
      "a call app's speaker button, microphone choice and mute button (AVAudioApplication's input mute in the engine, docs/avaudiosession.md §1.5)"
    )
    func callAudio_routeDataSourcesAndMute() async throws {
      let rig = try await Self.rig("engine")
      let call = CallAudio()
      #expect(call.startCall() == .ok)
      #expect(!call.isSpeakerRoute)
      try call.useSpeaker(true)
      #expect(call.isSpeakerRoute)
      #expect(call.microphones.names == ["Bottom", "Front", "Back"])
      #expect(call.microphones.selected == "Bottom")
      try call.useMicrophone(named: "Front")
      #expect(call.microphones.selected == "Front")
      let muted = NSCondition()
      nonisolated(unsafe) var states: [Bool] = []
      let observer = NotificationCenter.default.addObserver(
        forName: AVAudioApplication.inputMuteStateChangeNotification, object: nil, queue: nil
      ) { note in
        muted.lock()
        states.append(
          (note.userInfo?[AVAudioApplication.muteStateKey] as? NSNumber)?.boolValue ?? false)
        muted.unlock()
      }
      try call.toggleMute()
      #expect(AVAudioApplication.shared.isInputMuted)
      // The engine's, for the shared session: status shows it (sessionctl input-muted).
      let name = AVAudioSession.sharedInstance().name
      #expect(await rig.status().sessions.first { $0.name == name }?.inputMuted == true)
      try call.toggleMute()
      #expect(!AVAudioApplication.shared.isInputMuted)
      // The engine's notifications arrive on the session's queue, as on iOS on the system's.
      #expect(Self.eventually { muted.withLock { states }.count == 2 })
      NotificationCenter.default.removeObserver(observer)
      #expect(muted.withLock { states } == [true, false])
      #expect(call.endCall() == .ok)
      await rig.stop()
    }

    @Test(
      "Swift 4 spellings and perform(NSSelectorFromString(\"setCategory:error:\"), with:)",
      arguments: rigs)
    func legacyGameAudio_selectorAndOldNames(kind: String) async throws {
      let rig = try await Self.rig(kind)
      let game = LegacyGameAudio()
      // The game counts on the thread notifications are posted from, as on iOS; the test reads
      // the count on that thread too (found by ThreadSanitizer: docs/fuzzing.md "Sanitizers").
      let session = AVAudioSession.sharedInstance()
      game.configureLikeIOS9()
      #expect(game.isAmbient)
      try game.start()
      try rig.simulate(.call(active: true))
      #expect(Self.eventually { session.onNotificationThread { game.interruptions == 1 } })
      try rig.simulate(.call(active: false))
      await rig.stop()
    }
  }
#endif

#if canImport(PortedIOSApps)
  extension PortedAppsTests {
    @Test(
      "the system volume and the record permission are the engine's: simulate volume and permission (docs/contract.md)",
      arguments: rigs)
    func volumeAndPermission_simulated_appsReadThem(kind: String) async throws {
      let rig = try await Self.rig(kind)
      let session = AVAudioSession.sharedInstance()
      #expect(session.outputVolume == 1)
      #expect(AVAudioApplication.shared.recordPermission == .granted)
      #expect(session.recordPermission == .granted)
      try rig.simulate(.volume(0.25))
      try rig.simulate(.recordPermission(.denied))
      #expect(session.outputVolume == 0.25)
      #expect(AVAudioApplication.shared.recordPermission == .denied)
      #expect(session.recordPermission == .denied)
      // The call app checks the permission first, as iOS apps do.
      #expect(CallAudio().startCall() == .noPermission)
      #expect(throws: SessionError.self) { try rig.simulate(.volume(1.5)) }
      try rig.simulate(.recordPermission(.granted))
      #expect(CallAudio().startCall() == .ok)
      await rig.stop()
    }

    @Test("status shows the volume and the permission only when not the default")
    func status_volumeAndPermission_shownWhenNotDefault() throws {
      let system = try EmbeddedAudioSystem(policyDirectory: Repository.policies)
      let plain = TranscriptText.statusLines(system.status()).last { $0.hasPrefix("system:") }
      #expect(plain?.contains("volume") == false)
      #expect(
        TranscriptJSON.status(system.status())["system"].map { "\($0)" }?.contains("volume")
          == false)
      try system.simulate(.volume(0.3))
      try system.simulate(.recordPermission(.undetermined))
      let line = TranscriptText.statusLines(system.status()).last { $0.hasPrefix("system:") }
      #expect(line?.hasSuffix(", volume 0.3, record permission undetermined") == true)
      guard case .object(let json)? = TranscriptJSON.status(system.status())["system"] else {
        Issue.record("no system object")
        return
      }
      #expect(json["volume"] == .double(0.3))
      #expect(json["recordPermission"] == .string("undetermined"))
    }

    @Test(
      "an iOS 27 player follows its session through the typed messages: active, interrupted by a call, resumed on shouldResume; CarPlay's stereo layout while active (docs/avaudiosession.md §13.1)",
      arguments: rigs)
    @MainActor func drivingPlayer_typedMessages(kind: String) async throws {
      let rig = try await Self.rig(kind, profile: "ios27")
      let player = DrivingPlayer()
      #expect(player.outputChannelCounts == [])
      try rig.simulate(.plug(preset: "carAudio"))
      try player.play()
      try AVAudioSession.sharedInstance().setPlaying(true)
      #expect(await Self.settled { player.recorded == ["active"] })
      #expect(player.outputChannelCounts == [2])
      try rig.simulate(.call(active: true))
      #expect(await Self.settled { player.recorded.count == 2 })
      #expect(player.recorded.last == "inactive: interrupted (0)")
      #expect(!player.isPlaying)
      // An inactive session has no layouts, as Apple's header says.
      #expect(player.outputChannelCounts == [])
      try rig.simulate(.call(active: false))
      // The resumption and the activation it leads to are two messages, posted one after the
      // other on the main actor: wait for both.
      #expect(await Self.settled { player.recorded.count >= 4 })
      #expect(player.isPlaying && AVAudioSession.sharedInstance().isActive)
      #expect(player.recorded == ["active", "inactive: interrupted (0)", "resumed", "active"])
      try player.stop()
      await rig.stop()
    }

    /// Waits (up to 10 s) on the main actor until `condition` holds: the typed messages are
    /// posted there, so the wait must let it run.
    @MainActor static func settled(_ condition: @MainActor () -> Bool) async -> Bool {
      let deadline = Date(timeIntervalSinceNow: 10)
      while !condition() {
        if Date() > deadline { return false }
        try? await Task.sleep(for: .milliseconds(5))
      }
      return true
    }

    @Test("ports carry channels, data sources and the route's maximum channel counts")
    func ports_channelsAndMaxima() async throws {
      let rig = try await Self.rig("engine")
      let session = AVAudioSession.sharedInstance()
      try session.setCategory(.playAndRecord, mode: .voiceChat)
      try session.setActive(true)
      let input = try #require(session.currentRoute.inputs.first)
      #expect(input.portType == .builtInMic)
      #expect(input.channels?.map(\.channelNumber) == [1])
      #expect(input.dataSources?.map(\.dataSourceName) == ["Bottom", "Front", "Back"])
      #expect(input.dataSources?.first?.orientation == .bottom)
      #expect(session.maximumInputNumberOfChannels == 1)
      #expect(session.maximumOutputNumberOfChannels == 1)
      #expect(session.isInputAvailable)
      #expect(session.availableCategories.contains(.playAndRecord))
      #expect(session.availableModes.contains(.voiceChat))
      // Category and mode structs take any string, as Apple's do; the engine refuses it.
      let error = #expect(throws: NSError.self) {
        try session.setCategory(AVAudioSession.Category(rawValue: "NoSuchCategory"))
      }
      #expect(error?.code == AVAudioSession.ErrorCode.badParam.rawValue)
      #expect(error?.domain == NSOSStatusErrorDomain)
      await rig.stop()
    }
  }
#endif

#if canImport(PortedIOSApps)
  import MediaPlayer

  extension PortedAppsTests {
    @Test(
      "a player publishing Now Playing information is the engine's Now Playing app; remote commands reach its handlers",
      arguments: rigs)
    func radioPlayer_nowPlayingAndRemoteCommands(kind: String) async throws {
      let rig = try await Self.rig(kind)
      let radio = RadioPlayer()
      try radio.start(station: "Radio Swift")
      let session = AVAudioSession.sharedInstance()
      let status = await rig.status()
      #expect(status.sessions.first { $0.name == session.name }?.nowPlaying == true)
      let commands = MPRemoteCommandCenter.shared()
      #expect(commands.nextTrackCommand.send() == .commandFailed)
      #expect(commands.pauseCommand.send() == .success)
      #expect(!radio.isPlaying)
      #expect(commands.pauseCommand.send() == .commandFailed)
      #expect(commands.playCommand.send() == .success)
      #expect(radio.isPlaying)
      try radio.stop()
      #expect(await rig.status().sessions.first { $0.name == session.name }?.nowPlaying == false)
      #expect(commands.playCommand.send() == .noSuchContent)
      commands.nextTrackCommand.isEnabled = true
      await rig.stop()
    }
  }
#endif
