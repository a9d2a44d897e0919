/// A sink (output) or source (input) as the server described it at one moment, copied out of
/// libpulse so it can outlive the callback, cross threads and be kept after the device is gone
/// (a removed object cannot be introspected any more).
///
/// Built by ``PulseContext`` from `pa_sink_info` / `pa_source_info`, or by hand in tests (ports
/// and availability cannot be produced without hardware). ``PulsePortMapper`` reads only this.
public import AudioSession

public struct PulseDeviceSnapshot: Sendable, Hashable {
  /// `output` for a sink, `input` for a source.
  public var direction: PortDirection
  /// The server's index; indices restart at 0 when the server restarts.
  public var index: UInt32
  /// The sink or source name (`alsa_output.pci-0000_00_1f.3.analog-stereo`, `hp`): stable
  /// across restarts, so it identifies the device.
  public var name: String
  /// The human-readable description (`device.description`).
  public var deviceDescription: String
  /// The module that implements it (`module-null-sink.c`, `module-raop-sink.c`).
  public var driver: String
  public var ownerModule: UInt32?
  public var cardIndex: UInt32?
  /// The card's name (`raop_client.127.0.0.1`, `bluez_card.…`), when the device has a card.
  public var cardName: String?
  public var flags: PulseDeviceFlags
  /// The string-valued properties (`device.form_factor`, `device.bus`, `bluetooth.protocol`…).
  public var properties: [String: String]
  public var ports: [PulsePort]
  public var activePortName: String?
  /// For a monitor source, the index of the sink it monitors.
  public var monitorOfSink: UInt32?
  public var isMuted: Bool
  /// The volume of each channel (`volume`); empty when unknown (a snapshot made by hand).
  public var channelVolumes: [PulseVolume] = []
  /// The device's sample spec (`sample_spec.rate`, `.channels`); 0 when unknown (a snapshot
  /// made by hand).
  public var sampleRate: UInt32 = 0
  public var channelCount: Int = 0
  /// `latency` and `configured_latency`, in microseconds.
  public var latency: UInt64 = 0
  public var configuredLatency: UInt64 = 0

  public init(
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
  public var activePort: PulsePort? {
    guard let activePortName else { return nil }
    return ports.first { $0.name == activePortName }
  }

  /// Whether this is a monitor source (a copy of a sink's output, never a route).
  public var isMonitor: Bool {
    monitorOfSink != nil || properties["device.class"] == "monitor"
  }

  /// The key that identifies a device across snapshots and restarts: direction and name.
  public var key: PulseDeviceKey { PulseDeviceKey(direction: direction, name: name) }
}

/// Identifies a device across snapshots: sinks and sources have separate name spaces.
public struct PulseDeviceKey: Sendable, Hashable, Comparable, CustomStringConvertible {
  public var direction: PortDirection
  public var name: String

  public init(direction: PortDirection, name: String) {
    self.direction = direction
    self.name = name
  }

  /// `sink hp`, `source bt_hfp_mic`.
  public var description: String { "\(direction == .output ? "sink" : "source") \(name)" }

  /// Sinks first, then by name.
  public static func < (lhs: PulseDeviceKey, rhs: PulseDeviceKey) -> Bool {
    if lhs.direction != rhs.direction { return lhs.direction == .output }
    return lhs.name < rhs.name
  }
}
