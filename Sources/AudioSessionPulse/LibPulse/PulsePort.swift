/// A port of a sink or source (a jack, a speaker, a Bluetooth profile's endpoint), copied out of
/// libpulse. The corresponding C type is `pa_sink_port_info` / `pa_source_port_info`.
import AudioSession

package struct PulsePort: Sendable, Hashable {
  package var name: String
  package var description: String
  package var priority: UInt32
  package var type: PulsePortType
  package var availability: PulsePortAvailability
  /// Ports sharing one jack share a group; nil when the port is in none.
  package var availabilityGroup: String?

  package init(
    name: String, description: String = "", priority: UInt32 = 0, type: PulsePortType = .unknown,
    availability: PulsePortAvailability = .unknown, availabilityGroup: String? = nil
  ) {
    self.name = name
    self.description = description
    self.priority = priority
    self.type = type
    self.availability = availability
    self.availabilityGroup = availabilityGroup
  }
}

/// Whether something is plugged into a port (jack detection). Only ALSA and bluez5 ever change
/// it. The corresponding C type is `pa_port_available_t`.
package enum PulsePortAvailability: String, Sendable, Hashable, CaseIterable {
  /// The server cannot tell (null sinks, network sinks, ports without jack detection).
  case unknown
  /// Unplugged.
  case no
  /// Plugged.
  case yes
}

/// What a port is, as PulseAudio ≥ 14 reports it. Names (the raw values) are what
/// `policies/pulse.json` uses. The corresponding C type is `pa_device_port_type_t`.
package enum PulsePortType: String, Sendable, Hashable, CaseIterable, NamedCase {
  case unknown, aux, speaker, headphones, line, mic, headset, handset, earpiece, spdif, hdmi, tv
  case radio, video, usb, bluetooth, portable, handsfree, car, hifi, phone, network, analog

  package var name: String { rawValue }

  package init?(name: String) { self.init(rawValue: name) }
}
