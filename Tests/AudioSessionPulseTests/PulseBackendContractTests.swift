import AudioSession
import AudioSessionPulse
import AudioSessionPulseTestSupport
import AudioSessionSystem
import AudioSessionTestSupport
import Testing

extension PulseAudioTests {
  /// The `AudioBackend` contract (Backend/AudioBackend.swift, `AudioBackendContractTests`) met by
  /// the PulseAudio backend on a private server: same devices, UIDs, inputs and error messages as
  /// the simulated backend (docs/contract.md "Device presets", "Bad input").
  @Suite struct PulseBackendContractTests {
    static func started() async throws -> (PulseAudioBackend, [Device]) {
      let backend = PulseAudioBackend(
        configuration: try PulseBackendHarness.configuration(.spawn(.pulseaudio), .simulated))
      let catalog = try TestPolicies.table().devices
      let devices = try await backend.start(
        catalog: catalog, initialDevices: catalog.defaultDevices)
      return (backend, devices)
    }

    static func simulated() async throws -> InMemoryAudioBackend {
      let backend = InMemoryAudioBackend()
      let catalog = try TestPolicies.table().devices
      _ = try await backend.start(catalog: catalog, initialDevices: catalog.defaultDevices)
      return backend
    }

    // docs/contract.md built-in devices
    @Test("start returns the built-in devices with their fixed UIDs, as simulated")
    func start_defaultDevices_sameAsSimulated() async throws {
      let (backend, devices) = try await Self.started()
      let catalog = try TestPolicies.table().devices
      #expect(
        devices
          == (try await InMemoryAudioBackend().start(
            catalog: catalog, initialDevices: catalog.defaultDevices)))
      await backend.stop()
    }

    // docs/contract.md presets; docs/avaudiosession.md §7.1 (HFP in and out share a UID)
    @Test("plugs and unplugs give the simulated backend's inputs, UIDs counted per preset")
    func plugUnplug_presets_sameInputsAsSimulated() async throws {
      let (backend, _) = try await Self.started()
      let simulated = try await Self.simulated()
      let actions: [SimulationAction] = [
        .plug(preset: "headphones"), .plug(preset: "headphones"), .plug(preset: "bluetoothHeadset"),
        .plug(preset: "usbAudio"), .unplug("headphones"), .unplug("headphones-1"),
        .unplug("bluetoothHeadset-1"), .micMute(on: true), .micMute(on: false),
      ]
      for action in actions {
        let got = try await backend.perform(action)
        #expect(got == (try await simulated.perform(action)), "\(action)")
      }
      await backend.stop()
    }

    // docs/contract.md "Bad input": a clear error that lists what is valid, and nothing changes
    @Test("bad actions throw the simulated backend's errors and change nothing")
    func badActions_sameErrorsAsSimulated() async throws {
      let (backend, _) = try await Self.started()
      let simulated = try await Self.simulated()
      for action: SimulationAction in [
        .plug(preset: "walkman"), .unplug("nothing"), .call(active: false),
        .plug(preset: "builtInSpeaker"),
      ] {
        var got: SessionError?
        var want: SessionError?
        do { _ = try await backend.perform(action) } catch { got = error }
        do { _ = try await simulated.perform(action) } catch { want = error }
        #expect(got != nil && got == want, "\(action)")
      }
      #expect(try await backend.perform(.plug(preset: "headphones")).count == 1)
      #expect(
        try await backend.perform(.unplug("headphones-1")) == [
          .deviceDisconnected(uid: "headphones-1")
        ])
      #expect(try await backend.perform(.call(active: true)) == [.call(active: true)])
      await #expect(throws: SessionError.self) { try await backend.perform(.call(active: true)) }
      await backend.stop()
    }
  }
}
