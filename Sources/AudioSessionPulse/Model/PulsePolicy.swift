/// Everything the PulseAudio backend reads from `policies/pulse.json`: how devices map to port
/// types (``PulsePortRules``) and how sessions appear as streams (``PulseStreamRules``).
public import AudioSession

public struct PulsePolicy: Sendable, Hashable {
  package var ports: PulsePortRules
  package var streams: PulseStreamRules

  package init(ports: PulsePortRules, streams: PulseStreamRules) {
    self.ports = ports
    self.streams = streams
  }

  /// Loads and validates `pulse.json` in a policies directory; both sections are required.
  ///
  /// - Throws: ``PolicyValidationError`` with every problem found, each naming `pulse.json`.
  public static func load(directory: String) throws(PolicyValidationError) -> PulsePolicy {
    let file = try PulsePortRules.loadFile(directory: directory, requireStreams: true)
    guard let streams = file.streams else {
      preconditionFailure("pulse.json loaded without its required streams section")
    }
    return PulsePolicy(ports: file.ports, streams: streams)
  }
}
