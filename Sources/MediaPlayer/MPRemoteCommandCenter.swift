import AudioSessionClient
public import Foundation

// `import MediaPlayer` on Linux, the remote commands: the command center and its commands with
// their handlers, as on iOS. The shared center's commands are served as the process's MPRIS
// player on the session bus (NowPlayingService; docs/ios-compat.md "MediaPlayer over MPRIS"): a
// desktop's media keys, its lock screen or `playerctl` send them. `MPRemoteCommand.send(_:)`
// sends one in-process, as the lock screen or a headset button would, and is the path the MPRIS
// player's calls take.

/// `MPRemoteCommandHandlerStatus`.
public enum MPRemoteCommandHandlerStatus: Int, Sendable, Hashable {
  case success = 0
  case noSuchContent = 100
  case noActionableNowPlayingItem = 110
  case deviceNotFound = 120
  case commandFailed = 200
}

/// `MPRemoteCommandEvent`.
open class MPRemoteCommandEvent: NSObject, @unchecked Sendable {
  public let command: MPRemoteCommand
  public let timestamp: TimeInterval

  public init(command: MPRemoteCommand) {
    self.command = command
    timestamp = ProcessInfo.processInfo.systemUptime
    super.init()
  }
}

/// `MPChangePlaybackPositionCommandEvent`.
open class MPChangePlaybackPositionCommandEvent: MPRemoteCommandEvent, @unchecked Sendable {
  public let positionTime: TimeInterval

  public init(command: MPRemoteCommand, positionTime: TimeInterval) {
    self.positionTime = positionTime
    super.init(command: command)
  }
}

/// `MPSkipIntervalCommandEvent`.
open class MPSkipIntervalCommandEvent: MPRemoteCommandEvent, @unchecked Sendable {
  public let interval: TimeInterval

  public init(command: MPRemoteCommand, interval: TimeInterval) {
    self.interval = interval
    super.init(command: command)
  }
}

/// `MPChangePlaybackRateCommandEvent`.
open class MPChangePlaybackRateCommandEvent: MPRemoteCommandEvent, @unchecked Sendable {
  public let playbackRate: Float

  public init(command: MPRemoteCommand, playbackRate: Float) {
    self.playbackRate = playbackRate
    super.init(command: command)
  }
}

/// `MPRemoteCommand`: handlers added with ``addTarget(handler:)``.
open class MPRemoteCommand: NSObject, @unchecked Sendable {
  private let lock = NSLock()
  private var enabled = true
  private var targets:
    [(token: NSObject, handler: (MPRemoteCommandEvent) -> MPRemoteCommandHandlerStatus)] = []

  /// `isEnabled`.
  open var isEnabled: Bool {
    get { lock.withLock { enabled } }
    set {
      lock.withLock { enabled = newValue }
      NowPlayingService.shared.changed()
    }
  }

  /// Whether a handler is set.
  var hasTargets: Bool { lock.withLock { !targets.isEmpty } }

  /// Whether sending the command reaches a handler: it is enabled and has one.
  var isAvailable: Bool { lock.withLock { enabled && !targets.isEmpty } }

  /// `addTarget(handler:)`: returns the token ``removeTarget(_:)`` takes.
  @discardableResult
  open func addTarget(
    handler: @escaping (MPRemoteCommandEvent) -> MPRemoteCommandHandlerStatus
  ) -> Any {
    let token = NSObject()
    lock.withLock { targets.append((token, handler)) }
    NowPlayingService.shared.changed()
    return token
  }

  /// `removeTarget(_:)`: nil removes every handler.
  open func removeTarget(_ target: Any?) {
    lock.withLock {
      guard let token = target as? NSObject else {
        targets.removeAll()
        return
      }
      targets.removeAll { $0.token === token }
    }
    NowPlayingService.shared.changed()
  }

