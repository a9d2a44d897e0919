import AudioSession
public import Foundation

// iOS 27's typed messages (docs/avaudiosession.md §13.1): the same three lifecycle events as
// `didBecomeActiveNotification`, `didBecomeInactiveNotification` and
// `resumptionRecommendationNotification`, as `NotificationCenter.MainActorMessage`s, so that
//
//     let token = NotificationCenter.default.addObserver(of: session, for: .didBecomeInactive) {
//       message in
//       if case .systemInterruption(let context) = message.deactivationResult { … }
//     }
//
// compiles and runs as on iOS. Linux's Foundation has the message API but does not bridge a
// posted `Notification` to message observers (nor a message to name observers), so the session
// posts both forms; the messages on the main actor, as Apple posts them "on the main queue".

extension AVAudioSession {
  /// `AVAudioSession.DidBecomeActiveMessage` (iOS 27): the session became active. No payload.
  public struct DidBecomeActiveMessage: NotificationCenter.MainActorMessage, Sendable, Hashable {
    public typealias Subject = AVAudioSession
    public static var name: Notification.Name { AVAudioSession.didBecomeActiveNotification }

    public init() {}

    public static func makeMessage(_ notification: Notification) -> Self? {
      notification.name == name ? Self() : nil
    }

    public static func makeNotification(_ message: Self) -> Notification {
      Notification(name: name)
    }
  }

  /// `AVAudioSession.DidBecomeInactiveMessage` (iOS 27): the session became inactive, by its
  /// own deactivation or by the system's interruption.
  public struct DidBecomeInactiveMessage: NotificationCenter.MainActorMessage, Sendable, Hashable {
    public typealias Subject = AVAudioSession
    public static var name: Notification.Name { AVAudioSession.didBecomeInactiveNotification }

    /// Who ended the session's activity.
    public enum DeactivationResult: Sendable, Hashable {
      /// The system interrupted the session; the context says why.
      case systemInterruption(InterruptionContext)
      /// The app deactivated its session.
      case appDeactivated
    }

    public var deactivationResult: DeactivationResult

    public init(deactivationResult: DeactivationResult) {
      self.deactivationResult = deactivationResult
    }

    /// The message of a `didBecomeInactiveNotification`: its `DeactivationContext` in the
    /// notification's userInfo. A system deactivation with no interruption context (the media
    /// server's reset) reads as an interruption of reason `default`.
    public static func makeMessage(_ notification: Notification) -> Self? {
      guard notification.name == name,
        let context = notification.userInfo?[AVAudioSessionDeactivationContextKey]
          as? DeactivationContext
      else { return nil }
      return Self(deactivationResult: DeactivationResult(context))
    }

    public static func makeNotification(_ message: Self) -> Notification {
      Notification(
        name: name, object: nil,
        userInfo: [AVAudioSessionDeactivationContextKey: message.deactivationResult.context])
    }
  }

  /// `AVAudioSession.ResumptionRecommendationMessage` (iOS 27): after a system interruption,
  /// whether the app should resume.
  public struct ResumptionRecommendationMessage: NotificationCenter.MainActorMessage, Sendable,
    Hashable
  {
    public typealias Subject = AVAudioSession
    public static var name: Notification.Name {
      AVAudioSession.resumptionRecommendationNotification
    }

    public var recommendation: ResumptionRecommendation

    public init(recommendation: ResumptionRecommendation) {
      self.recommendation = recommendation
    }

    public static func makeMessage(_ notification: Notification) -> Self? {
      guard notification.name == name,
        let context = notification.userInfo?[AVAudioSessionResumptionContextKey]
          as? ResumptionContext
      else { return nil }
      return Self(recommendation: context.recommendation)
    }

    public static func makeNotification(_ message: Self) -> Notification {
      Notification(
        name: name, object: nil,
        userInfo: [
          AVAudioSessionResumptionContextKey: ResumptionContext(
            recommendation: message.recommendation)
        ])
    }
  }

  /// `AVAudioSession.DeactivationResult` (iOS 27), as spelled at the session's level.
  public typealias DeactivationResult = DidBecomeInactiveMessage.DeactivationResult

  /// Posts the typed message of an event, if it has one, on the main actor.
  func postMessage(for event: SessionEvent) {
    switch event {
    case .didBecomeInactive(let source, let reason):
      let context = DeactivationContext(
        source: DeactivationSource(source),
        interruptionContext: reason.map { InterruptionContext(reason: InterruptionReason($0)) })
      post(DidBecomeInactiveMessage(deactivationResult: DeactivationResult(context)))
    case .resumptionRecommendation(let recommendation):
      post(
        ResumptionRecommendationMessage(
          recommendation: ResumptionRecommendation(recommendation)))
    default:
      break
    }
  }

  /// Posts a message to this session's observers on the main actor.
  func post<Message: NotificationCenter.MainActorMessage & Sendable>(_ message: Message)
  where Message.Subject == AVAudioSession {
    let center = notificationCenter
    Task { @MainActor in center.post(message, subject: self) }
  }
}

extension AVAudioSession.DidBecomeInactiveMessage.DeactivationResult {
  init(_ context: DeactivationContext) {
    if context.source == .app {
      self = .appDeactivated
    } else {
      self = .systemInterruption(
        context.interruptionContext ?? InterruptionContext(reason: .default))
    }
  }

  /// The notification's form of the result.
  var context: DeactivationContext {
    switch self {
    case .appDeactivated: DeactivationContext(source: .app, interruptionContext: nil)
    case .systemInterruption(let interruption):
      DeactivationContext(source: .system, interruptionContext: interruption)
    }
  }
}

// The identifiers of `addObserver(of:for:)`, as Apple declares them.
extension NotificationCenter.MessageIdentifier
where Self == NotificationCenter.BaseMessageIdentifier<AVAudioSession.DidBecomeActiveMessage> {
  /// `.didBecomeActive` (iOS 27).
  public static var didBecomeActive: Self { .init() }
}

extension NotificationCenter.MessageIdentifier
where Self == NotificationCenter.BaseMessageIdentifier<AVAudioSession.DidBecomeInactiveMessage> {
  /// `.didBecomeInactive` (iOS 27).
  public static var didBecomeInactive: Self { .init() }
}

extension NotificationCenter.MessageIdentifier
where
  Self == NotificationCenter.BaseMessageIdentifier<
    AVAudioSession.ResumptionRecommendationMessage
  >
{
  /// `.resumptionRecommendation` (iOS 27).
  public static var resumptionRecommendation: Self { .init() }
}
