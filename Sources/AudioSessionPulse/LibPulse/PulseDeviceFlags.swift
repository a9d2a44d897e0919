/// Capabilities of a sink or source. The bits are this library's own: libpulse's sink and source
/// flags differ (`PA_SINK_FLAT_VOLUME` is 0x40, `PA_SOURCE_FLAT_VOLUME` 0x80), so both are
/// translated by name. Flags libpulse keeps server-internal (`PA_SINK_DEFERRED_VOLUME`) are not
/// visible to clients. The corresponding C types are `pa_sink_flags_t` and `pa_source_flags_t`.
import AudioSession

package struct PulseDeviceFlags: OptionSet, Sendable, Hashable {
  package let rawValue: UInt32
  package init(rawValue: UInt32) { self.rawValue = rawValue }

  package static let hardwareVolume = PulseDeviceFlags(rawValue: 1 << 0)
  package static let latency = PulseDeviceFlags(rawValue: 1 << 1)
  /// A hardware device (ALSA), not a virtual one.
  package static let hardware = PulseDeviceFlags(rawValue: 1 << 2)
  /// A network device (RAOP/AirPlay, tunnels).
  package static let network = PulseDeviceFlags(rawValue: 1 << 3)
  package static let hardwareMute = PulseDeviceFlags(rawValue: 1 << 4)
  package static let decibelVolume = PulseDeviceFlags(rawValue: 1 << 5)
  package static let flatVolume = PulseDeviceFlags(rawValue: 1 << 6)
  package static let dynamicLatency = PulseDeviceFlags(rawValue: 1 << 7)
  package static let setFormats = PulseDeviceFlags(rawValue: 1 << 8)

  /// Every flag with the name `policies/pulse.json` uses for it.
  package static let named: [(name: String, flag: PulseDeviceFlags)] = [
    ("hardwareVolume", .hardwareVolume), ("latency", .latency), ("hardware", .hardware),
    ("network", .network), ("hardwareMute", .hardwareMute), ("decibelVolume", .decibelVolume),
    ("flatVolume", .flatVolume), ("dynamicLatency", .dynamicLatency),
    ("setFormats", .setFormats),
  ]

  /// The flag with this name, if any.
  package init?(name: String) {
    guard let entry = Self.named.first(where: { $0.name == name }) else { return nil }
    self = entry.flag
  }
}
