public import AudioSession
public import Foundation

// Notifications, as a typed AsyncSequence and as NotificationCenter posts with AVFoundation's
// names and userInfo keys (docs/avaudiosession.md §1.5), so that an iOS handler ports with few
// changes:
//
//     NotificationCenter.default.addObserver(
//       forName: AVAudioSession.interruptionNotification, object: session, queue: nil
//     ) { note in
//       guard let raw = note.userInfo?[AVAudioSessionInterruptionTypeKey] as? UInt,
//         let type = AVAudioSession.InterruptionType(rawValue: raw) else { return }
//       …
//     }

/// `AVAudioSessionInterruptionTypeKey`: `NSNumber` of ``InterruptionType``.
public let AVAudioSessionInterruptionTypeKey = "AVAudioSessionInterruptionTypeKey"
/// `AVAudioSessionInterruptionOptionKey`: `NSNumber` of ``InterruptionOptions``, only for `ended`.
public let AVAudioSessionInterruptionOptionKey = "AVAudioSessionInterruptionOptionKey"
/// `AVAudioSessionInterruptionReasonKey`: `NSNumber` of ``InterruptionReason``, only for
/// `began`.
public let AVAudioSessionInterruptionReasonKey = "AVAudioSessionInterruptionReasonKey"
/// `AVAudioSessionRouteChangeReasonKey`: `NSNumber` of ``RouteChangeReason``.
public let AVAudioSessionRouteChangeReasonKey = "AVAudioSessionRouteChangeReasonKey"
/// `AVAudioSessionRouteChangePreviousRouteKey`: the previous route, an
/// ``AVAudioSessionRouteDescription``.
public let AVAudioSessionRouteChangePreviousRouteKey = "AVAudioSessionRouteChangePreviousRouteKey"
/// `AVAudioSessionSilenceSecondaryAudioHintTypeKey`: `NSNumber` of
/// ``SilenceSecondaryAudioHintType``.
public let AVAudioSessionSilenceSecondaryAudioHintTypeKey =
  "AVAudioSessionSilenceSecondaryAudioHintTypeKey"
/// `AVAudioSessionInterruptionWasSuspendedKey` (iOS 10.3, deprecated 14.5): `NSNumber` of a
/// `Bool`, in `began` notifications: true when the interruption is the app's suspension
/// (reason `appWasSuspended`, profile `ios15`).
public let AVAudioSessionInterruptionWasSuspendedKey = "AVAudioSessionInterruptionWasSuspendedKey"
/// `AVAudioSessionSpatialAudioEnabledKey` (iOS 15): never posted, no simulated port renders
/// spatial audio.
public let AVAudioSessionSpatialAudioEnabledKey = "AVAudioSessionSpatialAudioEnabledKey"
/// Not Apple's: the cause of an interruption or duck (`by` in transcripts), a `String`.
public let AudioSessionCauseKey = "AudioSessionCauseKey"
/// `AVAudioSessionDeactivationContextKey` (iOS 27): a ``DeactivationContext``.
public let AVAudioSessionDeactivationContextKey = "AVAudioSessionDeactivationContextKey"
/// `AVAudioSessionResumptionContextKey` (iOS 27): a ``ResumptionContext``.
public let AVAudioSessionResumptionContextKey = "AVAudioSessionResumptionContextKey"

/// `AVAudioSession.InterruptionContext` (iOS 27): why the system deactivated the session.
public struct InterruptionContext: Sendable, Hashable {
  public let reason: AVAudioSession.InterruptionReason
}

/// `AVAudioSession.DeactivationContext` (iOS 27): who deactivated the session and, when the
/// system interrupted it, why.
public struct DeactivationContext: Sendable, Hashable {
  public let source: AVAudioSession.DeactivationSource
  /// Present when the system interrupted the session.
  public let interruptionContext: InterruptionContext?
}

/// `AVAudioSession.ResumptionContext` (iOS 27).
public struct ResumptionContext: Sendable, Hashable {
  public let recommendation: AVAudioSession.ResumptionRecommendation
}

