/// A playback stream as the server sees it (ours or another client's). The corresponding C type
/// is `pa_sink_input_info`.
import AudioSession

package struct PulseSinkInput: Sendable, Hashable {
  package var index: UInt32
  package var name: String
  /// The client that owns it; nil for streams a module created.
  package var clientIndex: UInt32?
  package var ownerModule: UInt32?
  /// The sink it plays to.
  package var sinkIndex: UInt32
  package var driver: String
  /// The string-valued properties (`media.role`, `application.name`…).
  package var properties: [String: String]
  package var isCorked: Bool
  package var isMuted: Bool
  /// The average over channels.
  package var volume: PulseVolume
  /// The volume of each channel, in channel order (what ducking saves and restores exactly).
  package var channelVolumes: [PulseVolume]
  package var channels: Int
  package var hasVolume: Bool
  package var isVolumeWritable: Bool
  /// `buffer_usec`: how much the server holds in the stream's buffer, in microseconds (its
  /// buffer attributes set the target; 0 in a sink input made by hand).
  package var bufferLatency: UInt64 = 0

  package init(
    index: UInt32, name: String, clientIndex: UInt32? = nil, ownerModule: UInt32? = nil,
    sinkIndex: UInt32, driver: String = "", properties: [String: String] = [:],
    isCorked: Bool = false, isMuted: Bool = false, volume: PulseVolume = .normal, channels: Int = 2,
    channelVolumes: [PulseVolume]? = nil, hasVolume: Bool = true, isVolumeWritable: Bool = true
  ) {
    self.index = index
    self.name = name
    self.clientIndex = clientIndex
    self.ownerModule = ownerModule
    self.sinkIndex = sinkIndex
    self.driver = driver
    self.properties = properties
    self.isCorked = isCorked
    self.isMuted = isMuted
    self.volume = volume
    self.channelVolumes = channelVolumes ?? Array(repeating: volume, count: channels)
    self.channels = channels
    self.hasVolume = hasVolume
    self.isVolumeWritable = isVolumeWritable
  }

  /// `media.role` (`music`, `phone`…), which module-role-cork and -ducking act on.
  package var role: String? { properties["media.role"] }
}
