public import AudioSession
import AudioSessionWire
import Foundation

// AVAudioSession's preferences and hardware values, route-sharing policy, prompt style, input
// gain and data sources (docs/avaudiosession.md §8, §13.3–§13.5), against the daemon.

extension AVAudioSession {
  /// `routeSharingPolicy`.
  public var routeSharingPolicy: RouteSharingPolicy {
    RouteSharingPolicy(read()?.status.configuration.policy ?? .default)
  }

  /// `promptStyle` (key-value observed on iOS; here also the `promptStyle` event).
  public var promptStyle: PromptStyle { PromptStyle(read()?.status.promptStyle ?? .normal) }

  // MARK: Preferences

  /// `setPreferredSampleRate(_:)`: a hint, granted while the session is active.
  public func setPreferredSampleRate(_ sampleRate: Double) throws {
    try prefer(.sampleRate(sampleRate))
  }

  /// `setPreferredIOBufferDuration(_:)`: a hint, granted while the session is active.
  public func setPreferredIOBufferDuration(_ duration: Double) throws {
    try prefer(.ioBufferDuration(duration))
  }

  /// `setPreferredInputNumberOfChannels(_:)`: `incompatibleCategory` without input.
  public func setPreferredInputNumberOfChannels(_ count: Int) throws {
    try prefer(.inputNumberOfChannels(count))
  }

  /// `setPreferredOutputNumberOfChannels(_:)`: `incompatibleCategory` without output.
  public func setPreferredOutputNumberOfChannels(_ count: Int) throws {
    try prefer(.outputNumberOfChannels(count))
  }

  /// `setPrefersNoInterruptionsFromSystemAlerts(_:)` (iOS 14.5).
  public func setPrefersNoInterruptionsFromSystemAlerts(_ inValue: Bool) throws {
    try prefer(.noInterruptionsFromSystemAlerts(inValue))
  }

  /// `setPrefersInterruptionOnRouteDisconnect(_:)` (iOS 17).
  public func setPrefersInterruptionOnRouteDisconnect(_ inValue: Bool) throws {
    try prefer(.interruptionOnRouteDisconnect(inValue))
  }

  /// `setAggregatedIOPreference(_:)`: playAndRecord and multiRoute only.
  public func setAggregatedIOPreference(_ inIOType: IOType) throws {
    try prefer(.aggregatedIO(inIOType == .aggregated))
  }

  private func prefer(_ preference: SessionPreference) throws {
    try perform(.command(.input(.setPreference(session: name, preference))))
  }

  public var preferredSampleRate: Double { read()?.status.preferences.sampleRate ?? 0 }
  public var preferredIOBufferDuration: Double {
    read()?.status.preferences.ioBufferDuration ?? 0
  }
  public var preferredInputNumberOfChannels: Int {
    read()?.status.preferences.inputNumberOfChannels ?? 0
  }
  public var preferredOutputNumberOfChannels: Int {
    read()?.status.preferences.outputNumberOfChannels ?? 0
  }
  public var prefersNoInterruptionsFromSystemAlerts: Bool {
    read()?.status.prefersNoInterruptionsFromSystemAlerts ?? false
  }
  /// True unless set to false: iOS's default interrupts an active Now Playing session.
  public var prefersInterruptionOnRouteDisconnect: Bool {
    read()?.status.prefersInterruptionOnRouteDisconnect ?? true
  }

  // MARK: Hardware values

  /// `sampleRate`: the simulated hardware's, or the real sink's on a PulseAudio server.
  public var sampleRate: Double { read()?.status.hardware.sampleRate ?? 0 }
  /// `ioBufferDuration`.
  public var ioBufferDuration: Double { read()?.status.hardware.ioBufferDuration ?? 0 }
  /// `inputNumberOfChannels`: 0 when the category has no input.
  public var inputNumberOfChannels: Int { read()?.status.hardware.inputNumberOfChannels ?? 0 }
  /// `outputNumberOfChannels`: 0 when the category has no output.
  public var outputNumberOfChannels: Int { read()?.status.hardware.outputNumberOfChannels ?? 0 }
  /// `inputLatency`, in seconds; 0 when unknown (the simulated backend).
  public var inputLatency: Double { read()?.status.hardware.inputLatency ?? 0 }
  /// `outputLatency`, in seconds; 0 when unknown (the simulated backend).
  public var outputLatency: Double { read()?.status.hardware.outputLatency ?? 0 }

  // MARK: Input gain and data sources

  /// `setInputGain(_:)`: clamped to 0…1; the gain of the current input source.
  public func setInputGain(_ gain: Float) throws {
    try perform(.command(.input(.setInputGain(session: name, Double(gain)))))
  }

  /// `inputGain`.
  public var inputGain: Float { Float(read()?.status.inputGain ?? 0) }

  /// `isInputGainSettable`: the session has an input.
  public var isInputGainSettable: Bool { read()?.status.inputGain != nil }

  /// `setInputDataSource(_:)`: nil selects the input's first data source.
  public func setInputDataSource(_ dataSource: AVAudioSessionDataSourceDescription?) throws {
    let name = dataSource?.dataSourceName ?? inputDataSources?.first?.dataSourceName
    guard let name else {
      throw SessionError(.badParam, "the current input of '\(self.name)' has no data sources")
        .nsError
    }
    try perform(.command(.input(.setDataSource(session: self.name, name))))
  }

  /// `inputDataSource`: nil when the current input has no data sources.
  public var inputDataSource: AVAudioSessionDataSourceDescription? {
    guard let reading = read(), let selected = reading.status.inputDataSource else { return nil }
    return inputDataSources(reading)?.first { $0.dataSourceName == selected }
  }

  /// `inputDataSources` of the current input; nil when it has none.
  public var inputDataSources: [AVAudioSessionDataSourceDescription]? {
    read().flatMap(inputDataSources)
  }

  private func inputDataSources(_ reading: Reading) -> [AVAudioSessionDataSourceDescription]? {
    reading.dataSources.isEmpty
      ? nil
      : reading.dataSources.enumerated().map {
        AVAudioSessionDataSourceDescription(index: $0.offset, $0.element, session: self)
      }
  }

  /// `outputDataSources`: no simulated output port has data sources, so nil, as iOS answers for
  /// such a port.
  public var outputDataSources: [AVAudioSessionDataSourceDescription]? { nil }

  /// `outputDataSource`: nil (no output port has data sources).
  public var outputDataSource: AVAudioSessionDataSourceDescription? { nil }

  /// `setOutputDataSource(_:)`: nil is accepted; any source is `badParam`, the current output
  /// having none.
  public func setOutputDataSource(_ dataSource: AVAudioSessionDataSourceDescription?) throws {
    if let dataSource {
      throw SessionError(
        .badParam, "the current output has no data source '\(dataSource.dataSourceName)'"
      ).nsError
    }
  }

  // MARK: Not Apple's: the system's side, for apps that stand in for it

  /// Tells the system the app went to the foreground, the background, or was suspended (iOS
  /// knows this itself).
  public func setAppState(_ state: AppState) throws {
    try perform(.command(.input(.setAppState(session: name, state))))
  }

  /// Tells the system the app is (not) the Now Playing app (iOS decides this itself).
  public func setNowPlaying(_ nowPlaying: Bool) throws {
    try perform(.command(.input(.setNowPlaying(session: name, nowPlaying))))
  }
}
