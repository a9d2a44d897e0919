/// Capabilities of a sink or source. The bits are this library's own: libpulse's sink and source
/// flags differ (`PA_SINK_FLAT_VOLUME` is 0x40, `PA_SOURCE_FLAT_VOLUME` 0x80), so both are
/// translated by name. Flags libpulse keeps server-internal (`PA_SINK_DEFERRED_VOLUME`) are not
/// visible to clients. The corresponding C types are `pa_sink_flags_t` and `pa_source_flags_t`.
import AudioSession

public struct PulseDeviceFlags: OptionSet, Sendable, Hashable {
  public let rawValue: UInt32
  public init(rawValue: UInt32) { self.rawValue = rawValue }

  public static let hardwareVolume = PulseDeviceFlags(rawValue: 1 << 0)
  public static let latency = PulseDeviceFlags(rawValue: 1 << 1)
  /// A hardware device (ALSA), not a virtual one.
  public static let hardware = PulseDeviceFlags(rawValue: 1 << 2)
  /// A network device (RAOP/AirPlay, tunnels).
  public static let network = PulseDeviceFlags(rawValue: 1 << 3)
  public static let hardwareMute = PulseDeviceFlags(rawValue: 1 << 4)
  public static let decibelVolume = PulseDeviceFlags(rawValue: 1 << 5)
  public static let flatVolume = PulseDeviceFlags(rawValue: 1 << 6)
  public static let dynamicLatency = PulseDeviceFlags(rawValue: 1 << 7)
  public static let setFormats = PulseDeviceFlags(rawValue: 1 << 8)

  /// Every flag with the name `policies/pulse.json` uses for it.
  public static let named: [(name: String, flag: PulseDeviceFlags)] = [
    ("hardwareVolume", .hardwareVolume), ("latency", .latency), ("hardware", .hardware),
    ("network", .network), ("hardwareMute", .hardwareMute), ("decibelVolume", .decibelVolume),
    ("flatVolume", .flatVolume), ("dynamicLatency", .dynamicLatency),
    ("setFormats", .setFormats),
  ]

  /// The flag with this name, if any.
  public init?(name: String) {
    guard let entry = Self.named.first(where: { $0.name == name }) else { return nil }
    self = entry.flag
  }
}
