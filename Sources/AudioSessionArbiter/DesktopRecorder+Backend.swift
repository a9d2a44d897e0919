// The daemon's start, its clients' connections and what the backend saw on its own (devices,
// the server's call signal, the server lost and back), as steps (docs/contract.md "Recording
// what the daemon saw").
import AudioSession
import AudioSessionWire

extension DesktopRecorder {
  mutating func started(_ start: ArbiterStart) {
    for saved in start.saved { configure(saved.name, saved.configuration) }
    if case .success(let paused) = start.pausedPlayers, !paused.isEmpty {
      leftPaused = Set(paused.map(\.bus))
      note(
        "the daemon started with players a previous daemon had paused ("
          + paused.sorted().map(\.bus).joined(separator: ", ")
          + "): the replay's daemon starts without them, so where this one played them again "
          + "the replay's players play of their own accord")
    }
  }

  mutating func disconnected(_ id: ConnectionID) {
    clientPIDs[id] = nil
    let sessions = clientSessions.removeValue(forKey: id) ?? []
    for session in sessions {
      // As the daemon does: the sessions of a client that went end as a vanished app's.
      emit(.command(session: session, words: ["remove"]))
      configure(session, nil)
    }
    if !sessions.isEmpty { clientsChanged() }
  }

  /// The configuration a session set up before the replay's daemon starts would have (nil:
  /// none).
  mutating func configure(_ session: String, _ configuration: SessionConfiguration?) {
    guard configurations[session] != configuration else { return }
    configurations[session] = configuration
    change(.session(session, configuration))
  }

  mutating func backend(_ input: EngineInput, effects: [ArbiterEffect]) {
    switch input {
    case .deviceConnected(let device): plugged(device)
    case .deviceDisconnected(let uid): unplugged(uid)
    case .call(let active):
      // A call-role stream is a call in the replay too; a call the server signals with none
      // (module-role-cork's request, before the stream shows) is a simulated one.
      let changed = effects.contains { if case .apply = $0 { true } else { false } }
      if active, changed, !signalledCall {
        signalledCall = true
        emit(.command(session: nil, words: ["simulate", "call", "begin"]))
      } else if !active, signalledCall {
        signalledCall = false
        emit(.command(session: nil, words: ["simulate", "call", "end"]))
      }
    case .mediaServicesLost: lostServer()
    case .mediaServicesReset: resetServer()
    case .systemVolume(let volume):
      emit(.command(session: nil, words: ["simulate", "volume", SessionPreference.number(volume)]))
    case .builtInMicMute(let on):
      emit(.command(session: nil, words: ["simulate", "mic-mute", on ? "on" : "off"]))
    case .silentSwitch(let on):
      emit(.command(session: nil, words: ["simulate", "silent", on ? "on" : "off"]))
    case .screenLock(let on):
      emit(.command(session: nil, words: ["simulate", "lock", on ? "on" : "off"]))
    case .deviceChosen(let uid, let direction, _):
      note(
        "the user chose '\(uid)' as the \(direction == .output ? "output" : "input") of every "
          + "session: no step chooses a device, so the replay's routes may differ after it")
    default:
      note("the backend's '\(input.triggerText)' has no step: the replay leaves it out")
    }
  }

  /// The audio server died: `simulate media-services lost`, the players' streams closed.
  mutating func lostServer() {
    emit(.command(session: nil, words: ["simulate", "media-services", "lost"]))
    serverLost()
    serverDown = true
    learntStreamsGone = false
  }

  /// The audio server is back: `simulate media-services reset`; the programs open their streams
  /// again as they do here.
  mutating func resetServer() {
    if serverDown, !learntStreamsGone, !liveStreams.isEmpty {
      // The PulseAudio backend learns the streams went only from the server that is back.
      note(
        "the daemon learnt that the audio server's streams had gone only once it was back, the "
          + "replay as soon as it is lost: around the server's return, the replay may decide "
          + "otherwise about the programs that played")
    }
    emit(.command(session: nil, words: ["simulate", "media-services", "reset"]))
    serverDown = false
    signalledCall = false
  }

  /// A device is plugged: its preset, or the one whose ports it has.
  mutating func plugged(_ device: Device) {
    guard let id = learnDevice(device), let preset = devicePresets[id] else { return }
    emit(.plug(preset: preset, device: id))
    change(.device(id, preset))
  }

  mutating func unplugged(_ uid: String) {
    guard let id = devices.removeValue(forKey: uid) else { return }
    emit(.unplug(device: id))
    change(.device(id, nil))
  }

  /// Gives a device its number and the preset it is replayed as; nil (and a note) when no
  /// preset has its ports.
  mutating func learnDevice(_ device: Device) -> Int? {
    let ports = Set(device.ports.map { PortKey(type: $0.type, direction: $0.direction) })
    let preset =
      device.preset.flatMap { catalog.presets[$0] != nil ? $0 : nil }
      ?? catalog.presetOrder.first { name in
        guard let preset = catalog.presets[name] else { return false }
        return Set(preset.ports.map { PortKey(type: $0.type, direction: $0.direction) }) == ports
      }
    guard let preset else {
      note(
        "the device '\(device.name)' (\(device.uid)) has no preset with its ports: the replay "
          + "has no such device")
      return nil
    }
    let id = nextDevice
    nextDevice += 1
    devices[device.uid] = id
    devicePresets[id] = preset
    return id
  }

  struct PortKey: Hashable {
    var type: PortType
    var direction: PortDirection
  }
}
