/// A card: the hardware (or network/Bluetooth device) behind sinks and sources, with its
/// profiles. The corresponding C type is `pa_card_info`.
public import AudioSession

public struct PulseCard: Sendable, Hashable {
  public var index: UInt32
  /// `alsa_card.pci-…`, `bluez_card.…`, `raop_client.127.0.0.1`.
  public var name: String
  public var driver: String
  public var ownerModule: UInt32?
  public var properties: [String: String]
  public var profiles: [PulseCardProfile]
  public var activeProfileName: String?
  public var ports: [PulseCardPort]

  public init(
    index: UInt32, name: String, driver: String = "", ownerModule: UInt32? = nil,
    properties: [String: String] = [:], profiles: [PulseCardProfile] = [],
    activeProfileName: String? = nil, ports: [PulseCardPort] = []
  ) {
    self.index = index
    self.name = name
    self.driver = driver
    self.ownerModule = ownerModule
    self.properties = properties
    self.profiles = profiles
    self.activeProfileName = activeProfileName
    self.ports = ports
  }
}

/// A card profile (`a2dp_sink`, `headset_head_unit`, `output:analog-stereo`). The corresponding
/// C type is `pa_card_profile_info2`.
public struct PulseCardProfile: Sendable, Hashable {
  public var name: String
  public var description: String
  public var sinkCount: UInt32
  public var sourceCount: UInt32
  public var priority: UInt32
  /// False when the server knows the profile cannot work (e.g. the jack is unplugged).
  public var isAvailable: Bool

  public init(
    name: String, description: String, sinkCount: UInt32, sourceCount: UInt32, priority: UInt32,
    isAvailable: Bool
  ) {
    self.name = name
    self.description = description
    self.sinkCount = sinkCount
    self.sourceCount = sourceCount
    self.priority = priority
    self.isAvailable = isAvailable
  }
}

/// A port of a card, whichever profile is active. The corresponding C type is
/// `pa_card_port_info`.
public struct PulseCardPort: Sendable, Hashable {
  public var port: PulsePort
  /// The directions the port serves (a headset jack may serve both).
  public var directions: Set<PortDirection>
  public var profileNames: [String]
  public var properties: [String: String]

  public init(
    port: PulsePort, directions: Set<PortDirection>, profileNames: [String],
    properties: [String: String]
  ) {
    self.port = port
    self.directions = directions
    self.profileNames = profileNames
    self.properties = properties
  }
}
