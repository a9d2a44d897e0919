import AudioSession
import AudioSessionPulse
import AudioSessionPulseTestSupport
import AudioSessionSystem
import Testing

extension PulseAudioTests {
  /// The PulseAudio backend against a private server it starts: the same engine inputs as the
  /// simulated backend for the same actions (docs/contract.md: same transcript), and real streams.
  @Suite struct PulseAudioBackendTests {
    // docs/contract.md "Scenario files" (--backend pulse gives the simulated transcript)
    @Test("start creates the built-in devices: the same devices as the simulated backend")
    func start_defaultDevices_matchSimulated() async throws {
      try await withPulseBackend { backend, coordinator in
        let expected = try await PulseBackendHarness.simulated([.devices])
        let results = await PulseBackendHarness.run([.devices], on: coordinator)
        #expect(results == expected)
        #expect(await backend.problems.isEmpty)
      }
    }
  }
}

extension PulseAudioTests.PulseAudioBackendTests {
  static let music: [Command] = [
    .input(.setCategory(session: "music", category: .playback, mode: nil, options: [])),
    .input(.setActive(session: "music", active: true, options: [])),
    .input(.startIO(session: "music")),
  ]

  /// A result with every session's hardware values blanked: a server reports its real sink's
  /// and source's (docs/pulseaudio-layer.md "Hardware values"), the simulated backend its own.
  static func hardwareMasked(_ result: CommandResult) -> CommandResult {
    guard case .status(var status)? = result.reply else { return result }
    for index in status.sessions.indices {
      status.sessions[index].hardware = HardwareValues(
        sampleRate: 0, ioBufferDuration: 0, inputNumberOfChannels: 0, outputNumberOfChannels: 0)
    }
    var masked = result
    masked.reply = .status(status)
    // The media server: the simulated backend has none.
    masked.server = nil
    return masked
  }

  @Test("plug, unplug, call, server restart: same results as the simulated backend")
  func stories_privateServer_matchSimulated() async throws {
    let stories: [[Command]] = [
      Self.music + [
        .simulate(.plug(preset: "headphones")), .route(session: "music"),
        .simulate(.unplug("headphones")), .status,
      ],
      Self.music + [
        .simulate(.call(active: true)), .status, .simulate(.call(active: false)),
        .input(.setActive(session: "music", active: true, options: [])),
        .input(.startIO(session: "music")), .status,
      ],
      Self.music + [.simulate(.serverRestart), .status] + Self.music + [.status],
      [
        .input(
          .setCategory(session: "voip", category: .playAndRecord, mode: .voiceChat, options: [])),
        .input(.setActive(session: "voip", active: true, options: [])),
        .input(.startIO(session: "voip")), .route(session: "voip"),
        .simulate(.plug(preset: "bluetoothHFP")), .route(session: "voip"),
        .simulate(.unplug("bluetoothHFP")), .route(session: "voip"),
      ],
    ]
    for story in stories {
      let expected = try await PulseBackendHarness.simulated(story)
      try await withPulseBackend { backend, coordinator in
        let results = await PulseBackendHarness.run(story, on: coordinator)
        for (index, (got, want)) in zip(results, expected).enumerated() {
          #expect(
            Self.hardwareMasked(got) == Self.hardwareMasked(want),
            "step \(index + 1): \(story[index])")
        }
        #expect(await backend.problems == [])
      }
    }
  }
}
