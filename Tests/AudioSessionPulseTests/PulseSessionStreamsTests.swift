import AudioSession
import AudioSessionArbiter
import AudioSessionPulse
import AudioSessionPulseTestSupport
import AudioSessionSystem
import Testing

extension PulseAudioTests {
  /// Sessions as real streams on a private server: the engine's decisions act on them
  /// (docs/pulseaudio-layer.md "Sessions as streams"). A second client looks at what the server
  /// shows.
  @Suite struct PulseSessionStreamsTests {
    static func music(_ category: AudioSession.Category = .playback) -> [Command] {
      [
        .input(.setCategory(session: "music", category: category, mode: nil, options: [])),
        .input(.setActive(session: "music", active: true, options: [])),
        .input(.startIO(session: "music")),
      ]
    }

    // docs/pulseaudio.md §2 (media.role); docs/avaudiosession.md §7.3 (playback routes to the
    // speaker)
    @Test("a playing session owns a music-role stream on its route's sink; stop removes it")
    func play_playback_streamWithRoleOnRouteSink() async throws {
      try await withPulseBackend { backend, coordinator in
        let observer = try await PulseBackendObserver(backend)
        // When music plays
        _ = await PulseBackendHarness.run(Self.music(), on: coordinator)
        // Then its stream plays on the built-in speaker's sink, tagged media.role=music
        let stream = try #require(try await observer.stream(of: "music"))
        #expect(stream.role == "music")
        #expect(!stream.isCorked && !stream.isMuted)
        let speaker = try await observer.objects(of: "builtin-speaker")
        #expect(try await observer.sinkName(of: stream) == speaker.first?.name)
        #expect(try await observer.recording(of: "music") == nil)
        // When it stops, Then the stream is gone
        _ = await coordinator.run(.input(.stopIO(session: "music")))
        #expect(try await observer.stream(of: "music") == nil)
        #expect(await backend.problems == [])
      }
    }

