public import AudioSession
import AudioSessionHost
import AudioSessionMPRIS
import AudioSessionPulse
public import Logging
public import SessionctlCommands

/// The PulseAudio backend for the commands, linked into `audiosessiond` (docs/modules.md
/// "What sessionctl links").
public struct LivePulseSupport: PulseSupport {
  public init() {}

  public func checkPolicy(directory: String) throws(PolicyValidationError) -> Int {
    try PulsePolicy.load(directory: directory).ports.rules.count
  }

  public func makeBackend(
    policyDirectory: String, spawn: PulseServerKind?, simulatedDevices: Bool, logger: Logger,
    executor: (any TaskExecutor)?, changesFile: String?
  ) throws(PolicyValidationError) -> any AudioBackend {
    let policy = try PulsePolicy.load(directory: policyDirectory)
    let server: PulseBackendConfiguration.Server =
      switch spawn {
      case nil: .environment
      case .pulseaudio: .spawn(.pulseaudio)
      case .pipewire: .spawn(.pipewire)
      }
    return PulseAudioBackend(
      configuration: PulseBackendConfiguration(
        server: server, devices: simulatedDevices ? .simulated : .system, policy: policy,
        logger: logger, executor: executor, changesFile: changesFile))
  }

  public func makePlayers(environment: [String: String], logger: Logger)
    -> any MediaPlayerControl
  {
    MPRISPlayers(address: MPRISPlayers.sessionBusAddress(environment: environment), logger: logger)
  }

  public func privateServer(of backend: any AudioBackend) async -> (folder: String, server: String)?
  {
    guard let pulse = backend as? PulseAudioBackend, let spawned = await pulse.privateServer
    else { return nil }
    return (spawned.runtimeDirectory, spawned.serverString)
  }
}
