/// The last known snapshot of every sink and source, by index: what the subscription layer keeps
/// so that a removed device can still be described (a `remove` event carries only an index, and
/// a removed object cannot be introspected).
///
/// Pure value. Feed it with ``upsert(_:)`` for `new` and `change` events (a `change` can arrive
/// before the `new` of the same index), ``remove(_:index:)`` for `remove`, and
/// ``replaceAll(_:)`` after a reconnect (indices restart).
public import AudioSession

public struct PulseDeviceCache: Sendable, Hashable {
  private var sinks: [UInt32: PulseDeviceSnapshot] = [:]
  private var sources: [UInt32: PulseDeviceSnapshot] = [:]

  public init(_ devices: [PulseDeviceSnapshot] = []) {
    replaceAll(devices)
  }

  /// Every cached device, sinks first, by name.
  public var devices: [PulseDeviceSnapshot] {
    (Array(sinks.values) + Array(sources.values)).sorted { $0.key < $1.key }
  }

  /// The cached snapshot of the sink (`output`) or source (`input`) with this index.
  public subscript(direction: PortDirection, index: UInt32) -> PulseDeviceSnapshot? {
    direction == .output ? sinks[index] : sources[index]
  }

  /// Stores the snapshot, replacing the one with the same direction and index.
  public mutating func upsert(_ device: PulseDeviceSnapshot) {
    if device.direction == .output {
      sinks[device.index] = device
    } else {
      sources[device.index] = device
    }
  }

  /// Forgets a device and returns its last snapshot (nil if it was never cached).
  @discardableResult
  public mutating func remove(_ direction: PortDirection, index: UInt32) -> PulseDeviceSnapshot? {
    direction == .output ? sinks.removeValue(forKey: index) : sources.removeValue(forKey: index)
  }

  /// Replaces the whole content (a full resync).
  public mutating func replaceAll(_ devices: [PulseDeviceSnapshot]) {
    sinks = [:]
    sources = [:]
    for device in devices { upsert(device) }
  }
}

extension PulseSubscriptionEvent {
  /// `output` for sink events, `input` for source events, nil for other facilities.
  public var deviceDirection: PortDirection? {
    switch facility {
    case .sink: .output
    case .source: .input
    default: nil
    }
  }
}
