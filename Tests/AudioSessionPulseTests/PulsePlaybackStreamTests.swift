import AudioSession
import AudioSessionPulse
import AudioSessionPulseTestSupport
import AudioSessionSystem
import Testing

extension PulseAudioTests {
  /// Playback streams against a real private server: roles, corks and the role-cork protocol.
  @Suite struct PulsePlaybackStreamTests {
    // docs/pulseaudio.md §1.3 (new playback stream), §2 (media.role)
    @Test("a phone-role stream appears as a sink input with media.role=phone")
    func connect_phoneRole_appearsAsSinkInputWithRole() async throws {
      try await withPulseServer { _, client, recorder in
        // Given a stream tagged media.role=phone
        let phone = try PulsePlaybackStream(
          context: client, name: "call", properties: ["media.role": "phone"])
        defer { phone.disconnect() }

        // When it connects
        try await phone.connect()

        // Then the server announces a new sink input with our index and role, playing
        let index = try #require(phone.index)
        try await recorder.next(.new, .sinkInput, index: index)
        let inputs = try await client.sinkInputs()
        let input = try #require(inputs.first { $0.index == index })
        #expect(input.role == "phone")
        #expect(input.name == "call")
        #expect(!input.isCorked && !input.isMuted)
        let speaker = try #require(try await client.sinks().first { $0.name == "speaker" })
        #expect(input.sinkIndex == speaker.index)

        // When it disconnects, Then the sink input is removed
        phone.disconnect()
        try await recorder.next(.remove, .sinkInput, index: index)
        #expect(phone.state == .terminated)
      }
    }

    // docs/pulseaudio.md §2
    @Test("corking a stream shows as corked in introspection, uncorking resumes it")
    func setCorked_ownStream_isReflectedInIntrospection() async throws {
      try await withPulseServer { _, client, _ in
        // Given a playing music stream
        let music = try PulsePlaybackStream(
          context: client, name: "music", properties: ["media.role": "music"])
        defer { music.disconnect() }
        try await music.connect()
        let index = try #require(music.index)

        // When it corks, Then the server sees it corked
        try await music.setCorked(true)
        #expect(music.isCorked)
        #expect(try await client.sinkInput(at: index)?.isCorked == true)

        // When it uncorks, Then it plays again
        try await music.setCorked(false)
        #expect(!music.isCorked)
        #expect(try await client.sinkInput(at: index)?.isCorked == false)
      }
    }

    // docs/pulseaudio.md §2 (observed order at the music client; request-uncork only if corked)
    @Test("role-cork: music gets request-cork when a phone stream starts, request-uncork after")
    func roleCork_phoneStreamStartsAndEnds_musicGetsCorkThenUncork() async throws {
      try await withPulseServer { _, client, recorder in
        // Given module-role-cork and a playing music stream of ours
        _ = try await client.loadModule(
          "module-role-cork", arguments: "trigger_roles=phone cork_roles=music,video")
        let music = try PulsePlaybackStream(
          context: client, name: "music", properties: ["media.role": "music"])
        defer { music.disconnect() }
        let musicEvents = await PulseEventRecorder.recording(music.events)
        try await music.connect()
        let musicIndex = try #require(music.index)

        // When a phone stream starts
        let phone = try PulsePlaybackStream(
          context: client, name: "call", properties: ["media.role": "phone"])
        defer { phone.disconnect() }
        try await phone.connect()

        // Then music is asked to cork, and the server has muted it
        try await musicEvents.next("request-cork") { $0 == .requestCork }
        #expect(try await client.sinkInput(at: musicIndex)?.isMuted == true)

        // When music honours the request
        try await music.setCorked(true)
        let corked = try #require(try await client.sinkInput(at: musicIndex))
        #expect(corked.isCorked && corked.isMuted)

        // and the phone stream ends
        let phoneIndex = try #require(phone.index)
        phone.disconnect()

        // Then music may resume: request-uncork, and the server unmutes it
        try await musicEvents.next("request-uncork") { $0 == .requestUncork }
        try await recorder.next(.remove, .sinkInput, index: phoneIndex)
        #expect(try await client.sinkInput(at: musicIndex)?.isMuted == false)
      }
    }
  }
}
