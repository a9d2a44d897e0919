public import AudioSession

// The value types nested in AVAudioSession, declared as Apple's Swift overlay declares them
// (docs/api-coverage.md): the string-valued ones (`Category`, `Mode`, `Port`, `Location`,
// `Orientation`, `PolarPattern`) are structs whose `init(rawValue:)` cannot fail, so that iOS code
// such as `AVAudioSession.Category(rawValue: name)` compiles; a value the engine does not know is
// refused when it is used (`badParam`, -50), as iOS refuses it. The integer-valued ones are in
// AVAudioSession+Values.swift.

extension AVAudioSession {
  /// `AVAudioSession.Category`.
  public struct Category: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }

    public static let ambient = Category(AudioSession.Category.ambient)
    public static let soloAmbient = Category(AudioSession.Category.soloAmbient)
    public static let playback = Category(AudioSession.Category.playback)
    public static let record = Category(AudioSession.Category.record)
    public static let playAndRecord = Category(AudioSession.Category.playAndRecord)
    /// Deprecated on iOS 10 and not available since; the engine models it.
    public static let audioProcessing = Category(AudioSession.Category.audioProcessing)
    public static let multiRoute = Category(AudioSession.Category.multiRoute)

    public init(_ category: AudioSession.Category) { rawValue = category.rawValue }

    /// The engine's category, or `badParam` for a string it does not know.
    func model() throws(SessionError) -> AudioSession.Category {
      guard let category = AudioSession.Category(rawValue: rawValue) else {
        throw SessionError(
          .badParam,
          "unknown category '\(rawValue)'; valid categories are: "
            + AudioSession.Category.allCases.map(\.rawValue).joined(separator: ", "))
      }
      return category
    }
  }

  /// `AVAudioSession.Mode`.
  public struct Mode: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }

    public static let `default` = Mode(AudioSession.Mode.default)
    public static let voiceChat = Mode(AudioSession.Mode.voiceChat)
    public static let gameChat = Mode(AudioSession.Mode.gameChat)
    public static let videoRecording = Mode(AudioSession.Mode.videoRecording)
    public static let measurement = Mode(AudioSession.Mode.measurement)
    public static let moviePlayback = Mode(AudioSession.Mode.moviePlayback)
    public static let videoChat = Mode(AudioSession.Mode.videoChat)
    public static let spokenAudio = Mode(AudioSession.Mode.spokenAudio)
    public static let voicePrompt = Mode(AudioSession.Mode.voicePrompt)
    /// iOS 26.
    public static let shortFormVideo = Mode(AudioSession.Mode.shortFormVideo)
    /// iOS 26.2.
    public static let dualRoute = Mode(AudioSession.Mode.dualRoute)

    public init(_ mode: AudioSession.Mode) { rawValue = mode.rawValue }

    /// The engine's mode, or `badParam` for a string it does not know.
    func model() throws(SessionError) -> AudioSession.Mode {
      guard let mode = AudioSession.Mode(rawValue: rawValue) else {
        throw SessionError(
          .badParam,
          "unknown mode '\(rawValue)'; valid modes are: "
            + AudioSession.Mode.allCases.map(\.rawValue).joined(separator: ", "))
      }
      return mode
    }
  }

  /// `AVAudioSession.Port`: a port's type, with the strings iOS uses.
  public struct Port: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(_ type: PortType) { rawValue = type.rawValue }

    public static let builtInMic = Port(PortType.builtInMic)
    public static let headsetMic = Port(PortType.headsetMic)
    public static let lineIn = Port(PortType.lineIn)
    public static let continuityMicrophone = Port(PortType.continuityMicrophone)
    public static let builtInReceiver = Port(PortType.builtInReceiver)
    public static let builtInSpeaker = Port(PortType.builtInSpeaker)
    public static let headphones = Port(PortType.headphones)
    public static let lineOut = Port(PortType.lineOut)
    public static let bluetoothA2DP = Port(PortType.bluetoothA2DP)
    public static let HDMI = Port(PortType.HDMI)
    public static let airPlay = Port(PortType.airPlay)
    public static let bluetoothLE = Port(PortType.bluetoothLE)
    public static let bluetoothHFP = Port(PortType.bluetoothHFP)
    public static let usbAudio = Port(PortType.usbAudio)
    public static let carAudio = Port(PortType.carAudio)
    public static let virtual = Port(PortType.virtual)
    public static let PCI = Port(PortType.PCI)
    public static let fireWire = Port(PortType.fireWire)
    public static let displayPort = Port(PortType.displayPort)
    public static let AVB = Port(PortType.AVB)
    public static let thunderbolt = Port(PortType.thunderbolt)
    /// iOS 27: output to a media device of a system-wide extension. No device preset has it.
    public static let mediaDeviceExtension = Port("MediaDeviceExtension")
  }

  /// `AVAudioSession.Location` of a data source.
  public struct Location: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public static let upper = Location("Upper")
    public static let lower = Location("Lower")
    // Deprecated on iOS (the orientation is `Orientation`'s now) but still declared, with the
    // orientations' strings: code matches a data source's name against
    // `Location.orientationFront.rawValue` ("Front"). Not marked deprecated here, so that such
    // code builds with -warnings-as-errors as it does on iOS with the deprecation silenced.
    public static let orientationTop = Location("Top")
    public static let orientationBottom = Location("Bottom")
    public static let orientationFront = Location("Front")
    public static let orientationBack = Location("Back")
    public static let orientationLeft = Location("Left")
    public static let orientationRight = Location("Right")
  }

  /// `AVAudioSession.Orientation` of a data source.
  public struct Orientation: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public static let top = Orientation("Top")
    public static let bottom = Orientation("Bottom")
    public static let front = Orientation("Front")
    public static let back = Orientation("Back")
    public static let left = Orientation("Left")
    public static let right = Orientation("Right")
  }

  /// `AVAudioSession.PolarPattern` of a data source.
  public struct PolarPattern: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public static let omnidirectional = PolarPattern("Omnidirectional")
    public static let cardioid = PolarPattern("Cardioid")
    public static let subcardioid = PolarPattern("Subcardioid")
    public static let stereo = PolarPattern("Stereo")
  }

  /// `AVAudioSession.RecordPermission` (deprecated on iOS 17 for ``AVAudioApplication``'s).
  public enum RecordPermission: UInt, Sendable, Hashable {
    case undetermined = 0x756E_6474  // 'undt'
    case denied = 0x6465_6E79  // 'deny'
    case granted = 0x6772_6E74  // 'grnt'
  }

  /// `AVAudioSession.IOType`, for ``setAggregatedIOPreference(_:)``.
  public enum IOType: UInt, Sendable, Hashable {
    case notSpecified = 0
    case aggregated = 1
  }

  /// `AVAudioSession.StereoOrientation` (iOS 14).
  public enum StereoOrientation: Int, Sendable, Hashable {
    case none = 0
    case portrait = 1
    case portraitUpsideDown = 2
    case landscapeRight = 3
    case landscapeLeft = 4
  }

  /// `AVAudioSession.ActivationOptions` (iOS 27), for ``activate(options:)``.
  public struct ActivationOptions: OptionSet, Sendable, Hashable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
  }

  /// `AVAudioSession.DeactivationOptions` (iOS 27), for ``deactivate(options:)``.
  public struct DeactivationOptions: OptionSet, Sendable, Hashable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let notifyOthersOnDeactivation = DeactivationOptions(rawValue: 1)
  }
}
