/// An audio session category: what the app's audio is for.
///
/// The raw value is Apple's constant string (`AVAudioSessionCategoryPlayback`); ``name`` is the
/// Swift case name used on the command line, in policy files and in transcripts
/// (docs/avaudiosession.md §1.1).
public enum Category: String, CaseIterable, Sendable, Hashable, Codable {
  case ambient = "AVAudioSessionCategoryAmbient"
  case soloAmbient = "AVAudioSessionCategorySoloAmbient"
  case playback = "AVAudioSessionCategoryPlayback"
  case record = "AVAudioSessionCategoryRecord"
  case playAndRecord = "AVAudioSessionCategoryPlayAndRecord"
  case audioProcessing = "AVAudioSessionCategoryAudioProcessing"
  case multiRoute = "AVAudioSessionCategoryMultiRoute"

  /// The Swift case name (`playAndRecord`).
  public var name: String {
    switch self {
    case .ambient: "ambient"
    case .soloAmbient: "soloAmbient"
    case .playback: "playback"
    case .record: "record"
    case .playAndRecord: "playAndRecord"
    case .audioProcessing: "audioProcessing"
    case .multiRoute: "multiRoute"
    }
  }
}

extension Category: NamedCase {}
