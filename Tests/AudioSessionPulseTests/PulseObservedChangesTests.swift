import AudioSession
import AudioSessionArbiter
import AudioSessionPulse
import AudioSessionPulseTestSupport
import AudioSessionSystem
import Testing

extension PulseAudioTests {
  /// Changes nobody asked sessionctl for — a user plugs a device, another application's call
  /// starts, the microphone is muted — reach the engine as observed inputs
  /// (docs/pulseaudio-layer.md "The server, as the engine sees it").
  /// Another client on the backend's private server plays the user.
  @Suite struct PulseObservedChangesTests {
    static let music: [Command] = [
      .input(.setCategory(session: "music", category: .playback, mode: nil, options: [])),
      .input(.setActive(session: "music", active: true, options: [])),
      .input(.startIO(session: "music")),
    ]

    /// Loads a headphone null sink as a user's device would appear (no sessionctl properties).
    static func plugHeadphones(_ observer: PulseBackendObserver) async throws -> UInt32 {
      try await observer.client.loadModule(
        "module-null-sink",
        arguments: try PulseTestDevices.nullSink("usercans", PulseTestDevices.headphoneProperties))
    }

    // docs/api-coverage.md (outputVolume); docs/avaudiosession.md: the system volume every
    // session reads; shortFormVideo unmutes on the user's volume-up intent (iOS 26)
    @Test(
      "the default sink's volume is the system volume: a user's change reaches the engine as outputVolume, and simulate volume sets the sink",
      arguments: [PulseBackendConfiguration.Kind.pulseaudio, .pipewire])
    func defaultSinkVolume_isOutputVolume(kind: PulseBackendConfiguration.Kind) async throws {
      try await withPulseBackend(kind, scope: .system) { backend, coordinator in
        let observer = try await PulseBackendObserver(backend)
        _ = await PulseBackendHarness.run(Self.music, on: coordinator)
        #expect(await coordinator.status().outputVolume == 1)
        let observed = await coordinator.recordObserved()
        let sink = try #require(try await observer.client.serverInfo().defaultSinkName)

        // When the user turns the default sink down to 40 % in a mixer
        let channels = try #require(
          try await observer.client.sinks().first { $0.name == sink }?.channelVolumes.count)
        try await observer.client.setSinkVolume(
          sink, to: Array(repeating: PulseSystemState.channelVolume(0.4), count: channels))

        // Then the engine's system volume follows, as an observed input
        _ = try await observed.next("the volume observed") { $0 == .systemVolume(0.4) }
        #expect(await coordinator.status().outputVolume == 0.4)

        // When a script simulates the volume keys
        let result = await coordinator.run(.simulate(.volume(0.25)))
        #expect(result.error == nil, "\(String(describing: result.error))")

        // Then the sink itself is at 25 %, and the engine says so
        let shown = try #require(try await observer.client.sinks().first { $0.name == sink })
        #expect(PulseSystemState.systemVolume(shown.channelVolumes) == 0.25)
        #expect(await coordinator.status().outputVolume == 0.25)

        // And a volume out of range is refused, the sink unchanged
        let refused = await coordinator.run(.simulate(.volume(1.5)))
        #expect(refused.error?.code == .badParam)
        let after = try #require(try await observer.client.sinks().first { $0.name == sink })
        #expect(PulseSystemState.systemVolume(after.channelVolumes) == 0.25)
      }
    }

    // docs/pulseaudio.md §1.3 (a burst of events per operation; removed objects cannot be queried),
    // §4 row 8; docs/avaudiosession.md §6.2, §7.7
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

    /// Expects one route change with reason `override` to `uid` and nothing else (no pause).
    static func expectOverride(
      _ outcome: ObservedOutcome, session: String = "music", to uid: String
    ) {
      guard outcome.notifications.count == 1,
        let notification = outcome.notifications.first, notification.session == session,
        case .routeChange(.override, _, let current) = notification.event
      else {
        Issue.record("expected one override route change of \(session) to \(uid): \(outcome)")
        return
      }
      #expect(current.outputs.map(\.uid) + current.inputs.map(\.uid) == [uid])
    }

