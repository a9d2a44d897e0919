/// `AVAudioSession.Port`: the type of an audio port (docs/avaudiosession.md §7.2). The raw value is
/// the string observed on iOS (`MicrophoneBuiltIn`); ``name`` is the Swift case name.
public enum PortType: String, CaseIterable, Sendable, Hashable, Codable, NamedCase {
  case builtInMic = "MicrophoneBuiltIn"
  case headsetMic = "MicrophoneWired"
  case lineIn = "LineIn"
  case continuityMicrophone = "ContinuityMicrophone"
  case builtInReceiver = "Receiver"
  case builtInSpeaker = "Speaker"
  case headphones = "Headphones"
  case lineOut = "LineOut"
  case bluetoothA2DP = "BluetoothA2DPOutput"
  case HDMI = "HDMIOutput"
  case airPlay = "AirPlay"
  case bluetoothLE = "BluetoothLE"
  case bluetoothHFP = "BluetoothHFP"
  case usbAudio = "USBAudio"
  case carAudio = "CarAudio"
  case virtual = "Virtual"
  case PCI = "PCI"
  case fireWire = "FireWire"
  case displayPort = "DisplayPort"
  case AVB = "AVB"
  case thunderbolt = "Thunderbolt"

  public var name: String {
    switch self {
    case .builtInMic: "builtInMic"
    case .headsetMic: "headsetMic"
    case .lineIn: "lineIn"
    case .continuityMicrophone: "continuityMicrophone"
    case .builtInReceiver: "builtInReceiver"
    case .builtInSpeaker: "builtInSpeaker"
    case .headphones: "headphones"
    case .lineOut: "lineOut"
    case .bluetoothA2DP: "bluetoothA2DP"
    case .HDMI: "HDMI"
    case .airPlay: "airPlay"
    case .bluetoothLE: "bluetoothLE"
    case .bluetoothHFP: "bluetoothHFP"
    case .usbAudio: "usbAudio"
    case .carAudio: "carAudio"
    case .virtual: "virtual"
    case .PCI: "PCI"
    case .fireWire: "fireWire"
    case .displayPort: "displayPort"
    case .AVB: "AVB"
    case .thunderbolt: "thunderbolt"
    }
  }

  /// Whether the port is one of the device's own (always present, never plugged).
  public var isBuiltIn: Bool {
    self == .builtInMic || self == .builtInSpeaker || self == .builtInReceiver
  }
}

/// The direction of a port.
public enum PortDirection: String, Sendable, Hashable, CaseIterable, Codable {
  case input, output
}

/// `AVAudioSessionPortDescription`, reduced to what routes carry (docs/avaudiosession.md §7.1).
public struct PortDescription: Sendable, Hashable {
  public var portType: PortType
  public var portName: String
  /// Unique per port: the device UID, plus `/hfp` etc. when one device offers several ports.
  public var uid: String

  public init(portType: PortType, portName: String, uid: String) {
    self.portType = portType
    self.portName = portName
    self.uid = uid
  }
}

/// `AVAudioSessionRouteDescription`: the ports a session's audio currently uses.
public struct RouteDescription: Sendable, Hashable {
  public var inputs: [PortDescription]
  public var outputs: [PortDescription]

  public init(inputs: [PortDescription] = [], outputs: [PortDescription] = []) {
    self.inputs = inputs
    self.outputs = outputs
  }

  public static let empty = RouteDescription()
}
