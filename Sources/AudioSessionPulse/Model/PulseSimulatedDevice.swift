/// A device the backend simulates on a server (`simulate plug`, the built-in devices of a
/// scenario): one null sink per output port and one source per input port of its preset, each
/// carrying the preset's `pulseProperties` plus the keys that let the backend find them again.
///
/// Pure: it only says what to load. Keys (``Key``): `audiosession.device` (the UID; parts with
/// the same value make one device), `audiosession.owner` (the backend instance that made it, so
/// two backends on one server keep apart), `audiosession.preset`, `audiosession.part` (the
/// port's position in the preset) and `audiosession.parts` (how many parts the device has: it
/// counts as present only when all are).
package import AudioSession

package struct PulseSimulatedDevice: Sendable, Hashable {
  package var preset: DevicePreset
  package var uid: String
  package var owner: String

  /// The property keys this project sets on the devices it makes.
  package enum Key {
    package static let device = "audiosession.device"
    package static let owner = "audiosession.owner"
    package static let preset = "audiosession.preset"
    package static let part = "audiosession.part"
    package static let parts = "audiosession.parts"
    /// On the stream that repairs the server's memory of a gone stream (never a call).
    package static let repair = "audiosession.repair"
  }

  package init(preset: DevicePreset, uid: String, owner: String) {
    self.preset = preset
    self.uid = uid
    self.owner = owner
  }

  /// One sink or source to load.
  package struct Part: Sendable, Hashable {
    package var direction: PortDirection
    /// The sink or source name (unique per owner and UID).
    package var objectName: String
    package var module: String
    package var arguments: String
  }

  /// What a server flavour can load: pulseaudio has `module-sine-source` (a source that takes
  /// `source_properties`, unlike `module-null-source`); pipewire-pulse has no sine source but
  /// makes a source from `module-null-sink` with `media.class=Audio/Source/Virtual`.
  package enum Flavor: Sendable, Hashable {
    case pulseaudio
    case pipewire
  }

  /// The modules to load, in the preset's port order.
  package func parts(for flavor: Flavor) throws(PulseServerError) -> [Part] {
    var parts: [Part] = []
    for (position, port) in preset.ports.enumerated() {
      let name = "audiosession-\(owner)-\(uid)-\(position)"
      let properties = properties(for: port, at: position)
      switch (port.direction, flavor) {
      case (.output, _):
        parts.append(
          Part(
            direction: .output, objectName: name, module: "module-null-sink",
            arguments: try PulseModuleArguments.make(
              ["sink_name": name], propertyLists: ["sink_properties": properties])))
      case (.input, .pulseaudio):
        parts.append(
          Part(
            direction: .input, objectName: name, module: "module-sine-source",
            arguments: try PulseModuleArguments.make(
              ["source_name": name, "rate": "8000"],
              propertyLists: ["source_properties": properties])))
      case (.input, .pipewire):
        var source = properties
        source["media.class"] = "Audio/Source/Virtual"
        parts.append(
          Part(
            direction: .input, objectName: name, module: "module-null-sink",
            arguments: try PulseModuleArguments.make(
              ["sink_name": name], propertyLists: ["sink_properties": source])))
      }
    }
    return parts
  }

  /// The preset's properties, the Bluetooth profile of this port when the preset leaves it open
  /// (policies/README.md: A2DP for `bluetoothA2DP`, HFP for `bluetoothHFP`), and our keys.
  package func properties(for port: PresetPort, at position: Int) -> [String: String] {
    var properties = preset.pulseProperties
    if properties["device.bus"] == "bluetooth", properties["bluetooth.protocol"] == nil,
      properties["api.bluez5.profile"] == nil
    {
      properties["bluetooth.protocol"] =
        port.type == .bluetoothHFP ? "headset_head_unit" : "a2dp_sink"
    }
    properties[Key.device] = uid
    properties[Key.owner] = owner
    properties[Key.preset] = preset.name
    properties[Key.part] = String(position)
    properties[Key.parts] = String(preset.ports.count)
    return properties
  }
}
