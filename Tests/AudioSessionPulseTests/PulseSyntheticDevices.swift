import AudioSession
import AudioSessionPulse
import AudioSessionSystem

/// Synthetic devices: one port (active) when `port` is given, no ports otherwise.
extension PulseDeviceSnapshot {
  static func sink(
    _ properties: [String: String] = [:], port: PulsePortType? = nil, portName: String = "port",
    driver: String = "module-null-sink.c", card: String? = nil, flags: PulseDeviceFlags = []
  ) -> PulseDeviceSnapshot {
    device(.output, properties, port, portName, driver, card, flags)
  }

  static func source(
    _ properties: [String: String] = [:], port: PulsePortType? = nil, portName: String = "port",
    monitorOf sink: UInt32? = nil
  ) -> PulseDeviceSnapshot {
    var made = device(.input, properties, port, portName, "module-null-source.c", nil, [])
    made.monitorOfSink = sink
    return made
  }

  private static func device(
    _ direction: PortDirection, _ properties: [String: String], _ port: PulsePortType?,
    _ portName: String, _ driver: String, _ card: String?, _ flags: PulseDeviceFlags
  ) -> PulseDeviceSnapshot {
    PulseDeviceSnapshot(
      direction: direction, index: 1, name: "device", deviceDescription: "Device",
      driver: driver, cardName: card, flags: flags, properties: properties,
      ports: port.map { [PulsePort(name: portName, type: $0)] } ?? [],
      activePortName: port == nil ? nil : portName)
  }
}
