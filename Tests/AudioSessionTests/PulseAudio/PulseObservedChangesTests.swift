import AudioSession
import Testing

extension PulseAudioTests {
  /// Changes nobody asked sessionctl for — a user plugs a device, another application's call
  /// starts, the microphone is muted — reach the engine as observed inputs (issue 3 items 3, 5).
  /// Another client on the backend's private server plays the user.
  @Suite struct PulseObservedChangesTests {
    static let music: [Command] = [
      .set(session: "music", category: .playback, mode: nil, options: []),
      .activate(session: "music"), .play(session: "music"),
    ]

    /// Loads a headphone null sink as a user's device would appear (no sessionctl properties).
    static func plugHeadphones(_ observer: PulseBackendObserver) async throws -> UInt32 {
      try await observer.client.loadModule(
        "module-null-sink",
        arguments: try PulseTestDevices.nullSink("usercans", PulseTestDevices.headphoneProperties))
    }

    // pulseaudio.md §1.3 (a burst of events per operation; removed objects cannot be queried),
    // §4 row 8; avaudiosession.md §6.2, §7.7
    @Test(
      "a sink a user plugs is one newDeviceAvailable; its removal is oldDeviceUnavailable with it as previous route, and a pause"
    )
    func userPlugsAndUnplugsSink_systemDevices_routeChangesWithPreviousRoute() async throws {
      try await withPulseBackend(scope: .system) { backend, coordinator in
        let observer = try await PulseBackendObserver(backend)
        _ = await PulseBackendHarness.run(Self.music, on: coordinator)
        let observed = await coordinator.recordObserved()

        // When a user plugs headphones (a burst: change sink, new source, new sink, server…)
        let module = try await Self.plugHeadphones(observer)

        // Then the engine hears of exactly one new device, and music's route moves to it
        let plug = try await observed.next("headphones connected") {
          if case .deviceConnected(let device) = $0 { device.uid == "usercans" } else { false }
        }
        guard
          case .routeChange(.newDeviceAvailable, let before, let after)? =
            plug.notifications.first?.event
        else {
          Issue.record("expected newDeviceAvailable: \(plug)")
          return
        }
        #expect(before.outputs.map(\.portType) == [.builtInSpeaker])
        #expect(after.outputs.map(\.portType) == [.headphones])
        #expect(after.outputs.map(\.uid) == ["usercans"])
        #expect(after.outputs.map(\.portName) == ["Wired Headphones"])

        // When the user unplugs them
        try await observer.client.unloadModule(module)

        // Then one disconnect: the previous route names the headphones, and music is paused
        let unplug = try await observed.next("headphones disconnected") {
          $0 == .deviceDisconnected(uid: "usercans")
        }
        guard
          case .routeChange(.oldDeviceUnavailable, let previous, let current)? =
            unplug.notifications.first?.event
        else {
          Issue.record("expected oldDeviceUnavailable: \(unplug)")
          return
        }
        #expect(previous.outputs.map(\.uid) == ["usercans"])
        #expect(current.outputs.map(\.portType) == [.builtInSpeaker])
        #expect(unplug.notifications.last?.event == .pause(reason: .oldDeviceUnavailable))
        await backend.synchronize()
        #expect(await observed.events.count == 2)
        #expect(
          await coordinator.status().devices.map(\.uid) == [
            "builtin-speaker", "builtin-receiver", "builtin-mic",
          ])
      }
    }

