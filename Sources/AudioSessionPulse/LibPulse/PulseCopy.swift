import AudioSession
import CPulse

/// Copies libpulse's callback data into Swift values.
///
/// `introspect.h`: the info structures passed to callbacks, their `proplist`, `ports[]`,
/// `active_port` and every `const char*` are owned by libpulse and valid only during the call, so
/// every initializer here copies at once and keeps no pointer.
enum PulseCopy {
  static func string(_ pointer: UnsafePointer<CChar>?) -> String? {
    pointer.map { String(cString: $0) }
  }

  /// nil for `PA_INVALID_INDEX`.
  static func index(_ value: UInt32) -> UInt32? {
    value == cpulse_invalid_index ? nil : value
  }

  /// The string-valued entries of a property list. `pa_proplist_gets` returns NULL for a value
  /// that "is not valid UTF-8" (binary entries), which is skipped; its result lives in "an
  /// internally allocated buffer", so it is copied at once.
  static func properties(_ proplist: OpaquePointer?) -> [String: String] {
    guard let proplist else { return [:] }
    var result: [String: String] = [:]
    var state: UnsafeMutableRawPointer?
    while let key = pa_proplist_iterate(proplist, &state) {
      if let value = pa_proplist_gets(proplist, key) {
        result[String(cString: key)] = String(cString: value)
      }
    }
    return result
  }

  /// `pa_port_available_t`: 0 unknown, 1 no, 2 yes.
  static func availability(_ value: Int32) -> PulsePortAvailability {
    switch UInt32(bitPattern: value) {
    case PA_PORT_AVAILABLE_NO.rawValue: .no
    case PA_PORT_AVAILABLE_YES.rawValue: .yes
    default: .unknown
    }
  }

  private static let portTypes: [(pa_device_port_type_t, PulsePortType)] = [
    (PA_DEVICE_PORT_TYPE_UNKNOWN, .unknown), (PA_DEVICE_PORT_TYPE_AUX, .aux),
    (PA_DEVICE_PORT_TYPE_SPEAKER, .speaker), (PA_DEVICE_PORT_TYPE_HEADPHONES, .headphones),
    (PA_DEVICE_PORT_TYPE_LINE, .line), (PA_DEVICE_PORT_TYPE_MIC, .mic),
    (PA_DEVICE_PORT_TYPE_HEADSET, .headset), (PA_DEVICE_PORT_TYPE_HANDSET, .handset),
    (PA_DEVICE_PORT_TYPE_EARPIECE, .earpiece), (PA_DEVICE_PORT_TYPE_SPDIF, .spdif),
    (PA_DEVICE_PORT_TYPE_HDMI, .hdmi), (PA_DEVICE_PORT_TYPE_TV, .tv),
    (PA_DEVICE_PORT_TYPE_RADIO, .radio), (PA_DEVICE_PORT_TYPE_VIDEO, .video),
    (PA_DEVICE_PORT_TYPE_USB, .usb), (PA_DEVICE_PORT_TYPE_BLUETOOTH, .bluetooth),
    (PA_DEVICE_PORT_TYPE_PORTABLE, .portable), (PA_DEVICE_PORT_TYPE_HANDSFREE, .handsfree),
    (PA_DEVICE_PORT_TYPE_CAR, .car), (PA_DEVICE_PORT_TYPE_HIFI, .hifi),
    (PA_DEVICE_PORT_TYPE_PHONE, .phone), (PA_DEVICE_PORT_TYPE_NETWORK, .network),
    (PA_DEVICE_PORT_TYPE_ANALOG, .analog),
  ]

  /// The port's `type` field ("Port type, see #pa_device_port_type"); values this table does not
  /// know (a newer server) become ``PulsePortType/unknown``.
  static func portType(_ value: UInt32) -> PulsePortType {
    portTypes.first { $0.0.rawValue == value }?.1 ?? .unknown
  }

  private static let sinkFlags: [(pa_sink_flags, PulseDeviceFlags)] = [
    (PA_SINK_HW_VOLUME_CTRL, .hardwareVolume), (PA_SINK_LATENCY, .latency),
    (PA_SINK_HARDWARE, .hardware), (PA_SINK_NETWORK, .network),
    (PA_SINK_HW_MUTE_CTRL, .hardwareMute), (PA_SINK_DECIBEL_VOLUME, .decibelVolume),
    (PA_SINK_FLAT_VOLUME, .flatVolume), (PA_SINK_DYNAMIC_LATENCY, .dynamicLatency),
    (PA_SINK_SET_FORMATS, .setFormats),
  ]