extension AVAudioSession {
  /// `AVAudioSessionInterruptionNotification`.
  public static let interruptionNotification = Notification.Name(
    "AVAudioSessionInterruptionNotification")
  /// `AVAudioSessionRouteChangeNotification`.
  public static let routeChangeNotification = Notification.Name(
    "AVAudioSessionRouteChangeNotification")
  /// `AVAudioSessionMediaServicesWereLostNotification`.
  public static let mediaServicesWereLostNotification = Notification.Name(
    "AVAudioSessionMediaServicesWereLostNotification")
  /// `AVAudioSessionMediaServicesWereResetNotification`.
  public static let mediaServicesWereResetNotification = Notification.Name(
    "AVAudioSessionMediaServicesWereResetNotification")
  /// `AVAudioSessionSilenceSecondaryAudioHintNotification`.
  public static let silenceSecondaryAudioHintNotification = Notification.Name(
    "AVAudioSessionSilenceSecondaryAudioHintNotification")
  /// `AVAudioSessionDidBecomeInactiveNotification` (iOS 27; posted under the profile `ios27`).
  public static let didBecomeInactiveNotification = Notification.Name(
    "AVAudioSessionDidBecomeInactiveNotification")
  /// `AVAudioSessionResumptionRecommendationNotification` (iOS 27; profile `ios27`).
  public static let resumptionRecommendationNotification = Notification.Name(
    "AVAudioSessionResumptionRecommendationNotification")
  /// `AVAudioSessionDidBecomeActiveNotification` (iOS 27): posted by this library after a
  /// successful ``activate(options:)`` or ``setActive(_:options:)`` that activated the session.
  public static let didBecomeActiveNotification = Notification.Name(
    "AVAudioSessionDidBecomeActiveNotification")
  /// `AVAudioSessionSpatialPlaybackCapabilitiesChangedNotification` (iOS 15): never posted (no
  /// simulated port renders spatial audio).
  public static let spatialPlaybackCapabilitiesChangedNotification = Notification.Name(
    "AVAudioSessionSpatialPlaybackCapabilitiesChangedNotification")
  /// `AVAudioSessionAvailableInputsChangeNotification` (iOS 26): posted to a session whose
  /// category records when its ``availableInputs`` change (an input device came or went).
  public static let availableInputsChangeNotification = Notification.Name(
    "AVAudioSessionAvailableInputsChangeNotification")

  public typealias InterruptionContext = AudioSessionClient.InterruptionContext
  public typealias DeactivationContext = AudioSessionClient.DeactivationContext
  public typealias ResumptionContext = AudioSessionClient.ResumptionContext
  /// `AVAudioSession.deactivationContextKey` (iOS 27).
  public static let deactivationContextKey = AVAudioSessionDeactivationContextKey
  /// `AVAudioSession.resumptionContextKey` (iOS 27).
  public static let resumptionContextKey = AVAudioSessionResumptionContextKey

  /// Every event of this session from now on: AVAudioSession's notifications, plus what the
  /// system did silently (`duck`, `mute`, `pause`, …). Each access is a new subscription; it
  /// buffers the newest 64 events a slow reader has not taken, and ends when the session is
  /// invalidated.
  public var events: AsyncStream<SessionEvent> {
    let (stream, continuation) = AsyncStream.makeStream(
      of: SessionEvent.self, bufferingPolicy: .bufferingNewest(64))
    let key = UUID()
    lock.lock()
    let ended = invalidated
    if !ended { subscribers[key] = continuation }
    lock.unlock()
    if ended {
      continuation.finish()
    } else {
      continuation.onTermination = { [weak self] _ in
        guard let self else { return }
        self.lock.lock()
        self.subscribers[key] = nil
        self.lock.unlock()
      }
    }
    return stream
  }

  /// A notification from the daemon: this session's only.
  func deliver(_ notification: SessionNotification) {
    guard notification.session == name else { return }
    switch notification.event {
    case .mediaServicesWereReset:
      // The media server put the session back to its initial configuration.
      lock.lock()
      configuration = .initial
      configured = false
      knownActive = false
      lock.unlock()
    case .interruptionBegan, .didBecomeInactive:
      lock.lock()
      knownActive = false
      lock.unlock()
    default:
      break
    }
    publish(notification.event)
  }

