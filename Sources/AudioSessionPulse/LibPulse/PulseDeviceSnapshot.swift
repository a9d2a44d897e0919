/// A sink (output) or source (input) as the server described it at one moment, copied out of
/// libpulse so it can outlive the callback, cross threads and be kept after the device is gone
/// (a removed object cannot be introspected any more).
///
/// Built by ``PulseContext`` from `pa_sink_info` / `pa_source_info`, or by hand in tests (ports
/// and availability cannot be produced without hardware). ``PulsePortMapper`` reads only this.
package import AudioSession

package struct PulseDeviceSnapshot: Sendable, Hashable {
  /// `output` for a sink, `input` for a source.
  package var direction: PortDirection
  /// The server's index; indices restart at 0 when the server restarts.
  package var index: UInt32
  /// The sink or source name (`alsa_output.pci-0000_00_1f.3.analog-stereo`, `hp`): stable
  /// across restarts, so it identifies the device.
  package var name: String
  /// The human-readable description (`device.description`).
  package var deviceDescription: String
  /// The module that implements it (`module-null-sink.c`, `module-raop-sink.c`).
  package var driver: String
  package var ownerModule: UInt32?
  package var cardIndex: UInt32?
  /// The card's name (`raop_client.127.0.0.1`, `bluez_card.…`), when the device has a card.
  package var cardName: String?
  package var flags: PulseDeviceFlags
  /// The string-valued properties (`device.form_factor`, `device.bus`, `bluetooth.protocol`…).
  package var properties: [String: String]
  package var ports: [PulsePort]
  package var activePortName: String?
  /// For a monitor source, the index of the sink it monitors.
  package var monitorOfSink: UInt32?
  package var isMuted: Bool
  /// The volume of each channel (`volume`); empty when unknown (a snapshot made by hand).
  package var channelVolumes: [PulseVolume] = []
  /// The device's sample spec (`sample_spec.rate`, `.channels`); 0 when unknown (a snapshot
  /// made by hand).
  package var sampleRate: UInt32 = 0
  package var channelCount: Int = 0
  /// `latency` and `configured_latency`, in microseconds.
  package var latency: UInt64 = 0
  package var configuredLatency: UInt64 = 0

  package init(
    direction: PortDirection, index: UInt32, name: String, deviceDescription: String = "",
    driver: String = "", ownerModule: UInt32? = nil, cardIndex: UInt32? = nil,
    cardName: String? = nil, flags: PulseDeviceFlags = [], properties: [String: String] = [:],
    ports: [PulsePort] = [], activePortName: String? = nil, monitorOfSink: UInt32? = nil,
    isMuted: Bool = false
  ) {
    self.direction = direction
    self.index = index
    self.name = name
    self.deviceDescription = deviceDescription
    self.driver = driver
    self.ownerModule = ownerModule
    self.cardIndex = cardIndex
    self.cardName = cardName
    self.flags = flags
    self.properties = properties
    self.ports = ports
    self.activePortName = activePortName
    self.monitorOfSink = monitorOfSink
    self.isMuted = isMuted
  }

  /// The port in use, if the device has ports (null sinks have none).
  package var activePort: PulsePort? {
    guard let activePortName else { return nil }
    return ports.first { $0.name == activePortName }
  }

  /// Whether this is a monitor source (a copy of a sink's output, never a route).
  package var isMonitor: Bool {
    monitorOfSink != nil || properties["device.class"] == "monitor"
  }

  /// The key that identifies a device across snapshots and restarts: direction and name.
  package var key: PulseDeviceKey { PulseDeviceKey(direction: direction, name: name) }
}

/// Identifies a device across snapshots: sinks and sources have separate name spaces.
package struct PulseDeviceKey: Sendable, Hashable, Comparable, CustomStringConvertible {
  package var direction: PortDirection
  package var name: String

  package init(direction: PortDirection, name: String) {
    self.direction = direction
    self.name = name
  }

  /// `sink hp`, `source bt_hfp_mic`.
  package var description: String { "\(direction == .output ? "sink" : "source") \(name)" }

  /// Sinks first, then by name.
  package static func < (lhs: PulseDeviceKey, rhs: PulseDeviceKey) -> Bool {
    if lhs.direction != rhs.direction { return lhs.direction == .output }
    return lhs.name < rhs.name
  }
}