  private static let sourceFlags: [(pa_source_flags, PulseDeviceFlags)] = [
    (PA_SOURCE_HW_VOLUME_CTRL, .hardwareVolume), (PA_SOURCE_LATENCY, .latency),
    (PA_SOURCE_HARDWARE, .hardware), (PA_SOURCE_NETWORK, .network),
    (PA_SOURCE_HW_MUTE_CTRL, .hardwareMute), (PA_SOURCE_DECIBEL_VOLUME, .decibelVolume),
    (PA_SOURCE_FLAT_VOLUME, .flatVolume), (PA_SOURCE_DYNAMIC_LATENCY, .dynamicLatency),
  ]

  static func flags(_ value: pa_sink_flags_t) -> PulseDeviceFlags {
    PulseDeviceFlags(sinkFlags.filter { value.rawValue & $0.0.rawValue != 0 }.map(\.1))
  }

  static func flags(_ value: pa_source_flags_t) -> PulseDeviceFlags {
    PulseDeviceFlags(sourceFlags.filter { value.rawValue & $0.0.rawValue != 0 }.map(\.1))
  }

  /// The per-channel volumes of a `pa_cvolume` (a fixed-size C array, read up to `channels`).
  static func volumes(_ cvolume: pa_cvolume) -> [PulseVolume] {
    let count = min(Int(cvolume.channels), Int(PA_CHANNELS_MAX))
    return withUnsafeBytes(of: cvolume.values) { raw in
      raw.bindMemory(to: pa_volume_t.self).prefix(count).map { PulseVolume(rawValue: $0) }
    }
  }

  /// A `pa_cvolume` with these per-channel volumes (at most `PA_CHANNELS_MAX`).
  static func cvolume(_ volumes: [PulseVolume]) -> pa_cvolume {
    var result = pa_cvolume()
    result.channels = UInt8(min(volumes.count, Int(PA_CHANNELS_MAX)))
    withUnsafeMutableBytes(of: &result.values) { raw in
      let values = raw.bindMemory(to: pa_volume_t.self)
      for (position, volume) in volumes.prefix(Int(PA_CHANNELS_MAX)).enumerated() {
        values[position] = volume.rawValue
      }
    }
    return result
  }

  /// The entries of a C array of `count` pointers (NULL entries skipped).
  static func entries<Info, Value>(
    _ array: UnsafeMutablePointer<UnsafeMutablePointer<Info>?>?, count: UInt32,
    _ copy: (Info) -> Value
  ) -> [Value] {
    guard let array else { return [] }
    return (0..<Int(count)).compactMap { array[$0].map { copy($0.pointee) } }
  }

  /// The entries of a NULL-terminated C array of pointers.
  static func entries<Info, Value>(
    terminated array: UnsafeMutablePointer<UnsafeMutablePointer<Info>?>?,
    _ copy: (Info) -> Value
  ) -> [Value] {
    guard let array else { return [] }
    var values: [Value] = []
    var position = 0
    while let entry = array[position] {
      values.append(copy(entry.pointee))
      position += 1
    }
    return values
  }
}

extension PulsePort {
  init(_ info: pa_sink_port_info) {
    self.init(
      name: PulseCopy.string(info.name) ?? "",
      description: PulseCopy.string(info.description) ?? "",
      priority: info.priority, type: PulseCopy.portType(info.type),
      availability: PulseCopy.availability(info.available),
      availabilityGroup: PulseCopy.string(info.availability_group))
  }

  init(_ info: pa_source_port_info) {
    self.init(
      name: PulseCopy.string(info.name) ?? "",
      description: PulseCopy.string(info.description) ?? "",
      priority: info.priority, type: PulseCopy.portType(info.type),
      availability: PulseCopy.availability(info.available),
      availabilityGroup: PulseCopy.string(info.availability_group))
  }
}

extension PulseDeviceSnapshot {
  init(_ info: pa_sink_info) {
    self.init(
      direction: .output, index: info.index, name: PulseCopy.string(info.name) ?? "",
      deviceDescription: PulseCopy.string(info.description) ?? "",
      driver: PulseCopy.string(info.driver) ?? "", ownerModule: PulseCopy.index(info.owner_module),
      cardIndex: PulseCopy.index(info.card), flags: PulseCopy.flags(info.flags),
      properties: PulseCopy.properties(info.proplist),
      ports: PulseCopy.entries(info.ports, count: info.n_ports, PulsePort.init),
      activePortName: PulseCopy.string(info.active_port?.pointee.name),
      isMuted: info.mute != 0)
    sampleRate = info.sample_spec.rate
    channelCount = Int(info.sample_spec.channels)
    channelVolumes = PulseCopy.volumes(info.volume)
    latency = info.latency
    configuredLatency = info.configured_latency
  }

