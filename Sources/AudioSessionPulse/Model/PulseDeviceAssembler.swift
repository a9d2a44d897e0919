/// Turns a server's sinks and sources into the engine's devices (docs/pulseaudio.md §4): which
/// objects make one device, which port types they offer (``PulsePortMapper`` with the rules of
/// `policies/pulse.json`), and which sink or source carries each port.
///
/// Pure. Grouping, first rule that applies:
/// 1. objects carrying `audiosession.device` (devices this project simulates) make one device
///    with that UID, and count only once all `audiosession.parts` of them are present;
/// 2. (every device mode only) Bluetooth objects of one card make one device named after the
///    card: its profiles' sink and source are one headset, so HFP input and output couple;
/// 3. an object with ports (a sound card's jacks) gives one device per port that is not known
///    to be unplugged (availability `yes` or `unknown`), so plugging a jack connects a device
///    and unplugging it disconnects one, as on iOS;
/// 4. any other object is a device of its own.
/// Objects the rules map to `ignore` (monitors, this project's internal objects) are left out.
package import AudioSession

package struct PulseDeviceAssembler: Sendable {
  package var rules: PulsePortRules
  package var catalog: DeviceCatalog
  /// Only devices simulated by the backend with this `audiosession.owner`; every device on the
  /// server when nil.
  package var owner: String?

  package init(rules: PulsePortRules, catalog: DeviceCatalog, owner: String?) {
    self.rules = rules
    self.catalog = catalog
    self.owner = owner
  }

  /// A device with what the backend needs to act on it.
  package struct Assembled: Sendable, Hashable {
    package var device: Device
    /// The sink or source name behind each port, by port UID and direction.
    package var objects: [PortTarget: String]
    /// The input ports whose source is muted.
    package var mutedInputs: Set<String>
    /// The smallest server index among its objects: orders devices that appear together.
    package var firstIndex: UInt32
    /// Whether the device is the server's placeholder output (`port: placeholder` in
    /// `pulse.json`): the built-in speaker's stand-in.
    package var isPlaceholder = false
  }

  /// A port as routes name it: UID and direction (one UID may serve both directions).
  package struct PortTarget: Sendable, Hashable {
    package var uid: String
    package var direction: PortDirection

    package init(uid: String, direction: PortDirection) {
      self.uid = uid
      self.direction = direction
    }
  }

  /// The devices on the server, ordered by their first object's index.
  package func assemble(_ objects: [PulseDeviceSnapshot]) -> [Assembled] {
    var groups: [String: [Member]] = [:]
    var order: [String] = []
    for object in objects {
      for member in members(of: object) {
        if groups[member.group] == nil { order.append(member.group) }
        groups[member.group, default: []].append(member)
      }
    }
    let built = order.compactMap { key in groups[key].flatMap(build) }
      .sorted { $0.firstIndex < $1.firstIndex }
    return Self.uniquified(built)
  }

  /// Gives a device whose UID is already taken (a sink and a source with the same name) a
  /// suffixed UID (`name#2`): the engine's UIDs are unique.
  static func uniquified(_ devices: [Assembled]) -> [Assembled] {
    var used: Set<String> = []
    return devices.map { entry in
      if used.insert(entry.device.uid).inserted { return entry }
      var suffix = 2
      while used.contains("\(entry.device.uid)#\(suffix)") { suffix += 1 }
      let old = entry.device.uid
      let uid = "\(old)#\(suffix)"
      used.insert(uid)
      let rename = { (port: String) in port == old ? uid : uid + port.dropFirst(old.count) }
      var renamed = entry
      renamed.device.uid = uid
      renamed.device.ports = entry.device.ports.map {
        DevicePort(type: $0.type, direction: $0.direction, name: $0.name, uid: rename($0.uid))
      }
      renamed.objects = Dictionary(
        entry.objects.map {
          (PortTarget(uid: rename($0.key.uid), direction: $0.key.direction), $0.value)
        }
      ) { first, _ in first }
      renamed.mutedInputs = Set(entry.mutedInputs.map(rename))
      return renamed
    }
  }

  /// One object's share of a device: the object with the port it contributes (as its active
  /// port, for the mapper).
  private struct Member {
    var group: String
    var object: PulseDeviceSnapshot
    var type: PortType
  }

  private func members(of object: PulseDeviceSnapshot) -> [Member] {
    let key = PulseSimulatedDevice.Key.self
    if let uid = object.properties[key.device] {
      guard owner == nil || object.properties[key.owner] == owner,
        let type = PulsePortMapper.portType(for: object, rules: rules)
      else { return [] }
      return [Member(group: "device:" + uid, object: object, type: type)]
    }
    guard owner == nil else { return [] }
    if object.properties["device.bus"] == "bluetooth", let card = object.cardName {
      guard let type = PulsePortMapper.portType(for: object, rules: rules) else { return [] }
      return [Member(group: "card:" + card, object: object, type: type)]
    }
    if !object.ports.isEmpty {
      return object.ports.filter { $0.availability != .no }.compactMap { port in
        var viaPort = object
        viaPort.activePortName = port.name
        guard let type = PulsePortMapper.portType(for: viaPort, rules: rules) else { return nil }
        return Member(group: "port:\(object.key):\(port.name)", object: viaPort, type: type)
      }
    }
    guard let type = PulsePortMapper.portType(for: object, rules: rules) else { return [] }
    return [Member(group: "object:\(object.key)", object: object, type: type)]
  }

  private func build(_ members: [Member]) -> Assembled? {
    guard let first = members.first else { return nil }
    let key = PulseSimulatedDevice.Key.self
    let uid: String
    var name: String
    var preset: DevicePreset?
    var ordered = members
    if let simulated = first.object.properties[key.device] {
      let parts = Int(first.object.properties[key.parts] ?? "") ?? 1
      guard members.count == parts else { return nil }
      uid = simulated
      preset = first.object.properties[key.preset].flatMap { catalog.presets[$0] }
      name = preset?.displayName ?? Self.describe(first.object)
      ordered.sort {
        (Int($0.object.properties[key.part] ?? "") ?? 0)
          < (Int($1.object.properties[key.part] ?? "") ?? 0)
      }
    } else if first.group.hasPrefix("card:"), let card = first.object.cardName {
      uid = card
      name = Self.describe(first.object)
    } else {
      uid = PulsePortMapper.port(for: first.object, rules: rules)?.uid ?? first.object.name
      name = Self.describe(first.object)
    }
    // One port per type and direction (the engine's devices never offer one twice).
    var seen: Set<PortTarget> = []
    var typed: [Member] = []
    for member in ordered
    where seen.insert(PortTarget(uid: member.type.name, direction: member.object.direction))
      .inserted
    {
      typed.append(member)
    }
    let single = typed.count == 1
    var ports: [DevicePort] = []
    var objects: [PortTarget: String] = [:]
    var muted: Set<String> = []
    for member in typed {
      let direction = member.object.direction
      let portUID = single ? uid : "\(uid):\(member.type.name)"
      let portName =
        preset?.ports.first { $0.type == member.type && $0.direction == direction }?.name
        ?? Self.describe(member.object)
      ports.append(
        DevicePort(type: member.type, direction: direction, name: portName, uid: portUID))
      objects[PortTarget(uid: portUID, direction: direction)] = member.object.name
      if direction == .input, member.object.isMuted { muted.insert(portUID) }
    }
    if preset == nil, name.isEmpty { name = uid }
    let placeholder =
      members.count == 1
      && PulsePortMapper.match(first.object, rules: rules).outcome == .placeholder
    return Assembled(
      device: Device(uid: uid, name: name, preset: preset?.name, ports: ports), objects: objects,
      mutedInputs: muted, firstIndex: members.map(\.object.index).min() ?? 0,
      isPlaceholder: placeholder)
  }

  /// The name people see: `device.description`, else the object's name.
  private static func describe(_ object: PulseDeviceSnapshot) -> String {
    object.deviceDescription.isEmpty ? object.name : object.deviceDescription
  }
}
