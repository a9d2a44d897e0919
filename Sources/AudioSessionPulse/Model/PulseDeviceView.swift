import AudioSession

/// The server's devices as the engine knows them: the latest snapshot's sinks and sources made
/// into devices (``PulseDeviceAssembler``), the server's placeholder output kept for the built-in
/// speaker, which sink or source carries each port, and what the engine was last told
/// (``PulseSystemState``), with the user's choices of output seen since.
///
/// Pure: snapshots in; the engine's inputs, and the sink or source behind a port, out. The
/// backend holds one and tells it what the server shows (docs/pulseaudio-layer.md "The
/// backend's parts").
struct PulseDeviceView: Sendable {
  /// The presets the engine was started with (simulated devices are made from them).
  var catalog = DeviceCatalog(presets: [:], presetOrder: [], defaultDevices: [])
  /// The devices the latest snapshot shows, with the objects behind their ports.
  private(set) var assembled: [PulseDeviceAssembler.Assembled] = []
  /// The sink or source behind each port (the first device's, when two name one port).
  private(set) var targets: [PulseDeviceAssembler.PortTarget: String] = [:]
  /// The server's placeholder output as last seen (``keepPlaceholder(_:)``).
  private var placeholder: PulseDeviceAssembler.Assembled?
  /// What the engine was told.
  private(set) var published = PulseSystemState()
  /// The user's choices of output seen since the engine was last told (a session's stream
  /// moved in a mixer): `deviceChosen` for one session each.
  private(set) var chosen: [EngineInput] = []

  /// Makes the devices of a snapshot's sinks and sources (`owner`: only the devices a backend
  /// with that owner simulated).
  mutating func assemble(
    _ objects: [PulseDeviceSnapshot], rules: PulsePortRules, owner: String?
  ) {
    let assembler = PulseDeviceAssembler(rules: rules, catalog: catalog, owner: owner)
    assembled = keepPlaceholder(assembler.assemble(objects))
    targets = [:]
    for entry in assembled { targets.merge(entry.objects) { first, _ in first } }
  }

  /// The connection is gone: no device is shown (the placeholder is remembered, and what the
  /// engine was told stays).
  mutating func connectionLost() {
    assembled = []
    targets = [:]
  }

  /// The placeholder output (WirePlumber's `auto_null`) stands for the built-in speaker of a
  /// machine without one. The server removes it when a real sink appears and makes it again
  /// when the last one goes; the built-in speaker it stands for stays present all the while, as
  /// on a machine with a speaker: plugging headphones is then one new device and unplugging them
  /// falls back to the speaker (and pauses). It is dropped once the server has a real built-in
  /// speaker. While the placeholder is absent, nothing carries its port: a stream routed there
  /// plays on the server's default sink.
  private mutating func keepPlaceholder(
    _ devices: [PulseDeviceAssembler.Assembled]
  ) -> [PulseDeviceAssembler.Assembled] {
    let real = devices.contains { entry in
      !entry.isPlaceholder
        && entry.device.ports.contains { $0.type == .builtInSpeaker && $0.direction == .output }
    }
    if let present = devices.first(where: \.isPlaceholder) {
      placeholder = present
      return devices
    }
    guard !real, var kept = placeholder else {
      placeholder = nil
      return devices
    }
    kept.objects = [:]
    kept.mutedInputs = []
    return [kept] + devices
  }

  /// The sink or source behind a port of a route; nil when no object carries it now.
  func object(for uid: String, _ direction: PortDirection) -> String? {
    targets[.init(uid: uid, direction: direction)]
  }

  /// The device behind a sink or source: for an object with several ports, the device of its
  /// active port (`activePort`, as the server shows it), else the first device it serves; nil
  /// when it is none of the devices (ignored, or not tracked).
  func uid(of object: String, _ direction: PortDirection, activePort: String?) -> String? {
    let owners = assembled.filter { entry in
      entry.objects.contains { $0.key.direction == direction && $0.value == object }
    }
    let chosen =
      owners.first { $0.device.uid == activePort.map { "\(object):\($0)" } } ?? owners.first
    return chosen?.device.uid
  }

  /// The device behind a sink or source of `snapshot` (``uid(of:_:activePort:)``).
  func uid(
    of object: String, _ direction: PortDirection, in snapshot: PulseServerSnapshot?
  ) -> String? {
    let shown = snapshot?.devices.first { $0.name == object && $0.direction == direction }
    return uid(of: object, direction, activePort: shown?.activePortName)
  }

  /// The sources of the built-in microphone ports (muting them is the mic mute).
  var builtInMicSources: [String] {
    assembled.flatMap { entry in
      entry.device.ports.filter { $0.type == .builtInMic && $0.direction == .input }.compactMap {
        entry.objects[.init(uid: $0.uid, direction: .input)]
      }
    }
  }

  /// Whether a built-in microphone port's source is muted.
  var builtInMicMuted: Bool {
    assembled.contains { entry in
      entry.device.ports.contains {
        $0.type == .builtInMic && $0.direction == .input && entry.mutedInputs.contains($0.uid)
      }
    }
  }

  /// The state `snapshot` shows, with whether a call is on as the call signals say
  /// (`systemDefaults`: the server's default sink and source count as the engine's defaults).
  func state(
    of snapshot: PulseServerSnapshot, connection: Int, callActive: Bool, systemDefaults: Bool
  ) -> PulseSystemState {
    var defaults: [PortDirection: String] = [:]
    if systemDefaults, let server = snapshot.server {
      defaults[.output] = server.defaultSinkName.flatMap { uid(of: $0, .output, in: snapshot) }
      defaults[.input] = server.defaultSourceName.flatMap { uid(of: $0, .input, in: snapshot) }
    }
    return PulseSystemState(
      connected: true, connection: connection, devices: assembled.map(\.device),
      callActive: callActive, builtInMicMuted: builtInMicMuted, defaults: defaults,
      outputVolume: snapshot.defaultSink.flatMap {
        PulseSystemState.systemVolume($0.channelVolumes)
      })
  }

  /// What the engine knows while the connection is lost: what it was last told, unconnected.
  var lostState: PulseSystemState {
    var lost = published
    lost.connected = false
    return lost
  }

  /// The engine starts with `state`; nothing chosen is pending.
  mutating func started(with state: PulseSystemState) {
    published = state
    chosen = []
  }

  /// The user chose the output of a session (``chosen``).
  mutating func userChose(_ inputs: [EngineInput]) {
    chosen += inputs
  }

  /// The inputs that take the engine to `state`, now considered told: the transition, then the
  /// user's choices of a device that is there.
  mutating func takeChanges(to state: PulseSystemState) -> [EngineInput] {
    let (inputs, next) = PulseSystemState.transition(from: published, to: state)
    published = next
    let present = chosen.filter { input in
      guard case .deviceChosen(let uid, _, _) = input else { return false }
      return next.devices.contains { $0.uid == uid }
    }
    chosen = []
    return inputs + present
  }
}

extension PulseServerSnapshot {
  /// The server's default sink, as the snapshot shows it.
  var defaultSink: PulseDeviceSnapshot? {
    server?.defaultSinkName.flatMap { name in
      devices.first { $0.direction == .output && $0.name == name }
    }
  }
}