  /// Not Apple's: sends the command as the system would (the lock screen, a headset button):
  /// each handler runs in order; the first status that is not `success` is returned.
  /// `commandFailed` when the command is disabled, `noSuchContent` when no handler is set.
  @discardableResult
  open func send(_ event: MPRemoteCommandEvent? = nil) -> MPRemoteCommandHandlerStatus {
    let (enabled, handlers) = lock.withLock { (self.enabled, targets.map(\.handler)) }
    guard enabled else { return .commandFailed }
    guard !handlers.isEmpty else { return .noSuchContent }
    let event = event ?? MPRemoteCommandEvent(command: self)
    for handler in handlers {
      let status = handler(event)
      if status != .success { return status }
    }
    return .success
  }
}

/// `MPSkipIntervalCommand`.
open class MPSkipIntervalCommand: MPRemoteCommand, @unchecked Sendable {
  /// `preferredIntervals`, in seconds.
  open var preferredIntervals: [NSNumber] = [15]
}

/// `MPChangePlaybackRateCommand`.
open class MPChangePlaybackRateCommand: MPRemoteCommand, @unchecked Sendable {
  /// `supportedPlaybackRates`: with a target, they bound the MPRIS player's `MinimumRate` and
  /// `MaximumRate`.
  open var supportedPlaybackRates: [NSNumber] = [1] {
    didSet { NowPlayingService.shared.changed() }
  }
}

/// `MPChangePlaybackPositionCommand`.
open class MPChangePlaybackPositionCommand: MPRemoteCommand, @unchecked Sendable {}

/// `MPFeedbackCommand`.
open class MPFeedbackCommand: MPRemoteCommand, @unchecked Sendable {
  open var isActive = false
  open var localizedTitle = ""
  open var localizedShortTitle = ""
}

/// `MPRemoteCommandCenter`.
open class MPRemoteCommandCenter: NSObject, @unchecked Sendable {
  private static let center: MPRemoteCommandCenter = {
    let center = MPRemoteCommandCenter()
    AVAudioSession.onResetSharedState { [weak center] in
      // As at launch: every command enabled, none with a target.
      for command in center?.allCommands ?? [] {
        command.removeTarget(nil)
        command.isEnabled = true
      }
    }
    return center
  }()

  /// `shared()`.
  open class func shared() -> MPRemoteCommandCenter { center }

  public let pauseCommand = MPRemoteCommand()
  public let playCommand = MPRemoteCommand()
  public let stopCommand = MPRemoteCommand()
  public let togglePlayPauseCommand = MPRemoteCommand()
  public let enableLanguageOptionCommand = MPRemoteCommand()
  public let disableLanguageOptionCommand = MPRemoteCommand()
  public let changePlaybackRateCommand = MPChangePlaybackRateCommand()
  public let changeRepeatModeCommand = MPRemoteCommand()
  public let changeShuffleModeCommand = MPRemoteCommand()
  public let nextTrackCommand = MPRemoteCommand()
  public let previousTrackCommand = MPRemoteCommand()
  public let skipForwardCommand = MPSkipIntervalCommand()
  public let skipBackwardCommand = MPSkipIntervalCommand()
  public let seekForwardCommand = MPRemoteCommand()
  public let seekBackwardCommand = MPRemoteCommand()
  public let changePlaybackPositionCommand = MPChangePlaybackPositionCommand()
  public let ratingCommand = MPRemoteCommand()
  public let likeCommand = MPFeedbackCommand()
  public let dislikeCommand = MPFeedbackCommand()
  public let bookmarkCommand = MPFeedbackCommand()

  /// Every command of the center.
  var allCommands: [MPRemoteCommand] {
    [
      pauseCommand, playCommand, stopCommand, togglePlayPauseCommand,
      enableLanguageOptionCommand, disableLanguageOptionCommand, changePlaybackRateCommand,
      changeRepeatModeCommand, changeShuffleModeCommand, nextTrackCommand, previousTrackCommand,
      skipForwardCommand, skipBackwardCommand, seekForwardCommand, seekBackwardCommand,
      changePlaybackPositionCommand, ratingCommand, likeCommand, dislikeCommand, bookmarkCommand,
    ]
  }
}
