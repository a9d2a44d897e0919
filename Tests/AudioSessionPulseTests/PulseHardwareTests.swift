import AudioSession
import AudioSessionArbiter
import AudioSessionPulse
import AudioSessionPulseTestSupport
import Testing

extension PulseAudioTests {
  /// Hardware values on a real server (docs/pulseaudio-layer.md "Hardware values";
  /// docs/avaudiosession.md §8, §13.5 item 4).
  @Suite struct PulseHardwareTests {
    @Test(
      "status reports the route's real sink (rate, channels, latency), and a preferred buffer duration becomes the session's stream buffer (docs/avaudiosession.md §13.5)"
    )
    func hardware_realSinkAndStreamBuffer() async throws {
      try await withPulseBackend { backend, coordinator in
        let observer = try await PulseBackendObserver(backend)
        _ = await PulseBackendHarness.run(
          [
            .input(
              .setCategory(session: "voip", category: .playAndRecord, mode: .voiceChat, options: [])
            ),
            .input(.setPreference(session: "voip", .ioBufferDuration(0.01))),
            .input(.setPreference(session: "voip", .sampleRate(16000))),
            .input(.setActive(session: "voip", active: true, options: [])),
            .input(.startIO(session: "voip")),
            .input(
              .setCategory(
                session: "music", category: .playback, mode: nil, options: [.mixWithOthers])),
            .input(.setActive(session: "music", active: true, options: [])),
            .input(.startIO(session: "music")),
          ], on: coordinator)
        let status = await coordinator.status()
        let voip = try #require(status.sessions.first { $0.name == "voip" })
        let music = try #require(status.sessions.first { $0.name == "music" })
        // The real sink and source, not the simulated 48 kHz hardware.
        let sinks = try await observer.objects(of: "builtin-receiver")
        let sink = try #require(sinks.first { $0.direction == .output })
        #expect(sink.sampleRate > 0)
        #expect(voip.hardware.sampleRate == Double(sink.sampleRate))
        #expect(voip.hardware.outputNumberOfChannels == sink.channelCount)
        #expect(voip.hardware.outputLatency != nil && voip.hardware.inputLatency != nil)
        #expect(voip.hardware.inputNumberOfChannels >= 1)
        // The granted buffer duration, which the streams were opened with; music has the default.
        #expect(voip.hardware.ioBufferDuration == 0.01)
        #expect(music.hardware.ioBufferDuration == 0.05)
        // What a stream's buffer holds is read at one moment: the server fills a new stream's
        // buffer a moment after it starts, and on a loaded machine a buffer runs nearly dry now
        // and then (music showed 22 µs once). The fullest of 25 readings, 20 ms apart, after
        // both hold something, is the buffer the stream was given. (At most 30 s: with both
        // cores taken, the voip stream's 10 ms buffer read empty for 5 s on end.)
        var fullest: (voip: UInt64, music: UInt64) = (0, 0)
        var readings = 0
        let deadline = ContinuousClock.now + .seconds(30)
        while readings < 25, ContinuousClock.now < deadline {
          let voipStream = try #require(try await observer.stream(of: "voip"))
          let musicStream = try #require(try await observer.stream(of: "music"))
          fullest.voip = max(fullest.voip, UInt64(voipStream.bufferLatency))
          fullest.music = max(fullest.music, UInt64(musicStream.bufferLatency))
          if fullest.voip > 0, fullest.music > 0 { readings += 1 }
          try await Task.sleep(for: .milliseconds(20))
        }
        #expect(fullest.voip > 0)
        #expect(
          fullest.voip < fullest.music, "voip \(fullest.voip) µs, music \(fullest.music) µs")
        #expect(fullest.voip <= 20_000)
        #expect(await backend.problems == [])
      }
    }
  }
}
