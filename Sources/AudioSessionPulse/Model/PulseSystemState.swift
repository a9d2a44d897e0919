/// What the engine should know about the system behind a PulseAudio server: whether the server
/// is reachable, the devices in connection order, whether a phone call is in progress and
/// whether the built-in microphone is muted.
///
/// The backend keeps two: the state it last told the engine (published) and the one the server
/// shows now. ``transition(from:to:)`` turns the difference into engine inputs, so a burst of
/// server events becomes one change, and `perform` returns exactly the inputs its action caused.
package import AudioSession

package struct PulseSystemState: Sendable, Hashable {
  package var connected: Bool
  /// Counts connections: it grows when the backend reconnects (the server restarted).
  package var connection: Int
  /// Connection order, as the engine holds them (last-in wins).
  package var devices: [Device]
  package var callActive: Bool
  package var builtInMicMuted: Bool
  /// The devices behind the server's default sink and source (nil: none of our devices, or not
  /// tracked). A change of them is the user's choice (``transition(from:to:)``).
  package var defaults: [PortDirection: String]
  /// The system volume (`outputVolume`, 0…1): the volume of the server's default sink (nil:
  /// unknown, no default sink).
  package var outputVolume: Double?

  package init(
    connected: Bool = false, connection: Int = 0, devices: [Device] = [],
    callActive: Bool = false, builtInMicMuted: Bool = false,
    defaults: [PortDirection: String] = [:], outputVolume: Double? = nil
  ) {
    self.connected = connected
    self.connection = connection
    self.devices = devices
    self.callActive = callActive
    self.builtInMicMuted = builtInMicMuted
    self.defaults = defaults
    self.outputVolume = outputVolume
  }

  /// The system volume a sink's channel volumes stand for: the loudest channel (what a mixer's
  /// slider shows), as a fraction of the full volume, at most 1 (a sink raised above 100 % is
  /// full volume to an app), to four decimals (a volume of three decimals set through
  /// ``PulseVolume`` reads back as itself). Nil for no channels.
  package static func systemVolume(_ channels: [PulseVolume]) -> Double? {
    guard let loudest = channels.map(\.rawValue).max() else { return nil }
    let fraction = min(1, Double(loudest) / Double(PulseVolume.normal.rawValue))
    return (fraction * 10_000).rounded() / 10_000
  }

  /// The channel volume that stands for the system volume `volume` (0…1).
  package static func channelVolume(_ volume: Double) -> PulseVolume {
    PulseVolume(rawValue: UInt32((volume * Double(PulseVolume.normal.rawValue)).rounded()))
  }

  /// The inputs that take an engine that knows `old` to `new`, in order, and the state it then
  /// knows.
  ///
  /// - Lost: `mediaServicesLost` only; the engine keeps running on the devices it knew.
  /// - Reconnected (``connection`` grew): `mediaServicesLost` (unless already told), then
  ///   `mediaServicesReset`, then what changed meanwhile (docs/pulseaudio.md §5: full resync).
  /// - Devices: every device that went away or changed is disconnected (in connection order),
  ///   then every new or changed one is connected, in `new`'s order: a changed device (a card
  ///   switched profile) is a disconnect and a connect, and becomes the most recent.
  /// - Defaults: a default sink or source that moved from one of the devices to another while
  ///   no device came or went, on the same connection, is the user's choice:
  ///   `deviceChosen(uid, direction, session: nil)` (a route change with reason `override`, not
  ///   a device change). A default that changes because a device came or went, or because the
  ///   default device is gone, is covered by that device. A default of none of the devices
  ///   (nil) is ignored, and the last known one is kept.
  /// - Then the system volume, when the default sink's changed (a user's volume keys or mixer,
  ///   or a new default sink: iOS keeps a volume per route); unknown (nil) keeps the last.
  /// - Then the built-in mic mute, then the call.
  package static func transition(
    from old: PulseSystemState, to new: PulseSystemState
  ) -> (inputs: [EngineInput], state: PulseSystemState) {
    guard new.connected else {
      var kept = old
      kept.connected = false
      return (old.connected ? [.mediaServicesLost] : [], kept)
    }
    var inputs: [EngineInput] = []
    if new.connection != old.connection {
      if old.connected { inputs.append(.mediaServicesLost) }
      inputs.append(.mediaServicesReset)
    }
    let newDevices = Dictionary(new.devices.map { ($0.uid, $0) }) { first, _ in first }
    let oldDevices = Dictionary(old.devices.map { ($0.uid, $0) }) { first, _ in first }
    var devices: [Device] = []
    let reconnected = !inputs.isEmpty
    for device in old.devices {
      if newDevices[device.uid] == device {
        devices.append(device)
      } else {
        inputs.append(.deviceDisconnected(uid: device.uid))
      }
    }
    for device in new.devices where oldDevices[device.uid] != device {
      inputs.append(.deviceConnected(device))
      devices.append(device)
    }
    let steady = !reconnected && inputs.isEmpty
    var defaults = old.defaults
    for direction in PortDirection.allCases {
      guard let chosen = new.defaults[direction] else { continue }
      defaults[direction] = chosen
      guard steady, let previous = old.defaults[direction],
        previous != chosen, newDevices[previous] != nil, newDevices[chosen] != nil
      else { continue }
      inputs.append(.deviceChosen(uid: chosen, direction: direction, session: nil))
    }
    if let volume = new.outputVolume, volume != old.outputVolume {
      inputs.append(.systemVolume(volume))
    }
    if new.builtInMicMuted != old.builtInMicMuted {
      inputs.append(.builtInMicMute(on: new.builtInMicMuted))
    }
    if new.callActive != old.callActive {
      inputs.append(.call(active: new.callActive))
    }
    var state = new
    state.devices = devices
    state.defaults = defaults
    state.outputVolume = new.outputVolume ?? old.outputVolume
    return (inputs, state)
  }
}
