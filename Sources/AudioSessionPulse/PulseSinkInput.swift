/// A playback stream as the server sees it (ours or another client's). The corresponding C type
/// is `pa_sink_input_info`.
import AudioSession

public struct PulseSinkInput: Sendable, Hashable {
  public var index: UInt32
  public var name: String
  /// The client that owns it; nil for streams a module created.
  public var clientIndex: UInt32?
  public var ownerModule: UInt32?
  /// The sink it plays to.
  public var sinkIndex: UInt32
  public var driver: String
  /// The string-valued properties (`media.role`, `application.name`…).
  public var properties: [String: String]
  public var isCorked: Bool
  public var isMuted: Bool
  /// The average over channels.
  public var volume: PulseVolume
  /// The volume of each channel, in channel order (what ducking saves and restores exactly).
  public var channelVolumes: [PulseVolume]
  public var channels: Int
  public var hasVolume: Bool
  public var isVolumeWritable: Bool
  /// `buffer_usec`: how much the server holds in the stream's buffer, in microseconds (its
  /// buffer attributes set the target; 0 in a sink input made by hand).
  public var bufferLatency: UInt64 = 0

  public init(
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
  public var role: String? { properties["media.role"] }
}
