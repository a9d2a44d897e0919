import AVFoundation

/// A field recorder's microphone picker, written as iOS apps pick a built-in microphone since
/// iOS 14: the built-in mic as the preferred input, the data source facing the subject (named
/// after its orientation), its stereo polar pattern where it has one, and the stereo image
/// turned to the interface's orientation.
public final class StereoRecorder {
  public enum Capture: Equatable {
    case unavailable
    case mono
    case stereo
  }

  public private(set) var capture = Capture.unavailable

  public init() {}

  public func prepare() throws {
    let session = AVAudioSession.sharedInstance()
    try session.setCategory(.record, mode: .default, options: [])
    try session.setActive(true)
  }

  /// Makes the built-in microphone the preferred input; false on a device without one.
  public func preferBuiltInMicrophone() throws -> Bool {
    let session = AVAudioSession.sharedInstance()
    guard let inputs = session.availableInputs,
      let builtIn = inputs.first(where: { $0.portType == .builtInMic })
    else { return false }
    try session.setPreferredInput(builtIn)
    return true
  }

  /// Picks the microphone at `side` (its data source bears the side's name) and, when it offers
  /// one, its stereo pattern; else its cardioid pattern, which favours the side it faces.
  @discardableResult
  public func pick(
    _ side: AVAudioSession.Location, holding orientation: AVAudioSession.StereoOrientation
  ) throws -> Capture {
    let session = AVAudioSession.sharedInstance()
    guard let input = session.preferredInput,
      let source = input.dataSources?.first(where: { $0.dataSourceName == side.rawValue }),
      let patterns = source.supportedPolarPatterns
    else {
      capture = .unavailable
      return capture
    }
    if patterns.contains(.stereo) {
      try source.setPreferredPolarPattern(.stereo)
    } else if patterns.contains(.cardioid) {
      try source.setPreferredPolarPattern(.cardioid)
    }
    try input.setPreferredDataSource(source)
    try session.setPreferredInputOrientation(orientation)
    capture = patterns.contains(.stereo) ? .stereo : .mono
    return capture
  }

  /// The microphone in use and its pattern, as the route reports them.
  public var inUse: (name: String?, pattern: AVAudioSession.PolarPattern?) {
    let source = AVAudioSession.sharedInstance().currentRoute.inputs.first?.selectedDataSource
    return (source?.dataSourceName, source?.selectedPolarPattern)
  }

  /// What asking for stereo on the microphone at `side` gives: nil when accepted, else the
  /// error's code.
  public func forceStereo(_ side: AVAudioSession.Location) -> Int? {
    let session = AVAudioSession.sharedInstance()
    guard
      let source = session.inputDataSources?.first(where: { $0.dataSourceName == side.rawValue })
    else { return nil }
    do {
      try source.setPreferredPolarPattern(.stereo)
      return nil
    } catch let error as NSError {
      return error.code
    }
  }
}
