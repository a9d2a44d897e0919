/// What changed between two sets of device snapshots: the input of the route-change layer.
///
/// Pure. Devices are matched by ``PulseDeviceKey`` (direction and name), not by index, so a set
/// taken after a server restart (indices start again at 0) compares correctly. Jack plugs show
/// up as port availability changes on a device present in both sets; they cannot be produced
/// without hardware (docs/pulseaudio.md §1.4), so this is where they are handled and tested.
import AudioSession

public struct PulseDeviceDiff: Sendable, Hashable {
  /// Devices only in the new set, by key.
  public var added: [PulseDeviceSnapshot]
  /// Devices only in the old set (their old snapshots), by key.
  public var removed: [PulseDeviceSnapshot]
  /// Devices in both sets whose ports' availability changed (or ports appeared or vanished).
  public var availabilityChanged: [Change]
  /// Devices in both sets whose active port changed.
  public var activePortChanged: [Change]

  /// A device present in both sets.
  public struct Change: Sendable, Hashable {
    public var before: PulseDeviceSnapshot
    public var after: PulseDeviceSnapshot
    /// The ports whose availability differs, by port name.
    public var ports: [PortChange]

    public init(before: PulseDeviceSnapshot, after: PulseDeviceSnapshot, ports: [PortChange]) {
      self.before = before
      self.after = after
      self.ports = ports
    }
  }

  /// One port's availability before and after; nil when the port did not exist on that side.
  public struct PortChange: Sendable, Hashable {
    public var name: String
    public var before: PulsePortAvailability?
    public var after: PulsePortAvailability?

    public init(name: String, before: PulsePortAvailability?, after: PulsePortAvailability?) {
      self.name = name
      self.before = before
      self.after = after
    }
  }

  /// Compares `old` with `new` (a key listed twice counts with its last snapshot).
  public init(from old: [PulseDeviceSnapshot], to new: [PulseDeviceSnapshot]) {
    let before = Dictionary(old.map { ($0.key, $0) }) { _, last in last }
    let after = Dictionary(new.map { ($0.key, $0) }) { _, last in last }
    added = after.keys.filter { before[$0] == nil }.sorted().compactMap { after[$0] }
    removed = before.keys.filter { after[$0] == nil }.sorted().compactMap { before[$0] }
    availabilityChanged = []
    activePortChanged = []
    for key in before.keys.sorted() {
      guard let previous = before[key], let current = after[key] else { continue }
      let ports = Self.portChanges(previous.ports, current.ports)
      if !ports.isEmpty {
        availabilityChanged.append(Change(before: previous, after: current, ports: ports))
      }
      if previous.activePortName != current.activePortName {
        activePortChanged.append(Change(before: previous, after: current, ports: ports))
      }
    }
  }

  /// Whether nothing changed.
  public var isEmpty: Bool {
    added.isEmpty && removed.isEmpty && availabilityChanged.isEmpty && activePortChanged.isEmpty
  }

  private static func portChanges(_ old: [PulsePort], _ new: [PulsePort]) -> [PortChange] {
    let before = Dictionary(old.map { ($0.name, $0.availability) }) { _, last in last }
    let after = Dictionary(new.map { ($0.name, $0.availability) }) { _, last in last }
    return Set(before.keys).union(after.keys).sorted().compactMap { name in
      before[name] == after[name]
        ? nil : PortChange(name: name, before: before[name], after: after[name])
    }
  }
}