    /// Music plays on headphones a user plugged; returns the observed inputs from then on.
    static func musicOnUserHeadphones(
      _ backend: PulseAudioBackend, _ coordinator: ArbiterDriver,
      _ observer: PulseBackendObserver
    ) async throws -> PulseEventRecorder<ObservedOutcome> {
      _ = await PulseBackendHarness.run(Self.music, on: coordinator)
      let observed = await coordinator.recordObserved()
      _ = try await Self.plugHeadphones(observer)
      try await observed.next("headphones") {
        if case .deviceConnected(let device) = $0 { device.uid == "usercans" } else { false }
      }
      #expect(try await observer.stream(of: "music", onSink: "usercans").sink == "usercans")
      return observed
    }

    // docs/contract.md "Apps on the server" (a user's choice of output is
    // `override`)
    @Test(
      "choosing the default sink, away from the headphones and back, reroutes music with override, no pause, stream playing"
    )
    func userSetsDefaultSink_bothWays_overrideWithoutPause() async throws {
      try await withPulseBackend(scope: .system) { backend, coordinator in
        let observer = try await PulseBackendObserver(backend)
        let observed = try await Self.musicOnUserHeadphones(backend, coordinator, observer)
        let speaker = try #require(try await observer.objects(of: "builtin-speaker").first).name

        // When the user makes the speaker the default sink
        try await observer.client.setDefaultSink(speaker)

        // Then music's route is the speaker at once, reason override, and it still plays there
        let away = try await observed.next("speaker chosen") {
          $0 == .deviceChosen(uid: "builtin-speaker", direction: .output, session: nil)
        }
        Self.expectOverride(away, to: "builtin-speaker")
        var status = try #require(await coordinator.status().sessions.first)
        #expect(status.route.outputs.map(\.uid) == ["builtin-speaker"] && status.playing)
        var (stream, sink) = try await observer.stream(of: "music", onSink: speaker)
        #expect(sink == speaker && stream?.isCorked == false)

        // When the user makes the headphones the default again
        try await observer.client.setDefaultSink("usercans")

        // Then back to the headphones with override: no oldDeviceUnavailable, no pause
        let back = try await observed.next("headphones chosen") {
          $0 == .deviceChosen(uid: "usercans", direction: .output, session: nil)
        }
        Self.expectOverride(back, to: "usercans")
        status = try #require(await coordinator.status().sessions.first)
        #expect(status.route.outputs.map(\.uid) == ["usercans"] && status.playing)
        (stream, sink) = try await observer.stream(of: "music", onSink: "usercans")
        #expect(sink == "usercans" && stream?.isCorked == false)
        await backend.synchronize()
        #expect(await observed.events.count == 3)
        #expect(await backend.problems == [])
      }
    }

