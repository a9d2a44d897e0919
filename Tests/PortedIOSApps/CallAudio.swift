import AVFoundation

/// A calling app's audio, with the error handling such apps have: a call refused during a phone
/// call, a deactivation that reports running I/O, the record permission, the mute button.
public final class CallAudio {
  public enum Outcome: Equatable {
    case ok
    case phoneCallInProgress
    case ioStillRunning
    case noPermission
    case failed(domain: String, code: Int)
  }

  private let session = AVAudioSession.sharedInstance()

  public init() {}

  public func startCall() -> Outcome {
    guard AVAudioApplication.shared.recordPermission == .granted else { return .noPermission }
    do {
      try session.setCategory(.playAndRecord, mode: .voiceChat, options: [.allowBluetoothHFP])
      try session.setPreferredIOBufferDuration(0.01)
      try session.setActive(true)
      return .ok
    } catch let error as NSError
      where error.code == AVAudioSession.ErrorCode.insufficientPriority.rawValue
    {
      return .phoneCallInProgress
    } catch let error as NSError {
      return .failed(domain: error.domain, code: error.code)
    }
  }

  public func endCall() -> Outcome {
    do {
      try session.setActive(false, options: .notifyOthersOnDeactivation)
      return .ok
    } catch let error as NSError where error.code == AVAudioSession.ErrorCode.isBusy.rawValue {
      // The session is inactive anyway; the I/O should have been stopped first.
      return .ioStillRunning
    } catch let error as NSError {
      return .failed(domain: error.domain, code: error.code)
    }
  }

  /// Asks for a channel count the route cannot give: iOS answers with -50.
  public func askForChannels(_ count: Int) -> Outcome {
    do {
      try session.setPreferredInputNumberOfChannels(count)
      return .ok
    } catch let error as NSError where error.domain == NSOSStatusErrorDomain {
      return .failed(domain: error.domain, code: error.code)
    } catch {
      return .failed(domain: "", code: 0)
    }
  }

  public func toggleMute() throws {
    let application = AVAudioApplication.shared
    try application.setInputMuted(!application.isInputMuted)
  }

  public var isSpeakerRoute: Bool {
    return session.currentRoute.outputs.contains { $0.portType == .builtInSpeaker }
  }

  public func useSpeaker(_ on: Bool) throws {
    try session.overrideOutputAudioPort(on ? .speaker : .none)
  }

  /// The microphone's data sources, by name, and which is in use.
  public var microphones: (names: [String], selected: String?) {
    let input = session.currentRoute.inputs.first
    return (
      input?.dataSources?.map { $0.dataSourceName } ?? [],
      input?.selectedDataSource?.dataSourceName
    )
  }

  public func useMicrophone(named name: String) throws {
    guard let input = session.currentRoute.inputs.first,
      let source = input.dataSources?.first(where: { $0.dataSourceName == name })
    else { return }
    try input.setPreferredDataSource(source)
  }
}
