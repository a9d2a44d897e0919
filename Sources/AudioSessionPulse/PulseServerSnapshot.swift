/// Everything a ``PulseServerMonitor`` knows about a server at one settled moment: what a burst
/// of events left behind, after every follow-up request was answered.
import AudioSession

public struct PulseServerSnapshot: Sendable, Hashable {
  /// Counts settled states of one monitor: a later snapshot has a larger number.
  public var sequence: Int
  /// nil until the first answer (it always arrives before the first snapshot).
  public var server: PulseServerInfo?
  /// Sinks by index, then sources by index; card names filled in.
  public var devices: [PulseDeviceSnapshot]
  /// Every client's playback streams, by index.
  public var sinkInputs: [PulseSinkInput]
  /// Every client's recording streams, by index.
  public var sourceOutputs: [PulseSourceOutput]
  /// Cards, by index.
  public var cards: [PulseCard]

  public init(
    sequence: Int = 0, server: PulseServerInfo? = nil, devices: [PulseDeviceSnapshot] = [],
    sinkInputs: [PulseSinkInput] = [], sourceOutputs: [PulseSourceOutput] = [],
    cards: [PulseCard] = []
  ) {
    self.sourceOutputs = sourceOutputs
    self.sequence = sequence
    self.server = server
    self.devices = devices
    self.sinkInputs = sinkInputs
    self.cards = cards
  }
}
