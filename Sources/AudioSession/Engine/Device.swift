/// A port a connected device offers.
public struct DevicePort: Sendable, Hashable {
  public var type: PortType
  public var direction: PortDirection
  public var name: String
  /// The device UID, or `<device uid>:<port type>` when the device offers more than one port; the
  /// input and output of one type (HFP) share it, as on iOS. Unique per type and direction.
  public var uid: String

  public init(type: PortType, direction: PortDirection, name: String, uid: String) {
    self.type = type
    self.direction = direction
    self.name = name
    self.uid = uid
  }

  public var description: PortDescription {
    PortDescription(portType: type, portName: name, uid: uid)
  }
}

/// A device the system knows: built-in, plugged, paired, or found on a PulseAudio server.
public struct Device: Sendable, Hashable {
  public var uid: String
  public var name: String
  /// The preset it was made from, if any (`headphones`).
  public var preset: String?
  public var ports: [DevicePort]

  public init(uid: String, name: String, preset: String? = nil, ports: [DevicePort]) {
    self.uid = uid
    self.name = name
    self.preset = preset
    self.ports = ports
  }

  /// Makes a device from a preset, giving each port a UID derived from the device's.
  public init(preset: DevicePreset, uid: String) {
    let single = preset.ports.count == 1
    self.init(
      uid: uid, name: preset.displayName, preset: preset.name,
      ports: preset.ports.map {
        DevicePort(
          type: $0.type, direction: $0.direction, name: $0.name,
          uid: single ? uid : "\(uid):\($0.type.name)")
      })
  }
}
