/// The simulated backend: in-memory devices made from the policy's presets, the call, the
/// switches and the media server; deterministic (device UIDs are `<preset>-<n>`, counted per
/// preset), and with no audio to apply decisions to.
public actor InMemoryAudioBackend: AudioBackend {
  public nonisolated let name = "simulated"

  private var catalog = DeviceCatalog(presets: [:], presetOrder: [], defaultDevices: [])
  private var devices: [Device] = []
  private var plugCounts: [String: Int] = [:]
  private var callActive = false
  private var callRinging = false
  /// Between `simulate media-services lost` and `reset`.
  private var mediaServicesLost = false

  public init() {}

  public func start(
    catalog: DeviceCatalog, initialDevices: [String]
  ) async throws(SessionError) -> [Device] {
    self.catalog = catalog
    devices = []
    plugCounts = [:]
    callActive = false
    callRinging = false
    mediaServicesLost = false
    for name in initialDevices {
      devices.append(try makeDevice(name))
    }
    return devices
  }

  public func perform(_ action: SimulationAction) async throws(SessionError) -> [EngineInput] {
    switch action {
    case .plug(let preset):
      let device = try makeDevice(preset)
      devices.append(device)
      return [.deviceConnected(device)]
    case .unplug(let target):
      let index = try deviceIndex(target)
      let device = devices.remove(at: index)
      return [.deviceDisconnected(uid: device.uid)]
    case .call(let active):
      guard active ? !callActive : callActive || callRinging else {
        throw SessionError(
          .badParam, active ? "a call is already in progress" : "no call is in progress")
      }
      callActive = active
      callRinging = false
      return [.call(active: active)]
    case .callRing(let style):
      guard !callActive, !callRinging else {
        throw SessionError(
          .badParam, callActive ? "a call is already in progress" : "a call is already ringing")
      }
      callRinging = true
      return [.callRing(style)]
    case .siri(let active): return [.siri(active: active)]
    case .alarm(let active): return [.alarm(active: active)]
    case .volume(let volume): return [.systemVolume(volume)]
    case .recordPermission(let permission): return [.recordPermission(permission)]
    case .silentSwitch(let on): return [.silentSwitch(on: on)]
    case .screenLock(let on): return [.screenLock(on: on)]
    case .micMute(let on): return [.builtInMicMute(on: on)]
    case .serverRestart:
      // The simulated media server restarts at once; the call (a system app) is unaffected.
      mediaServicesLost = false
      return [.mediaServicesLost, .mediaServicesReset]
    case .mediaServices(let lost):
      guard lost != mediaServicesLost else {
        throw SessionError(
          .badParam,
          lost
            ? "the media services are already lost; 'simulate media-services reset' brings them back"
            : "the media services are not lost; 'simulate media-services lost' first (or "
              + "'simulate server-restart' for both at once)")
      }
      mediaServicesLost = lost
      return [lost ? .mediaServicesLost : .mediaServicesReset]
    }
  }

  public func apply(_ notifications: [SessionNotification], status: EngineStatus) async {}

  /// `apply` does nothing: no status of every session is made for it.
  public nonisolated var followsSessions: Bool { false }

  public func stop() async {}

  private func makeDevice(_ presetName: String) throws(SessionError) -> Device {
    guard let preset = catalog.presets[presetName] else {
      throw SessionError(
        .badParam,
        "unknown device preset '\(presetName)'; valid presets are: \(catalog.presetOrder.joined(separator: ", "))"
      )
    }
    if let uid = preset.uid {
      guard !devices.contains(where: { $0.uid == uid }) else {
        throw SessionError(.badParam, "'\(presetName)' (\(uid)) is already connected")
      }
      return Device(preset: preset, uid: uid)
    }
    let count = plugCounts[presetName, default: 0] + 1
    plugCounts[presetName] = count
    return Device(preset: preset, uid: "\(presetName)-\(count)")
  }

  /// A device by UID, or the most recently plugged device of a preset.
  private func deviceIndex(_ target: String) throws(SessionError) -> Int {
    if let index = devices.firstIndex(where: { $0.uid == target }) { return index }
    if let index = devices.lastIndex(where: { $0.preset == target }) { return index }
    let connected = devices.map { "\($0.uid) (\($0.preset ?? "device"))" }
    throw SessionError(
      .badParam,
      "no connected device has UID or preset '\(target)'; connected: \(connected.joined(separator: ", "))"
    )
  }
}
