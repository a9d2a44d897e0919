/// A card: the hardware (or network/Bluetooth device) behind sinks and sources, with its
/// profiles. The corresponding C type is `pa_card_info`.
package import AudioSession

package struct PulseCard: Sendable, Hashable {
  package var index: UInt32
  /// `alsa_card.pci-…`, `bluez_card.…`, `raop_client.127.0.0.1`.
  package var name: String
  package var driver: String
  package var ownerModule: UInt32?
  package var properties: [String: String]
  package var profiles: [PulseCardProfile]
  package var activeProfileName: String?
  package var ports: [PulseCardPort]

  package init(
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
package struct PulseCardProfile: Sendable, Hashable {
  package var name: String
  package var description: String
  package var sinkCount: UInt32
  package var sourceCount: UInt32
  package var priority: UInt32
  /// False when the server knows the profile cannot work (e.g. the jack is unplugged).
  package var isAvailable: Bool

  package init(
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
package struct PulseCardPort: Sendable, Hashable {
  package var port: PulsePort
  /// The directions the port serves (a headset jack may serve both).
  package var directions: Set<PortDirection>
  package var profileNames: [String]
  package var properties: [String: String]

  package init(
    port: PulsePort, directions: Set<PortDirection>, profileNames: [String],
    properties: [String: String]
  ) {
    self.port = port
    self.directions = directions
    self.profileNames = profileNames
    self.properties = properties
  }
}
