import AudioSession
import Testing

extension PulseAudioTests {
  /// The backend on pipewire-pulse, which has no module-role-cork and sends no stream events:
  /// the backend applies interruptions itself by corking its own streams (issue 3 item 8;
  /// pulseaudio.md §2.1). Each test starts a private D-Bus bus, pipewire, wireplumber and
  /// pipewire-pulse; one at a time.
  @Suite(.serialized) struct PipeWireBackendTests {
    static let music: [Command] = [
      .set(session: "music", category: .playback, mode: nil, options: []),
      .activate(session: "music"), .play(session: "music"),
    ]

    // pulseaudio.md §2.1 (no role modules, no stream events); avaudiosession.md §5.1 A4
    @Test("another application's phone stream interrupts music, whose stream the backend corks")
    func foreignPhoneStream_pipewire_backendCorksItself() async throws {
      try await withPulseBackend(.pipewire) { backend, coordinator in
        #expect(await backend.connectedServerName?.contains("PipeWire") == true)
        _ = try await PulseBackendHarness.foreignCallInterruptsMusic(backend, coordinator)
        #expect(await backend.problems == [])
      }
    }

    // pulseaudio.md §2.1 (restarting pipewire-pulse: FAILED, modules gone), §5
    @Test("pipewire-pulse killed and started again: lost, then reset with the devices re-created")
    func killAndRestart_pipewire_lostThenReset() async throws {
      try await withPulseBackend(.pipewire) { backend, coordinator in
        let server = try #require(await backend.privateServer)
        let devices = await coordinator.status().devices
        let observed = await coordinator.recordObserved()
        server.kill()
        try await observed.next("lost") { $0 == .mediaServicesLost }
        try server.restart()
        try await observed.next("reset") { $0 == .mediaServicesReset }
        #expect(await coordinator.status().devices == devices)
        let again = await PulseBackendHarness.run(Self.music, on: coordinator)
        #expect(again.allSatisfy { $0.error == nil })
        let observer = try await PulseBackendObserver(backend)
        #expect(try await observer.stream(of: "music") != nil)
      }
    }
  }
}
