import AudioSession
import AudioSessionPulse
import AudioSessionPulseTestSupport
import AudioSessionSystem
import AudioSessionTestSupport
import Testing

extension PulseAudioTests {
  /// The device presets of policies/devices.json, given their `pulseProperties`, map back to
  /// their own port types through policies/pulse.json: the contract between the simulated
  /// devices the backend will create and the mapper (docs/pulseaudio.md §1.2: "use exactly these
  /// keys … so the same mapper serves real and fake devices").
  @Suite struct PulsePresetMappingTests {
    /// The properties one port of a preset is created with. A device offering several Bluetooth
    /// profiles gets `bluetooth.protocol` per port (policies/README.md, devices.json).
    static func properties(_ preset: DevicePreset, _ port: PresetPort) -> [String: String] {
      var properties = preset.pulseProperties
      if properties["device.bus"] == "bluetooth", properties["bluetooth.protocol"] == nil,
        properties["api.bluez5.profile"] == nil
      {
        properties["bluetooth.protocol"] =
          port.type == .bluetoothHFP ? "headset_head_unit" : "a2dp_sink"
      }
      return properties
    }

    // docs/pulseaudio.md §1.2, §4
    @Test("every preset port, as a synthetic sink or source, maps to the preset's port type")
    func map_everyPresetPort_givesItsPortType() throws {
      let devices = try TestPolicies.table().devices
      let rules = try PulseTestPolicies.rules()
      for name in devices.presetOrder {
        let preset = try #require(devices.presets[name])
        for port in preset.ports {
          let device = PulseDeviceSnapshot(
            direction: port.direction, index: 0, name: name,
            deviceDescription: preset.displayName, properties: Self.properties(preset, port))
          #expect(
            PulsePortMapper.portType(for: device, rules: rules) == port.type,
            "\(name) \(port.direction.rawValue)")
        }
      }
    }

    // docs/pulseaudio.md §1.2 (null sinks and sine sources with these properties), §4
    @Test("every preset port, loaded into a private server, maps to the preset's port type")
    func loadEveryPresetPort_privateServer_mapsToItsPortType() async throws {
      let devices = try TestPolicies.table().devices
      let rules = try PulseTestPolicies.rules()
      try await withPulseServer { _, client, _ in
        // Given every port of every preset as a device on the server
        var expected: [String: PortType] = [:]
        for name in devices.presetOrder {
          let preset = try #require(devices.presets[name])
          for (position, port) in preset.ports.enumerated() {
            let deviceName = "\(name)_\(position)"
            expected[deviceName] = port.type
            let properties = Self.properties(preset, port)
            if port.direction == .output {
              _ = try await client.loadModule(
                "module-null-sink",
                arguments: try PulseModuleArguments.make(
                  ["sink_name": deviceName], propertyLists: ["sink_properties": properties]))
            } else {
              _ = try await client.loadModule(
                "module-sine-source",
                arguments: try PulseModuleArguments.make(
                  ["source_name": deviceName], propertyLists: ["source_properties": properties]))
            }
          }
        }

        // When the server lists them, Then each maps to its preset port's type
        let listed = try await client.devices().filter { expected[$0.name] != nil }
        #expect(listed.count == expected.count)
        for device in listed {
          #expect(
            PulsePortMapper.portType(for: device, rules: rules) == expected[device.name],
            "\(device.name)")
        }
      }
    }
  }
}