    // pulse.json streams.roles (voiceChat → phone); docs/avaudiosession.md §3 voiceChat, §7.3
    @Test("a voiceChat session plays and records with media.role=phone on the receiver and mic")
    func play_voiceChat_phoneRolePlaybackAndRecord() async throws {
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
        let playback = try #require(try await observer.stream(of: "voip"))
        let record = try #require(try await observer.recording(of: "voip"))
        #expect(playback.role == "phone" && record.role == "phone")
        #expect(
          try await observer.sinkName(of: playback)
            == observer.objects(of: "builtin-receiver").first?.name)
        #expect(
          try await observer.sourceName(of: record)
            == observer.objects(of: "builtin-mic").first?.name)
        #expect(await backend.problems == [])
      }
    }

    // docs/avaudiosession.md §4.4 duckOthers; docs/apps.md "Our own streams never leak" (the
    // stream database keyed by media.role)
    @Test(
      "a ducked session's silent stream keeps the volumes it has, so that the server's stream database hands no lowered volume to the next program with its role"
    )
    func duck_navigationPrompt_silentStreamUnchanged() async throws {
      try await withPulseBackend { backend, coordinator in
        let observer = try await PulseBackendObserver(backend)
        _ = await PulseBackendHarness.run(Self.music(), on: coordinator)
        let before = try #require(try await observer.stream(of: "music"))
        let uneven = [PulseVolume(rawValue: 50_123), PulseVolume(rawValue: 61_007)]
        try await observer.client.setSinkInputVolume(before.index, to: uneven)

        // When a navigation prompt with duckOthers activates, music is told it is ducked
        let nav = await PulseBackendHarness.run(
          [
            .input(
              .setCategory(
                session: "nav", category: .playback, mode: .voicePrompt, options: .duckOthers)),
            .input(.setActive(session: "nav", active: true, options: [])),
          ], on: coordinator)
        #expect(
          nav.last?.notifications.filter { $0.session == "music" }.map(\.event) == [
            .duck(by: .session("nav"))
          ])
        #expect(await coordinator.status().sessions.first { $0.name == "music" }?.ducked == true)
        // and its silent stream keeps its volumes, during and after
        #expect(try await observer.stream(of: "music")?.channelVolumes == uneven)
        let end = await coordinator.run(
          .input(.setActive(session: "nav", active: false, options: [])))
        #expect(end.notifications.filter { $0.session == "music" }.map(\.event) == [.unduck])
        #expect(try await observer.stream(of: "music")?.channelVolumes == uneven)
        #expect(await backend.problems == [])
      }
    }

    // docs/avaudiosession.md §5.1 A4 (the phone always wins); docs/pulseaudio.md §2 (role-cork)
    @Test(
      "an interrupted session's stream is corked; when the call ends and it plays again it is uncorked"
    )
    func call_playingSession_streamCorkedThenResumed() async throws {
      try await withPulseBackend { backend, coordinator in
        let observer = try await PulseBackendObserver(backend)
        _ = await PulseBackendHarness.run(Self.music(), on: coordinator)
        let begin = await coordinator.run(.simulate(.call(active: true)))
        #expect(
          begin.notifications.map(\.event) == [.interruptionBegan(reason: .default, by: .call)])
        #expect(try await observer.stream(of: "music")?.isCorked == true)
        _ = await coordinator.run(.simulate(.call(active: false)))
        _ = await PulseBackendHarness.run(
          [
            .input(.setActive(session: "music", active: true, options: [])),
            .input(.startIO(session: "music")),
          ], on: coordinator)
        let resumed = try #require(try await observer.stream(of: "music"))
        #expect(!resumed.isCorked && !resumed.isMuted)
        #expect(await backend.problems == [])
      }
    }

    // docs/avaudiosession.md §2 (ambient is silenced by the silent switch); docs/apps.md "Our
    // own streams never leak" (the stream database keyed by media.role)
    @Test(
      "a session the silent switch mutes is told so; its silent stream is not muted on the server")
    func silentSwitch_ambient_sessionMutedStreamUnchanged() async throws {
      try await withPulseBackend { backend, coordinator in
        let observer = try await PulseBackendObserver(backend)
        _ = await PulseBackendHarness.run(Self.music(.ambient), on: coordinator)
        let on = await coordinator.run(.simulate(.silentSwitch(on: true)))
        #expect(on.notifications.map(\.event) == [.mute(reason: .silentSwitch)])
        #expect(await coordinator.status().sessions.first?.muted == true)
        #expect(try await observer.stream(of: "music")?.isMuted == false)
        _ = await coordinator.run(.simulate(.silentSwitch(on: false)))
        #expect(try await observer.stream(of: "music")?.isMuted == false)
        #expect(await backend.problems == [])
      }
    }

    // docs/avaudiosession.md §7.3 (last in wins), §7.7 (headphones unplugged pause the player);
    // docs/apps.md "Our own streams never leak" (pinned streams)
    @Test(
      "a route change reopens the pinned stream on the new sink; unplugged, the server kills it instead of moving it, and it plays again on the speaker"
    )
    func plugUnplug_pinnedStream_reopenedThenKilled() async throws {
      try await withPulseBackend { backend, coordinator in
        let observer = try await PulseBackendObserver(backend)
        _ = await PulseBackendHarness.run(Self.music(), on: coordinator)
        let first = try #require(try await observer.stream(of: "music"))
        _ = await coordinator.run(.simulate(.plug(preset: "headphones")))
        let reopened = try #require(try await observer.stream(of: "music"))
        #expect(reopened.index != first.index)
        #expect(
          try await observer.sinkName(of: reopened)
            == observer.objects(of: "headphones-1").first?.name)
        let recorder = await PulseEventRecorder.recording(observer.client.events)
        try await observer.client.subscribe(to: [.sinkInput])
        let unplug = await coordinator.run(.simulate(.unplug("headphones")))
        #expect(unplug.notifications.last?.event == .pause(reason: .oldDeviceUnavailable))
        // Never moved to the speaker: removed without a change, and no stream of music is left.
        try await recorder.next(.remove, .sinkInput, index: reopened.index)
        let changed = await recorder.events.contains {
          guard case .subscription(let event) = $0 else { return false }
          return event.kind == .change && event.index == reopened.index
        }
        #expect(!changed)
        #expect(try await observer.stream(of: "music") == nil)
        // Played again, it plays on the speaker.
        _ = await coordinator.run(.input(.startIO(session: "music")))
        let again = try #require(try await observer.stream(of: "music"))
        #expect(
          try await observer.sinkName(of: again)
            == observer.objects(of: "builtin-speaker").first?.name && !again.isCorked)
        let problems = await backend.problems
        #expect(problems == [])
      }
    }

    // docs/avaudiosession.md §7.3, §7.7; pulse.json streams.movable
    @Test(
      "with movable streams, a route change moves the stream; the headphone pause corks it on the speaker"
    )
    func plugUnplug_movableStream_followsRouteThenCorks() async throws {
      try await withPulseBackend(movableStreams: true) { backend, coordinator in
        let observer = try await PulseBackendObserver(backend)
        _ = await PulseBackendHarness.run(Self.music(), on: coordinator)
        let first = try #require(try await observer.stream(of: "music"))
        _ = await coordinator.run(.simulate(.plug(preset: "headphones")))
        let moved = try #require(try await observer.stream(of: "music"))
        #expect(moved.index == first.index)
        #expect(
          try await observer.sinkName(of: moved)
            == observer.objects(of: "headphones-1").first?.name)
        let unplug = await coordinator.run(.simulate(.unplug("headphones")))
        #expect(unplug.notifications.last?.event == .pause(reason: .oldDeviceUnavailable))
        let paused = try #require(try await observer.stream(of: "music"))
        #expect(paused.isCorked)
        #expect(
          try await observer.sinkName(of: paused)
            == observer.objects(of: "builtin-speaker").first?.name)
        #expect(await backend.problems == [])
      }
    }
  }
}
