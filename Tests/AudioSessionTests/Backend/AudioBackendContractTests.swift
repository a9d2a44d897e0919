import AudioSessionTestSupport
import Testing

@testable import AudioSession

/// The contract every ``AudioBackend`` meets (Backend/AudioBackend.swift), checked on the simulated
/// backend (docs/contract.md "Device presets"; docs/avaudiosession.md §7 devices).
@Suite struct AudioBackendContractTests {
  static func started() async throws -> (InMemoryAudioBackend, [Device]) {
    let backend = InMemoryAudioBackend()
    let catalog = try TestPolicies.table().devices
    let devices = try await backend.start(catalog: catalog, initialDevices: catalog.defaultDevices)
    return (backend, devices)
  }

  @Test(
    "start returns the built-in devices with their fixed UIDs (docs/contract.md built-in devices)")
  func start_defaultDevices_areBuiltIn() async throws {
    let (_, devices) = try await Self.started()
    #expect(devices.map(\.uid) == ["builtin-speaker", "builtin-receiver", "builtin-mic"])
    #expect(
      devices.flatMap(\.ports).map(\.type) == [.builtInSpeaker, .builtInReceiver, .builtInMic])
  }

  @Test(
    "plug makes a device from its preset with a UID counted per preset (docs/contract.md presets)")
  func plug_preset_connectsDeviceWithCountedUID() async throws {
    let (backend, _) = try await Self.started()
    let first = try await backend.perform(.plug(preset: "headphones"))
    let second = try await backend.perform(.plug(preset: "headphones"))
    guard case .deviceConnected(let a) = first.first, case .deviceConnected(let b) = second.first
    else {
      Issue.record("plug did not connect a device: \(first) \(second)")
      return
    }
    #expect(a.uid == "headphones-1" && b.uid == "headphones-2")
    #expect(a.ports.map(\.type) == [.headphones])
  }

  @Test(
    "A device offering several port types gives each type its own UID; HFP in and out share one, as on iOS (docs/avaudiosession.md §7.1)"
  )
  func plug_bluetoothHeadset_portUIDsPerType() async throws {
    let (backend, _) = try await Self.started()
    let inputs = try await backend.perform(.plug(preset: "bluetoothHeadset"))
    guard case .deviceConnected(let device)? = inputs.first else {
      Issue.record("no device: \(inputs)")
      return
    }
    let uids = Dictionary(grouping: device.ports, by: \.type).mapValues { Set($0.map(\.uid)) }
    #expect(
      uids == [
        .bluetoothA2DP: ["bluetoothHeadset-1:bluetoothA2DP"],
        .bluetoothHFP: ["bluetoothHeadset-1:bluetoothHFP"],
      ])
  }

  @Test(
    "unplug takes a UID or the most recently plugged device of a preset (docs/contract.md simulate unplug)"
  )
  func unplug_byPresetOrUID() async throws {
    let (backend, _) = try await Self.started()
    _ = try await backend.perform(.plug(preset: "headphones"))
    _ = try await backend.perform(.plug(preset: "headphones"))
    #expect(
      try await backend.perform(.unplug("headphones")) == [.deviceDisconnected(uid: "headphones-2")]
    )
    #expect(
      try await backend.perform(.unplug("headphones-1")) == [
        .deviceDisconnected(uid: "headphones-1")
      ])
  }

  @Test(
    "Bad actions throw badParam, list what is valid and change nothing (docs/contract.md bad input)"
  )
  func badActions_throwAndChangeNothing() async throws {
    let (backend, _) = try await Self.started()
    await #expect(throws: SessionError.self) { try await backend.perform(.plug(preset: "walkman")) }
    do {
      _ = try await backend.perform(.plug(preset: "walkman"))
    } catch {
      #expect(error.code == .badParam)
      #expect(
        error.message.hasPrefix(
          "unknown device preset 'walkman'; valid presets are: builtInSpeaker,"))
    }
    do {
      _ = try await backend.perform(.unplug("nothing"))
      Issue.record("unplugging an unknown device succeeded")
    } catch {
      #expect(
        error.message
          == "no connected device has UID or preset 'nothing'; connected: builtin-speaker (builtInSpeaker), builtin-receiver (builtInReceiver), builtin-mic (builtInMic)"
      )
    }
    // Nothing was plugged by the failed calls: the next headphones are number 1.
    #expect(try await backend.perform(.plug(preset: "headphones")).first.map(uid) == "headphones-1")
  }

  @Test(
    "A call cannot begin twice or end when none is in progress (docs/avaudiosession.md §5.1 A4)")
  func call_beginTwice_isRejected() async throws {
    let (backend, _) = try await Self.started()
    await #expect(throws: SessionError.self) { try await backend.perform(.call(active: false)) }
    #expect(try await backend.perform(.call(active: true)) == [.call(active: true)])
    await #expect(throws: SessionError.self) { try await backend.perform(.call(active: true)) }
  }

  @Test("server-restart is lost then reset (docs/avaudiosession.md §6.4)")
  func serverRestart_isLostThenReset() async throws {
    let (backend, _) = try await Self.started()
    #expect(try await backend.perform(.serverRestart) == [.mediaServicesLost, .mediaServicesReset])
  }

  func uid(_ input: EngineInput) -> String? {
    if case .deviceConnected(let device) = input { return device.uid }
    return nil
  }
}