  /// Hands an event to every subscriber and posts its notification, if it has one: inside the
  /// session's scope when it has one (``withInProcessEngine(_:isolation:_:)``), whatever thread
  /// the event came on.
  func publish(_ event: SessionEvent) {
    insideScope { publishHere(event) }
  }

  private func publishHere(_ event: SessionEvent) {
    lock.lock()
    let continuations = Array(subscribers.values)
    lock.unlock()
    for continuation in continuations { continuation.yield(event) }
    if case .inputMuteStateChange(let muted) = event {
      // AVAudioApplication's, as iOS posts it: on the default center, the application its object.
      NotificationCenter.default.post(
        name: AVAudioApplication.inputMuteStateChangeNotification,
        object: AVAudioApplication.shared,
        userInfo: [AVAudioApplication.muteStateKey: NSNumber(value: muted)])
      return
    }
    if let (name, userInfo) = Self.notification(for: event) {
      notificationCenter.post(name: name, object: self, userInfo: userInfo)
    }
    postMessage(for: event)
  }

  /// The NotificationCenter form of an event; nil for what iOS does silently.
  public static func notification(for event: SessionEvent) -> (
    Notification.Name, [AnyHashable: Any]?
  )? {
    switch event {
    case .interruptionBegan(let reason, let cause):
      var userInfo: [AnyHashable: Any] = [
        AVAudioSessionInterruptionTypeKey: NSNumber(value: InterruptionType.began.rawValue),
        AVAudioSessionInterruptionReasonKey: NSNumber(value: reason.rawValue),
        AudioSessionCauseKey: cause.name,
      ]
      if reason == .appWasSuspended {
        userInfo[AVAudioSessionInterruptionWasSuspendedKey] = NSNumber(value: true)
      }
      return (interruptionNotification, userInfo)
    case .interruptionEnded(let options, let cause):
      return (
        interruptionNotification,
        [
          AVAudioSessionInterruptionTypeKey: NSNumber(value: InterruptionType.ended.rawValue),
          AVAudioSessionInterruptionOptionKey: NSNumber(value: options.rawValue),
          AudioSessionCauseKey: cause.name,
        ]
      )
    case .routeChange(let reason, let previous, _):
      return (
        routeChangeNotification,
        [
          AVAudioSessionRouteChangeReasonKey: NSNumber(value: reason.rawValue),
          AVAudioSessionRouteChangePreviousRouteKey: AVAudioSessionRouteDescription(previous),
        ]
      )
    case .silenceSecondaryAudioHint(let type):
      return (
        silenceSecondaryAudioHintNotification,
        [AVAudioSessionSilenceSecondaryAudioHintTypeKey: NSNumber(value: type.rawValue)]
      )
    case .mediaServicesWereLost: return (mediaServicesWereLostNotification, nil)
    case .mediaServicesWereReset: return (mediaServicesWereResetNotification, nil)
    case .didBecomeInactive(let source, let reason):
      let context = DeactivationContext(
        source: DeactivationSource(source),
        interruptionContext: reason.map { InterruptionContext(reason: InterruptionReason($0)) })
      return (didBecomeInactiveNotification, [AVAudioSessionDeactivationContextKey: context])
    case .resumptionRecommendation(let recommendation):
      return (
        resumptionRecommendationNotification,
        [
          AVAudioSessionResumptionContextKey: ResumptionContext(
            recommendation: ResumptionRecommendation(recommendation))
        ]
      )
    case .outputMuteStateChange(let muted):
      return (outputMuteStateChangeNotification, [muteStateKey: NSNumber(value: muted)])
    case .userIntentToUnmuteOutput: return (userIntentToUnmuteOutputNotification, nil)
    case .availableInputsChange: return (availableInputsChangeNotification, nil)
    case .inputMuteStateChange(let muted):
      return (
        AVAudioApplication.inputMuteStateChangeNotification,
        [AVAudioApplication.muteStateKey: NSNumber(value: muted)]
      )
    // promptStyle is key-value observed on iOS: an event here, and the property.
    case .duck, .unduck, .mute, .unmute, .pause, .player, .promptStyle: return nil
    // The library posts didBecomeActive itself once `setActive(true)` has succeeded, under every
    // profile (docs/ios-compat.md): the engine's (profile ios27) would be a second one.
    case .didBecomeActive: return nil
    }
  }
}