    // docs/contract.md "Apps on the server" (a stream moved in a mixer);
    // pulse.json streams.movable
    @Test(
      "with movable streams, moving a session's stream to another sink (pactl move-sink-input) reroutes only that session, with override"
    )
    func userMovesSessionStream_overrideForThatSession() async throws {
      try await withPulseBackend(scope: .system, movableStreams: true) { backend, coordinator in
        let observer = try await PulseBackendObserver(backend)
        let observed = try await Self.musicOnUserHeadphones(backend, coordinator, observer)
        let others: [Command] = [
          .input(
            .setCategory(
              session: "movie", category: .playback, mode: .moviePlayback, options: [.mixWithOthers]
            )),
          .input(.setActive(session: "movie", active: true, options: [])),
          .input(.startIO(session: "movie")),
        ]
        #expect(
          await PulseBackendHarness.run(others, on: coordinator).allSatisfy { $0.error == nil })
        let speaker = try #require(try await observer.objects(of: "builtin-speaker").first).name
        let music = try #require(try await observer.stream(of: "music"))

        // When the user moves music's stream to the speaker in a mixer
        try await observer.client.moveSinkInput(music.index, toSink: speaker)

        // Then music alone is rerouted to the speaker with override, and keeps playing there
        let moved = try await observed.next("music moved") {
          $0 == .deviceChosen(uid: "builtin-speaker", direction: .output, session: "music")
        }
        Self.expectOverride(moved, to: "builtin-speaker")
        let sessions = await coordinator.status().sessions
        #expect(
          sessions.first { $0.name == "music" }?.route.outputs.map(\.uid) == ["builtin-speaker"])
        #expect(sessions.first { $0.name == "movie" }?.route.outputs.map(\.uid) == ["usercans"])
        let stream = try #require(try await observer.stream(of: "music"))
        #expect(try await observer.sinkName(of: stream) == speaker && !stream.isCorked)
        await backend.synchronize()
        #expect(await observed.events.count == 2)
        #expect(await backend.problems == [])
      }
    }

    // docs/apps.md "Our own streams never leak" (pinned streams cannot be moved)
    @Test(
      "a pinned session stream cannot be moved in a mixer: the server refuses, and the route stays")
    func userMovesPinnedStream_refused() async throws {
      try await withPulseBackend(scope: .system) { backend, coordinator in
        let observer = try await PulseBackendObserver(backend)
        let observed = try await Self.musicOnUserHeadphones(backend, coordinator, observer)
        let speaker = try #require(try await observer.objects(of: "builtin-speaker").first).name
        let music = try #require(try await observer.stream(of: "music"))
        await #expect(throws: PulseError.self) {
          try await observer.client.moveSinkInput(music.index, toSink: speaker)
        }
        await backend.synchronize()
        #expect(await observed.events.count == 1)
        let status = try #require(await coordinator.status().sessions.first)
        #expect(status.route.outputs.map(\.uid) == ["usercans"] && status.playing)
        #expect(try await observer.sinkName(of: music) == "usercans")
        #expect(await backend.problems == [])
      }
    }

    // docs/contract.md "Apps on the server" (default source)
    @Test("choosing the default source reroutes a recording session's input with override")
    func userSetsDefaultSource_recording_override() async throws {
      try await withPulseBackend(scope: .system) { backend, coordinator in
        let observer = try await PulseBackendObserver(backend)
        let memo: [Command] = [
          .input(.setCategory(session: "memo", category: .record, mode: nil, options: [])),
          .input(.setActive(session: "memo", active: true, options: [])),
          .input(.startIO(session: "memo")),
        ]
        #expect(await PulseBackendHarness.run(memo, on: coordinator).allSatisfy { $0.error == nil })
        let observed = await coordinator.recordObserved()
        // Given a USB microphone the user plugged (last in: memo records from it)
        _ = try await observer.client.loadModule(
          "module-sine-source",
          arguments: try PulseModuleArguments.make(
            ["source_name": "usermic", "rate": "8000"],
            propertyLists: [
              "source_properties": ["device.description": "USB Mic", "device.bus": "usb"]
            ]))
        let plugged = try await observed.next("usb mic") {
          if case .deviceConnected(let device) = $0 { device.uid == "usermic" } else { false }
        }
        #expect(
          plugged.notifications.contains {
            if case .routeChange(.newDeviceAvailable, _, let now) = $0.event {
              now.inputs.map(\.uid) == ["usermic"]
            } else {
              false
            }
          })
        await backend.synchronize()
        let mic = try #require(try await observer.objects(of: "builtin-mic").first).name

        // When the user makes the built-in mic the default source
        try await observer.client.setDefaultSource(mic)

        // Then memo's input is the built-in mic, reason override
        let chosen = try await observed.next("mic chosen") {
          $0 == .deviceChosen(uid: "builtin-mic", direction: .input, session: nil)
        }
        Self.expectOverride(chosen, session: "memo", to: "builtin-mic")
        let recording = try #require(try await observer.recording(of: "memo"))
        #expect(try await observer.sourceName(of: recording) == mic)
      }
    }

    // docs/contract.md "Scenario files" (a scenario sees only its own devices)
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

    // docs/pulseaudio.md §2 (module-role-cork: request-cork first, then the phone stream appears);
    // docs/avaudiosession.md §5.1 A4, §12 D6 (ended with shouldResume after a call)
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

    // docs/pulseaudio.md §2 (request-cork arrives before the phone stream is announced)
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

    // docs/pulseaudio.md §2 (request-cork comes first); never stuck
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

    // The built-in mic source muted → mic mute; docs/avaudiosession.md §4.4
    @Test("muting the built-in mic's source from outside interrupts a recording session")
    func foreignSourceMute_voiceChat_micMuteInterrupts() async throws {
      try await withPulseBackend { backend, coordinator in
        let observer = try await PulseBackendObserver(backend)
        _ = await PulseBackendHarness.run(
          [
            .input(
              .setCategory(session: "voip", category: .playAndRecord, mode: .voiceChat, options: [])
            ),
            .input(.setActive(session: "voip", active: true, options: [])),
            .input(.startIO(session: "voip")),
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
