import AudioSession
import AudioSessionWire
import Foundation

// AVAudioSession's calls and properties (docs/avaudiosession.md §3–§8), against the daemon.

extension AVAudioSession {
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
    let (category, mode) = try Self.throwingNSError { () throws(SessionError) in
      (try category.model(), try mode?.model())
    }
    try perform(
      .command(
        .input(
          .setCategory(
            session: name, category: category, mode: mode, options: options.model,
            policy: policy.model))))
    lock.lock()
    configuration = SessionConfiguration(
      category: category, mode: mode ?? configuration.mode, options: options.model,
      policy: policy.model)
    configured = true
    lock.unlock()
  }

  /// `setMode(_:)`: also clears the category options (docs/avaudiosession.md §3.1).
  public func setMode(_ mode: Mode) throws {
    let mode = try Self.throwingNSError { () throws(SessionError) in try mode.model() }
    try perform(.command(.input(.setMode(session: name, mode: mode))))
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
      try perform(.command(.input(.setActive(session: name, active: true, options: []))))
      lock.lock()
      let wasActive = knownActive
      knownActive = true
      lock.unlock()
      if !wasActive {
        notificationCenter.post(name: Self.didBecomeActiveNotification, object: self)
        post(DidBecomeActiveMessage())
      }
    } else {
      lock.lock()
      knownActive = false
      lock.unlock()
      let notify = options.contains(.notifyOthersOnDeactivation)
      try perform(
        .command(
          .input(
            .setActive(
              session: name, active: false, options: notify ? .notifyOthersOnDeactivation : []))))
    }
  }

  /// Tells the system whether the session's player or recorder is running (iOS sees this
  /// itself): it decides `isBusy` on deactivation, the secondary-audio hint of others, and the
  /// headphone-unplug pause.
  public func setPlaying(_ playing: Bool) throws {
    try perform(
      .command(playing ? .input(.startIO(session: name)) : .input(.stopIO(session: name))))
  }

  /// `overrideOutputAudioPort(_:)`: only playAndRecord sessions may override
  /// (docs/avaudiosession.md §7.5).
  public func overrideOutputAudioPort(_ portOverride: PortOverride) throws {
    try perform(.command(.input(.overrideOutput(session: name, portOverride.model))))
  }

  /// `setPreferredInput(_:)`: a port of ``availableInputs``, or nil for the default.
  public func setPreferredInput(_ inPort: AVAudioSessionPortDescription?) throws {
    try perform(.command(.input(.setPreferredInput(session: name, uid: inPort?.uid))))
  }

  /// What the daemon knows of this session now, or nil when it cannot be asked.
  func read() -> Reading? {
    guard case .object(let object)? = (try? perform(.session(name)))?["session"] else {
      return nil
    }
    return try? WireSession.decode(object)
  }

  typealias Reading = (
    status: SessionStatus, availableInputs: [PortDescription], dataSources: [DataSourceStatus]
  )

  /// The current category.
  public var category: Category {
    Category(read()?.status.configuration.category ?? lockedConfiguration.category)
  }

  /// The current mode.
  public var mode: Mode {
    Mode(read()?.status.configuration.mode ?? lockedConfiguration.mode)
  }

  /// `availableCategories`: every category the engine accepts (`audioProcessing` only under the
  /// profiles that still model it is not told apart: all seven).
  public var availableCategories: [Category] {
    AudioSession.Category.allCases.map(Category.init)
  }

  /// `availableModes`: every mode the engine accepts.
  public var availableModes: [Mode] { AudioSession.Mode.allCases.map(Mode.init) }

  /// The category options as `categoryOptions` reads them back (explicit, plus the implied
  /// `mixWithOthers`; docs/avaudiosession.md §12 D13).
  public var categoryOptions: CategoryOptions {
    CategoryOptions(read()?.status.options ?? lockedConfiguration.options)
  }

  /// The ports the session's audio uses now, with their channels (the engine's current channel
  /// counts) and the current input's data sources.
  public var currentRoute: AVAudioSessionRouteDescription {
    guard let reading = read() else { return AVAudioSessionRouteDescription(.empty) }
    let route = reading.status.route
    return AVAudioSessionRouteDescription(
      route, inputs: route.inputs.map { port(of: $0, in: reading) },
      outputs: route.outputs.map { port(of: $0, in: reading) })
  }

  /// A port of a reading, with what the engine says of it for this session.
  func port(of port: PortDescription, in reading: Reading) -> AVAudioSessionPortDescription {
    let status = reading.status
    let isInput = status.route.inputs.contains(port)
    let isOutput = status.route.outputs.contains(port)
    let channels =
      isInput
      ? status.hardware.inputNumberOfChannels
      : isOutput ? status.hardware.outputNumberOfChannels : 0
    // The engine lists the data sources of the session's current input only.
    let current = status.route.inputs.first?.uid == port.uid
    return AVAudioSessionPortDescription(
      port, channels: channels, dataSources: current ? reading.dataSources : [],
      selected: current ? status.inputDataSource : nil, session: self)
  }

  /// The inputs the session could use (docs/avaudiosession.md §7.6); nil when the daemon cannot be
  /// asked.
  public var availableInputs: [AVAudioSessionPortDescription]? {
    guard let reading = read() else { return nil }
    return reading.availableInputs.map { port(of: $0, in: reading) }
  }

  /// The preferred input, if one was set and is still available.
  public var preferredInput: AVAudioSessionPortDescription? {
    guard let reading = read(), let uid = reading.status.preferredInput else { return nil }
    return reading.availableInputs.first { $0.uid == uid }.map { port(of: $0, in: reading) }
  }

  /// `isInputAvailable`: whether the system has an input device (the engine's available inputs
  /// for a category with input; any input device otherwise).
  public var isInputAvailable: Bool {
    guard let reading = read() else { return false }
    return !reading.availableInputs.isEmpty || !reading.status.route.inputs.isEmpty
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
