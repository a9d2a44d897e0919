import AVFAudio

/// An iOS 27 player that follows its session through the typed lifecycle messages
/// (`addObserver(of:for:)` with `.didBecomeActive`, `.didBecomeInactive`,
/// `.resumptionRecommendation`) instead of the interruption notification, and asks for the
/// channel layouts of a CarPlay output.
@MainActor
public final class DrivingPlayer {
  public private(set) var recorded: [String] = []
  public private(set) var isPlaying = false
  private var tokens: [NotificationCenter.ObservationToken] = []

  public init() {}

  public func play() throws {
    let session = AVAudioSession.sharedInstance()
    try session.setCategory(.playback, mode: .spokenAudio)
    let center = NotificationCenter.default
    tokens.append(
      center.addObserver(of: session, for: .didBecomeActive) { [weak self] _ in
        self?.recorded.append("active")
      })
    tokens.append(
      center.addObserver(of: session, for: .didBecomeInactive) { [weak self] message in
        guard let self = self else { return }
        switch message.deactivationResult {
        case .appDeactivated:
          self.recorded.append("inactive: app")
        case .systemInterruption(let context):
          self.isPlaying = false
          self.recorded.append("inactive: interrupted (\(context.reason.rawValue))")
        }
      })
    tokens.append(
      center.addObserver(of: session, for: .resumptionRecommendation) { [weak self] message in
        guard let self = self, message.recommendation == .shouldResume else { return }
        do {
          try AVAudioSession.sharedInstance().setActive(true)
          self.isPlaying = true
          self.recorded.append("resumed")
        } catch {
          self.recorded.append("resume failed")
        }
      })
    try session.setActive(true)
    isPlaying = true
  }

  /// The channel counts of the output's layouts (CarPlay and AirPlay outputs only).
  public var outputChannelCounts: [Int] {
    AVAudioSession.sharedInstance().supportedOutputChannelLayouts.map { Int($0.channelCount) }
  }

  public func stop() throws {
    for token in tokens { NotificationCenter.default.removeObserver(token) }
    tokens.removeAll()
    isPlaying = false
    try AVAudioSession.sharedInstance().setActive(false)
  }
}