    // issue 3 item 3 (default changes); avaudiosession.md §7.3 (last in wins)
    @Test("a default sink a user chooses becomes the most recent device: music's route follows it")
    func userSetsDefaultSink_systemDevices_routeFollows() async throws {
      try await withPulseBackend(scope: .system) { backend, coordinator in
        let observer = try await PulseBackendObserver(backend)
        _ = await PulseBackendHarness.run(Self.music, on: coordinator)
        let observed = await coordinator.recordObserved()
        // Given a USB speaker, then headphones, plugged by the user: the headphones are last in
        // and, having the higher priority, the server's default
        _ = try await observer.client.loadModule(
          "module-null-sink",
          arguments: try PulseTestDevices.nullSink(
            "userusb", ["device.description": "USB Speaker", "device.bus": "usb"]))
        try await observed.next("usb") {
          if case .deviceConnected(let device) = $0 { device.uid == "userusb" } else { false }
        }
        _ = try await Self.plugHeadphones(observer)
        let headphones = try await observed.next("headphones") {
          if case .deviceConnected(let device) = $0 { device.uid == "usercans" } else { false }
        }
        #expect(
          headphones.notifications.map(\.event).contains { event in
            if case .routeChange(_, _, let now) = event {
              now.outputs.map(\.uid) == ["usercans"]
            } else {
              false
            }
          })
        #expect(try await observer.client.serverInfo().defaultSinkName == "usercans")

        // When the user makes the USB speaker the default sink
        try await observer.client.setDefaultSink("userusb")

        // Then it becomes the most recent device, and music's route moves to it
        try await observed.next("usb disconnected") { $0 == .deviceDisconnected(uid: "userusb") }
        let back = try await observed.next("usb connected again") {
          if case .deviceConnected(let device) = $0 { device.uid == "userusb" } else { false }
        }
        guard
          case .routeChange(.newDeviceAvailable, _, let current)? =
            back.notifications.first?.event
        else {
          Issue.record("expected a route change to the USB speaker: \(back)")
          return
        }
        #expect(current.outputs.map(\.uid) == ["userusb"])
        await backend.synchronize()
        #expect(await observed.events.count == 4)
      }
    }

    // product.md "Scenario files" (a scenario sees only its own devices); issue 3 item 7
    @Test("with simulated devices only, a device someone else loads is ignored")
    func userPlugsSink_simulatedDevices_ignored() async throws {
      try await withPulseBackend { backend, coordinator in
        let observer = try await PulseBackendObserver(backend)
        let observed = await coordinator.recordObserved()
        _ = try await Self.plugHeadphones(observer)
        await backend.synchronize()
        #expect(await observed.events.isEmpty)
        #expect(await coordinator.status().devices.count == 3)
      }
    }

    // pulseaudio.md §2 (module-role-cork: request-cork first, then the phone stream appears);
    // avaudiosession.md §5.1 A4, §12 D6 (ended with shouldResume after a call)
    @Test(
      "another application's phone-role stream is a call: began by call, then ended with shouldResume"
    )
    func foreignPhoneStream_playingMusic_callBeginsAndEnds() async throws {
      try await withPulseBackend { backend, coordinator in
        let observed = try await PulseBackendHarness.foreignCallInterruptsMusic(
          backend, coordinator)
        // Once each: no second began or ended.
        await backend.synchronize()
        #expect(await observed.events.count == 2)
      }
    }

    // pulseaudio.md §2 (request-cork arrives before the phone stream is announced)
    @Test("module-role-cork's request-cork on a session's stream begins the interruption by itself")
    func requestCork_sessionStream_beginsCall() async throws {
      try await withPulseBackend { backend, coordinator in
        _ = await PulseBackendHarness.run(Self.music, on: coordinator)
        let observed = await coordinator.recordObserved()
        let observer = try await PulseBackendObserver(backend)
        // A raw subscriber sees the order on the server: the phone stream is announced after
        // module-role-cork has sent its request
        let phone = try PulsePlaybackStream(
          context: observer.client, name: "softphone", properties: ["media.role": "phone"])
        try await phone.connect()
        let began = try await observed.next("call began") { $0 == .call(active: true) }
        #expect(began.notifications.count == 1)
        let music = try #require(try await observer.stream(of: "music"))
        #expect(music.isCorked && music.isMuted)  // corked by us, muted by module-role-cork
        phone.disconnect()
        try await observed.next("call ended") { $0 == .call(active: false) }
      }
    }

    // pulseaudio.md §2 (request-cork comes first); issue 3 "Bad input" (never stuck)
    @Test("a phone stream that ends before the backend could ask its role still ends the call")
    func foreignPhoneStream_gone_callEnds() async throws {
      try await withPulseBackend { backend, coordinator in
        let observer = try await PulseBackendObserver(backend)
        _ = await PulseBackendHarness.run(Self.music, on: coordinator)
        let observed = await coordinator.recordObserved()
        let phone = try PulsePlaybackStream(
          context: observer.client, name: "blip", properties: ["media.role": "phone"])
        try await phone.connect()
        phone.disconnect()
        try await observed.next("call began") { $0 == .call(active: true) }
        let ended = try await observed.next("call ended") { $0 == .call(active: false) }
        #expect(
          ended.notifications.map(\.event) == [
            .interruptionEnded(options: .shouldResume, by: .call)
          ])
        #expect(await backend.describeCalls().hasPrefix("call-role streams: none;"))
      }
    }

    // issue 3 item 5 (the built-in mic source muted → mic mute); avaudiosession.md §4.4
    @Test("muting the built-in mic's source from outside interrupts a recording session")
    func foreignSourceMute_voiceChat_micMuteInterrupts() async throws {
      try await withPulseBackend { backend, coordinator in
        let observer = try await PulseBackendObserver(backend)
        _ = await PulseBackendHarness.run(
          [
            .set(session: "voip", category: .playAndRecord, mode: .voiceChat, options: []),
            .activate(session: "voip"), .play(session: "voip"),
          ], on: coordinator)
        let observed = await coordinator.recordObserved()
        let mic = try #require(try await observer.objects(of: "builtin-mic").first)
        try await observer.client.setSourceMute(mic.name, muted: true)
        let muted = try await observed.next("mic muted") { $0 == .builtInMicMute(on: true) }
        #expect(
          muted.notifications.map(\.event) == [
            .interruptionBegan(reason: .builtInMicMuted, by: .system)
          ])
        try await observer.client.setSourceMute(mic.name, muted: false)
        let unmuted = try await observed.next("mic unmuted") { $0 == .builtInMicMute(on: false) }
        #expect(
          unmuted.notifications.map(\.event) == [
            .interruptionEnded(options: .shouldResume, by: .system)
          ])
      }
    }
  }
}
