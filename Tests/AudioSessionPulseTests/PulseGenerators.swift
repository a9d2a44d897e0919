import AudioSession
import AudioSessionPulse
import AudioSessionSystem
import PropertyBased

/// Generators of synthetic PulseAudio device snapshots: the values real servers report, plus
/// odd ones (empty, non-ASCII, glob characters), so mapping and diffing are checked beyond what
/// a private server without hardware can produce.
extension Gen where Value == PulseDeviceSnapshot {
  static let propertyKeys = [
    "device.form_factor", "device.bus", "bluetooth.protocol", "api.bluez5.profile",
    "device.class", "audiosession.internal", "raop.ip", "device.description", "x.odd",
  ]
  static let propertyValues = [
    "headphone", "headset", "handset", "internal", "speaker", "car", "microphone", "webcam",
    "bluetooth", "usb", "pci", "", "monitor", "sound", "abstract", "headset_head_unit",
    "a2dp_sink", "bap_sink", "headset-head-unit", "1", "true", "ünïcode ✓", "*", "?",
  ]
  static let portNames = [
    "analog-output-speaker", "analog-output-headphones", "analog-input-microphone-internal",
    "analog-input-microphone-headset", "hdmi-output-0", "network-output", "", "*",
  ]
  static let deviceNames = ["speaker", "hp", "bt_hfp", "bt_hfp_mic", "usb1", "hdmi", "raop"]

  /// A device with any direction, name, properties, ports, active port, flags and card.
  static var snapshot: Generator<PulseDeviceSnapshot, some SendableSequenceType> {
    let property = zip(
      Gen<String?>.element(of: propertyKeys).compactMap { $0 },
      Gen<String?>.element(of: propertyValues).compactMap { $0 })
    let port = zip(
      Gen<String?>.element(of: portNames).compactMap { $0 }, Gen<PulsePortType>.case,
      Gen<PulsePortAvailability>.case
    ).map { PulsePort(name: $0, type: $1, availability: $2) }
    return zip(
      Gen<PortDirection>.case,
      Gen<String?>.element(of: deviceNames).compactMap { $0 },
      property.dictionary(ofAtMost: 0...6),
      port.array(of: 0...3),
      Gen<String?>.element(of: portNames + ["missing-port"]),
      Gen<Bool>.bool(0.2),
      Gen<PulseDeviceFlags>.optionSet(of: [.hardware, .network, .hardwareVolume]),
      Gen<String?>.element(of: ["raop_client.127.0.0.1", "alsa_card.pci-0", "bluez_card.00"])
    ).map { direction, name, properties, ports, activePort, monitor, flags, card in
      PulseDeviceSnapshot(
        direction: direction, index: 0, name: name, driver: "module-null-sink.c",
        cardName: card, flags: flags, properties: properties, ports: ports,
        activePortName: activePort, monitorOfSink: monitor && direction == .input ? 0 : nil)
    }
  }
}