  init(_ info: pa_source_info) {
    self.init(
      direction: .input, index: info.index, name: PulseCopy.string(info.name) ?? "",
      deviceDescription: PulseCopy.string(info.description) ?? "",
      driver: PulseCopy.string(info.driver) ?? "", ownerModule: PulseCopy.index(info.owner_module),
      cardIndex: PulseCopy.index(info.card), flags: PulseCopy.flags(info.flags),
      properties: PulseCopy.properties(info.proplist),
      ports: PulseCopy.entries(info.ports, count: info.n_ports, PulsePort.init),
      activePortName: PulseCopy.string(info.active_port?.pointee.name),
      monitorOfSink: PulseCopy.index(info.monitor_of_sink), isMuted: info.mute != 0)
    sampleRate = info.sample_spec.rate
    channelCount = Int(info.sample_spec.channels)
    channelVolumes = PulseCopy.volumes(info.volume)
    latency = info.latency
    configuredLatency = info.configured_latency
  }
}

extension PulseSinkInput {
  init(_ info: pa_sink_input_info) {
    // pa_cvolume_avg takes a pointer, which must not escape the closure (docs/pulseaudio.md §3).
    let average = withUnsafePointer(to: info.volume) { pa_cvolume_avg($0) }
    self.init(
      index: info.index, name: PulseCopy.string(info.name) ?? "",
      clientIndex: PulseCopy.index(info.client), ownerModule: PulseCopy.index(info.owner_module),
      sinkIndex: info.sink, driver: PulseCopy.string(info.driver) ?? "",
      properties: PulseCopy.properties(info.proplist), isCorked: info.corked != 0,
      isMuted: info.mute != 0, volume: PulseVolume(rawValue: average),
      channels: Int(info.volume.channels), channelVolumes: PulseCopy.volumes(info.volume),
      hasVolume: info.has_volume != 0,
      isVolumeWritable: info.volume_writable != 0)
    bufferLatency = info.buffer_usec
  }
}

extension PulseClientInfo {
  init(_ info: pa_client_info) {
    self.init(index: info.index, properties: PulseCopy.properties(info.proplist))
  }
}

extension PulseSourceOutput {
  init(_ info: pa_source_output_info) {
    self.init(
      index: info.index, name: PulseCopy.string(info.name) ?? "",
      clientIndex: PulseCopy.index(info.client), sourceIndex: info.source,
      properties: PulseCopy.properties(info.proplist), isCorked: info.corked != 0,
      isMuted: info.mute != 0)
  }
}

extension PulseServerInfo {
  init(_ info: pa_server_info) {
    self.init(
      serverName: PulseCopy.string(info.server_name) ?? "",
      serverVersion: PulseCopy.string(info.server_version) ?? "",
      userName: PulseCopy.string(info.user_name) ?? "",
      hostName: PulseCopy.string(info.host_name) ?? "",
      defaultSinkName: PulseCopy.string(info.default_sink_name),
      defaultSourceName: PulseCopy.string(info.default_source_name), cookie: info.cookie)
  }
}

extension PulseCardProfile {
  init(_ info: pa_card_profile_info2) {
    self.init(
      name: PulseCopy.string(info.name) ?? "",
      description: PulseCopy.string(info.description) ?? "",
      sinkCount: info.n_sinks, sourceCount: info.n_sources, priority: info.priority,
      isAvailable: info.available != 0)
  }
}

extension PulseCardPort {
  init(_ info: pa_card_port_info) {
    var directions: Set<PortDirection> = []
    let direction = UInt32(bitPattern: info.direction)
    if direction & PA_DIRECTION_OUTPUT.rawValue != 0 { directions.insert(.output) }
    if direction & PA_DIRECTION_INPUT.rawValue != 0 { directions.insert(.input) }
    self.init(
      port: PulsePort(
        name: PulseCopy.string(info.name) ?? "",
        description: PulseCopy.string(info.description) ?? "", priority: info.priority,
        type: PulseCopy.portType(info.type), availability: PulseCopy.availability(info.available),
        availabilityGroup: PulseCopy.string(info.availability_group)),
      directions: directions,
      profileNames: PulseCopy.entries(terminated: info.profiles2) {
        PulseCopy.string($0.name) ?? ""
      },
      properties: PulseCopy.properties(info.proplist))
  }
}

extension PulseCard {
  init(_ info: pa_card_info) {
    self.init(
      index: info.index, name: PulseCopy.string(info.name) ?? "",
      driver: PulseCopy.string(info.driver) ?? "", ownerModule: PulseCopy.index(info.owner_module),
      properties: PulseCopy.properties(info.proplist),
      profiles: PulseCopy.entries(terminated: info.profiles2, PulseCardProfile.init),
      activeProfileName: PulseCopy.string(info.active_profile2?.pointee.name),
      ports: PulseCopy.entries(info.ports, count: info.n_ports, PulseCardPort.init))
  }
}
