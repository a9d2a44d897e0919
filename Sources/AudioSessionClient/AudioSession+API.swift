import AudioSessionCore
import AudioSessionWire
import Foundation

// AVAudioSession's calls and properties (docs/avaudiosession.md §3–§8), against the daemon.

extension AudioSession {
  // Apple's nested type names, so that `AudioSession.Category` reads like
  // `AVAudioSession.Category`. The module is `AudioSessionCore`, so its names need no detour.
  public typealias Category = AudioSessionCore.Category
  public typealias Mode = AudioSessionCore.Mode
  public typealias CategoryOptions = AudioSessionCore.CategoryOptions
  public typealias SetActiveOptions = AudioSessionCore.SetActiveOptions
  public typealias PortOverride = AudioSessionCore.PortOverride
  public typealias InterruptionType = AudioSessionCore.InterruptionType
  public typealias InterruptionOptions = AudioSessionCore.InterruptionOptions
  public typealias InterruptionReason = AudioSessionCore.InterruptionReason
  public typealias RouteChangeReason = AudioSessionCore.RouteChangeReason
  public typealias SilenceSecondaryAudioHintType = AudioSessionCore.SilenceSecondaryAudioHintType
  public typealias ErrorCode = SessionErrorCode
  public typealias RouteSharingPolicy = AudioSessionCore.RouteSharingPolicy
  public typealias PromptStyle = AudioSessionCore.PromptStyle
  public typealias DeactivationSource = AudioSessionCore.DeactivationSource
  public typealias ResumptionRecommendation = AudioSessionCore.ResumptionRecommendation

  /// `setCategory(_:mode:options:)`.
  public func setCategory(
    _ category: Category, mode: Mode, options: CategoryOptions = []
  ) throws {
    try setCategory(category, mode: Optional(mode), options: options)
  }

  /// `setCategory(_:options:)`: the mode stays as it is.
  public func setCategory(_ category: Category, options: CategoryOptions = []) throws {
    try setCategory(category, mode: nil, options: options)
  }

  /// `setCategory(_:mode:policy:options:)`: long-form policies take playback, modes default,
  /// moviePlayback or spokenAudio, and no options (docs/avaudiosession.md §13.3).
  public func setCategory(
    _ category: Category, mode: Mode, policy: RouteSharingPolicy, options: CategoryOptions = []
  ) throws {
    try setCategory(category, mode: Optional(mode), options: options, policy: policy)
  }

  private func setCategory(
    _ category: Category, mode: Mode?, options: CategoryOptions,
    policy: RouteSharingPolicy = .default
  ) throws {
    try perform(
      .command(
        .set(session: name, category: category, mode: mode, options: options, policy: policy)))
    lock.lock()
    configuration = SessionConfiguration(
      category: category, mode: mode ?? configuration.mode, options: options, policy: policy)
    configured = true
    lock.unlock()
  }

  /// `setMode(_:)`: also clears the category options (docs/avaudiosession.md §3.1).
  public func setMode(_ mode: Mode) throws {
    try perform(.command(.setMode(session: name, mode: mode)))
    lock.lock()
    configuration = SessionConfiguration(
      category: configuration.category, mode: mode, options: [], policy: configuration.policy)
    configured = true
    lock.unlock()
  }

  /// `setActive(_:options:)`. Activating may interrupt or duck other sessions; deactivating
  /// with `.notifyOthersOnDeactivation` lets the sessions this one interrupted resume.
  public func setActive(_ active: Bool, options: SetActiveOptions = []) throws {
    if active {
      try perform(.command(.activate(session: name)))
    } else {
      let notify = options.contains(.notifyOthersOnDeactivation)
      try perform(.command(.deactivate(session: name, notifyOthers: notify)))
    }
  }

  /// Tells the system whether the session's player or recorder is running (iOS sees this
  /// itself): it decides `isBusy` on deactivation, the secondary-audio hint of others, and the
  /// headphone-unplug pause.
  public func setPlaying(_ playing: Bool) throws {
    try perform(.command(playing ? .play(session: name) : .stop(session: name)))
  }

  /// `overrideOutputAudioPort(_:)`: only playAndRecord sessions may override
  /// (docs/avaudiosession.md §7.5).
  public func overrideOutputAudioPort(_ portOverride: PortOverride) throws {
    try perform(.command(.override(session: name, portOverride)))
  }

  /// `setPreferredInput(_:)`: a port of ``availableInputs``, or nil for the default.
  public func setPreferredInput(_ inPort: PortDescription?) throws {
    try perform(.command(.setPreferredInput(session: name, uid: inPort?.uid)))
  }

  /// What the daemon knows of this session now, or nil when it cannot be asked.
  func read() -> (
    status: SessionStatus, availableInputs: [PortDescription], dataSources: [String]
  )? {
    guard case .object(let object)? = (try? perform(.session(name)))?["session"] else {
      return nil
    }
    return try? WireSession.decode(object)
  }

  /// The current category.
  public var category: Category {
    read()?.status.configuration.category ?? lockedConfiguration.category
  }

  /// The current mode.
  public var mode: Mode {
    read()?.status.configuration.mode ?? lockedConfiguration.mode
  }

  /// The category options as `categoryOptions` reads them back (explicit, plus the implied
  /// `mixWithOthers`; docs/avaudiosession.md §12 D13).
  public var categoryOptions: CategoryOptions {
    read()?.status.options ?? lockedConfiguration.options
  }

  /// The ports the session's audio uses now.
  public var currentRoute: RouteDescription { read()?.status.route ?? .empty }

  /// The inputs the session could use (docs/avaudiosession.md §7.6); nil when the daemon cannot be
  /// asked.
  public var availableInputs: [PortDescription]? { read()?.availableInputs }

  /// The preferred input, if one was set and is still available.
  public var preferredInput: PortDescription? {
    guard let reading = read(), let uid = reading.status.preferredInput else { return nil }
    return reading.availableInputs.first { $0.uid == uid }
  }

  /// Whether another session is playing audio.
  public var isOtherAudioPlaying: Bool { read()?.status.isOtherAudioPlaying ?? false }

  /// Whether another session plays non-mixable audio, so secondary audio should be silenced.
  public var secondaryAudioShouldBeSilencedHint: Bool {
    read()?.status.secondaryAudioShouldBeSilencedHint ?? false
  }

  /// Whether the session is active.
  public var isActive: Bool { read()?.status.active ?? false }

  private var lockedConfiguration: SessionConfiguration {
    lock.lock()
    defer { lock.unlock() }
    return configuration
  }
}
