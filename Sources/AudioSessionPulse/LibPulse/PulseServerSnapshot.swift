/// Everything a ``PulseServerMonitor`` knows about a server at one settled moment: what a burst
/// of events left behind, after every follow-up request was answered.
import AudioSession

package struct PulseServerSnapshot: Sendable, Hashable {
  /// Counts settled states of one monitor: a later snapshot has a larger number.
  package var sequence: Int
  /// nil until the first answer (it always arrives before the first snapshot).
  package var server: PulseServerInfo?
  /// Sinks by index, then sources by index; card names filled in.
  package var devices: [PulseDeviceSnapshot]
  /// Every client's playback streams, by index.
  package var sinkInputs: [PulseSinkInput]
  /// Every client's recording streams, by index.
  package var sourceOutputs: [PulseSourceOutput]
  /// Cards, by index.
  package var cards: [PulseCard]

  package init(
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
