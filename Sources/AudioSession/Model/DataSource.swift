/// `AVAudioSession.PolarPattern`: the directivity of a microphone data source
/// (docs/avaudiosession.md §7.1, §13.5; `devices.json` `hardware.dataSources`).
public enum PolarPattern: String, Sendable, Hashable, CaseIterable, NamedCase {
  case omnidirectional
  case cardioid
  case subcardioid
  /// iOS 14: a stereo image from two microphones; the input then carries two channels.
  case stereo

  public var name: String { rawValue }

  /// Apple's string (`AVAudioSessionPolarPatternOmnidirectional` is `"Omnidirectional"`).
  public var appleName: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }
}

/// `AVAudioSession.Location` of a data source on the device: `upper` or `lower`.
public enum DataSourceLocation: String, Sendable, Hashable, CaseIterable, NamedCase {
  case upper
  case lower

  public var name: String { rawValue }
  /// Apple's string (`"Upper"`).
  public var appleName: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }
}

/// `AVAudioSession.Orientation` of a data source, relative to the device's natural orientation.
public enum DataSourceOrientation: String, Sendable, Hashable, CaseIterable, NamedCase {
  case top
  case bottom
  case front
  case back
  case left
  case right

  public var name: String { rawValue }
  /// Apple's string (`"Front"`), which is also the built-in mic's data source name.
  public var appleName: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }
}

/// One data source a port type offers (`devices.json` `hardware.dataSources`).
public struct DataSourceSpec: Sendable, Hashable {
  /// `dataSourceName` (`"Bottom"`).
  public var name: String
  public var location: DataSourceLocation?
  public var orientation: DataSourceOrientation?
  /// The patterns it can take, where the port has the channels each needs
  /// (`hardware.polarPatternChannels`).
  public var polarPatterns: [PolarPattern]
  /// The pattern selected while none is preferred; nil when `polarPatterns` is empty.
  public var polarPattern: PolarPattern?

  public init(
    name: String, location: DataSourceLocation? = nil, orientation: DataSourceOrientation? = nil,
    polarPatterns: [PolarPattern] = [], polarPattern: PolarPattern? = nil
  ) {
    self.name = name
    self.location = location
    self.orientation = orientation
    self.polarPatterns = polarPatterns
    self.polarPattern = polarPattern
  }
}

/// A data source of a session's current input as the session reads it.
public struct DataSourceStatus: Sendable, Hashable {
  public var name: String
  public var location: DataSourceLocation?
  public var orientation: DataSourceOrientation?
  /// `supportedPolarPatterns`: empty when the source has no selectable pattern.
  public var supportedPolarPatterns: [PolarPattern]
  /// `selectedPolarPattern`: the preferred one when set, else the source's own.
  public var selectedPolarPattern: PolarPattern?
  /// `preferredPolarPattern`: nil until one is set.
  public var preferredPolarPattern: PolarPattern?
  /// Whether it is the input's selected data source.
  public var selected: Bool

  public init(
    name: String, location: DataSourceLocation? = nil, orientation: DataSourceOrientation? = nil,
    supportedPolarPatterns: [PolarPattern] = [], selectedPolarPattern: PolarPattern? = nil,
    preferredPolarPattern: PolarPattern? = nil, selected: Bool = false
  ) {
    self.name = name
    self.location = location
    self.orientation = orientation
    self.supportedPolarPatterns = supportedPolarPatterns
    self.selectedPolarPattern = selectedPolarPattern
    self.preferredPolarPattern = preferredPolarPattern
    self.selected = selected
  }
}
