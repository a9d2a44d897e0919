import AudioSessionTestSupport
import PropertyBased
import Testing

@testable import AudioSession

/// Engine invariants under random input sequences (docs/avaudiosession.md §5, §6, §7;
/// docs/engine.md "Rules, and where they come from").
@Suite struct EnginePropertyTests {
  static let names = ["a", "b", "c", "d"]

  /// Configurations the random apps pick from: the realistic ones, plus invalid ones.
  static let configurations: [(Category, Mode, CategoryOptions)] = [
    (.soloAmbient, .default, []),
    (.ambient, .default, []),
    (.playback, .default, []),
    (.playback, .default, [.mixWithOthers]),
    (.playback, .default, [.duckOthers]),
    (.playback, .spokenAudio, []),
    (.playback, .voicePrompt, [.duckOthers, .interruptSpokenAudioAndMixWithOthers]),
    (.record, .default, []),
    (.playAndRecord, .default, []),
    (.playAndRecord, .default, [.defaultToSpeaker]),
    (.playAndRecord, .voiceChat, [.allowBluetoothA2DP]),
    (.playAndRecord, .default, [.overrideMutedMicrophoneInterruption, .mixWithOthers]),
    (.multiRoute, .default, []),
    (.ambient, .default, [.defaultToSpeaker]),
    (.record, .voiceChat, []),
    (.playback, .shortFormVideo, []),
  ]
  static let presets = [
    "headphones", "headset", "bluetoothA2DP", "bluetoothHeadset", "usbAudio", "HDMI",
  ]

  /// Decodes one random number into an input (plugged: UIDs currently plugged).
  static func input(_ n: Int, plugged: [String], counter: inout Int) -> EngineInput {
    let session = names[n % names.count]
    let arg = n / 64
    switch (n / names.count) % 21 {
    case 0, 1:
      let (category, mode, options) = configurations[arg % configurations.count]
      return .setCategory(session: session, category: category, mode: mode, options: options)
    case 2, 3, 4: return .setActive(session: session, active: true, options: [])
    case 5, 6:
      return .setActive(
        session: session, active: false, options: arg % 2 == 0 ? .notifyOthersOnDeactivation : [])
    case 7: return .startIO(session: session)
    case 8: return .stopIO(session: session)
    case 9: return .overrideOutput(session: session, arg % 2 == 0 ? .speaker : .none)
    case 10:
      counter += 1
      return .deviceConnected(
        Device(
          preset: try! TestPolicies.table().devices.presets[presets[arg % presets.count]]!,
          uid: "dev-\(counter)"))
    case 11:
      if plugged.isEmpty { return .screenLock(on: arg % 2 == 0) }
      let uid = plugged[arg % plugged.count]
      switch arg % 3 {
      case 0: return .deviceDisconnected(uid: uid)
      default:
        // The user's choice (docs/engine.md): a plugged device or a built-in one, for every
        // session or for one.
        let choice = (arg / 3) % 2 == 0 ? uid : ["builtin-speaker", "builtin-mic"][arg % 2]
        return .deviceChosen(
          uid: choice, direction: (arg / 6) % 2 == 0 ? .output : .input,
          session: (arg / 12) % 2 == 0 ? nil : session)
      }
    case 12:
      // A session whose app makes the call (docs/apps.md Calls), now and then.
      return arg % 4 == 3 ? .ownCall(session: session) : .call(active: arg % 2 == 0)
    case 13:
      return arg % 2 == 0 ? .silentSwitch(on: arg % 4 == 0) : .builtInMicMute(on: arg % 4 == 1)
    case 14:
      return arg % 5 == 0
        ? (arg % 2 == 0 ? .mediaServicesLost : .mediaServicesReset)
        : .setMode(session: session, mode: .default)
    case 15: return .removeSession(session)
    // App life and the system around it (docs/avaudiosession.md §13).
    case 16: return .setAppState(session: session, AppState.allCases[arg % 3])
    case 17: return .setNowPlaying(session: session, arg % 3 != 0)
    case 18:
      switch arg % 5 {
      case 0: return .callRing(arg % 2 == 0 ? .banner : .fullScreen)
      case 1: return arg % 8 < 4 ? .siri(active: arg % 4 < 2) : .alarm(active: arg % 4 < 6)
      case 2: return .setPreference(session: session, .noInterruptionsFromSystemAlerts(arg % 4 < 2))
      case 3:
        return .setPreference(session: session, .interruptionOnRouteDisconnect(arg % 4 < 2))
      default: return .setInputGain(session: session, Double(arg % 7) / 4)
      }
    case 19:
      switch arg % 6 {
      case 0: return .setPreference(session: session, .sampleRate(Double(8000 * (1 + arg % 7))))
      case 1: return .setPreference(session: session, .inputNumberOfChannels(1 + arg % 3))
      case 2:
        let source = ["Bottom", "Front", "Back", "Top"][arg % 4]
        return arg % 16 < 8
          ? .setDataSource(session: session, source)
          : .setPolarPattern(
            session: session, dataSource: source,
            arg % 5 == 4 ? nil : PolarPattern.allCases[arg % 4])
      case 3:
        return arg % 8 < 4
          ? .setPreference(session: session, .aggregatedIO(arg % 2 == 0))
          : .setPreference(session: session, .echoCancelledInput(arg % 2 == 0))
      // The app's own output mute and the volume that may unmute it (iOS 26).
      case 4:
        return arg % 8 < 4
          ? .setOutputMuted(session: session, arg % 4 < 2)
          : .setInputMuted(session: session, arg % 4 < 2)
      default: return .systemVolume(Double(arg % 5) / 4)
      }
    default:
      let policies = RouteSharingPolicy.allCases
      return .setCategory(
        session: session, category: arg % 3 == 0 ? .playAndRecord : .playback,
        mode: [.default, .spokenAudio, .moviePlayback][arg % 3],
        options: arg % 5 == 0 ? [.mixWithOthers] : [], policy: policies[arg % policies.count])
    }
  }

  /// A profile's policy with its `vanishedApp` override set (docs/engine.md "Rules, and where they come from").
  static func policy(
    vanishedApp: VanishedAppEnding, profile: String = "default"
  ) throws -> Policy {
    var table = try TestPolicies.table()
    table.profiles[profile]?.switches.vanishedApp = vanishedApp
    return try Policy(table: table, profile: profile)
  }

  /// Profiles the random sequences run under: current iOS, the older and newer ones.
  static let profiles = ["default", "ios18", "ios15", "ios27", "linuxDesktop"]

  /// Runs a sequence, checking every invariant after every input.
  static func check(
    _ numbers: [Int], vanishedApp: VanishedAppEnding = .endedShouldResume,
    profile: String = "default"
  ) throws {
    var engine = Engine(
      policy: try policy(vanishedApp: vanishedApp, profile: profile), devices: try baseDevices())
    var plugged: [String] = []
    var counter = 0
    var waiting: [String: Int] = [:]  // began without ended yet, per session
    var owners: Set<String> = []  // sessions whose app makes the call
    for n in numbers {
      let input = input(n, plugged: plugged, counter: &counter)
      if let name = input.session, engine.session(named: name) == nil {
        _ = engine.handle(.createSession(name))
      }
      let before = engine.status()
      let outcome = engine.handle(input)
      let after = engine.status()
      switch input {
      case .deviceConnected(let device) where outcome.error == nil: plugged.append(device.uid)
      case .deviceDisconnected(let uid) where outcome.error == nil: plugged.removeAll { $0 == uid }
      default: break
      }
      // A failed call changes nothing (docs/avaudiosession.md §11; isBusy is the documented
      // exception, A9).
      if let error = outcome.error, error.code != .isBusy {
        #expect(before == after, "failed \(input) changed the state")
        #expect(outcome.notifications.isEmpty, "failed \(input) posted notifications")
      }
      // No non-mixable session goes active from the background unless it is the Now Playing
      // app (§5.1 A7; interactions.json background[0]).
      if case .setActive(let name, true, _) = input,
        let was = before.sessions.first(where: { $0.name == name }), !was.active,
        was.appState == .background, !was.nowPlaying,
        !engine.policy.isMixable(was.configuration)
      {
        #expect(
          outcome.error != nil && after.sessions.first { $0.name == name }?.active == false,
          "\(name) activated in the background")
      }
      // A suspended app makes no calls: nothing changes its session but the system.
      if let name = input.session,
        before.sessions.first(where: { $0.name == name })?.appState
          == .suspended
      {
        switch input {
        case .setAppState, .setNowPlaying, .removeSession, .deviceChosen, .ownCall: break
        default: #expect(outcome.error != nil, "suspended \(name) made a call: \(input)")
        }
      }
      // A long-form policy is only ever held with playback, its modes and no options (§13.3).
      for session in after.sessions {
        if let limits = engine.policy.table.routes.routeSharing[session.configuration.policy] {
          #expect(limits.categories.contains(session.configuration.category))
          #expect(limits.modes.contains(session.configuration.mode))
          #expect(session.configuration.options.isEmpty)
        }
        #expect(session.configuration.policy != .independent)
      }
      if case .deviceChosen = input {
        // A user's choice only reroutes, with reason override: never a pause (docs/contract.md).
        for notification in outcome.notifications {
          guard case .routeChange(.override, _, _) = notification.event else {
            Issue.record("\(input) posted \(notification)")
            continue
          }
        }
      }
      if case .ownCall(let name) = input, outcome.error == nil { owners.insert(name) }
      // The call never interrupts the session whose app makes it (docs/apps.md Calls).
      for notification in outcome.notifications where owners.contains(notification.session) {
        if case .interruptionBegan(_, .call) = notification.event {
          Issue.record("the call interrupted its own session: \(notification)")
        }
      }
      // The focus goes back only when it is free (docs/apps.md "Focus"): no session hears
      // ended with shouldResume while an active session would interrupt it, or while a call
      // that is not its own goes on. While its call goes on, the call's own session is held
      // only by another call's session: no other app interrupts a call, so none keeps it
      // waiting either (docs/arbiter.md "Calls").
      for notification in outcome.notifications {
        guard case .interruptionEnded(let options, _) = notification.event,
          options.contains(.shouldResume),
          let victim = after.sessions.first(where: { $0.name == notification.session })
        else { continue }
        let traits = engine.policy.traits(victim.configuration)
        let onlyCalls = after.callActive && owners.contains(victim.name)
        let blockers = after.sessions.filter {
          $0.active && $0.name != victim.name && (!onlyCalls || owners.contains($0.name))
            && engine.policy.action(
              incoming: engine.policy.traits($0.configuration), holder: traits)
              == .interrupt
        }
        #expect(blockers.isEmpty, "\(notification) while \(blockers.map(\.name)) active")
        #expect(
          !after.callActive || owners.contains(victim.name), "\(notification) during a call")
      }
      for notification in outcome.notifications {
        switch notification.event {
        case .interruptionBegan:
          #expect(
            waiting[notification.session, default: 0] == 0,
            "two began without ended: \(notification)")
          waiting[notification.session] = 1
        case .interruptionEnded:
          #expect(
            waiting[notification.session, default: 0] == 1, "ended without began: \(notification)")
          waiting[notification.session] = 0
        case .mediaServicesWereLost:
          waiting[notification.session] = 0
        default: break
        }
      }
      checkOwnMute(input, before, after, outcome.notifications, engine.policy)
      checkMicMute(input, before, outcome.notifications, engine.policy)
      // The secondary-audio hint goes only to apps in the foreground with an active session
      // (docs/avaudiosession.md §6.3).
      for notification in outcome.notifications {
        guard case .silenceSecondaryAudioHint = notification.event else { continue }
        let session = after.sessions.first { $0.name == notification.session }
        #expect(
          session?.appState == .foreground && session?.active == true,
          "\(input): hint to \(notification.session), \(String(describing: session?.appState))")
      }
      checkAvailableInputs(input, before, after, outcome.notifications, engine.policy)
      for session in after.sessions where !session.interrupted { waiting[session.name] = 0 }
      for name in names where engine.session(named: name) == nil {
        waiting[name] = nil
        owners.remove(name)
      }
      try invariants(engine)
    }
  }

  /// The built-in mic's mute (docs/avaudiosession.md §4.4, §6.1 builtInMicMuted): muting it
  /// interrupts exactly the sessions running input on it (active, playing, a listed category,
  /// without the exempt option), and nothing else is interrupted for that reason.
  static func checkMicMute(
    _ input: EngineInput, _ before: EngineStatus, _ notifications: [SessionNotification],
    _ policy: Policy
  ) {
    let interrupted = notifications.compactMap { notification -> String? in
      guard case .interruptionBegan(.builtInMicMuted, _) = notification.event else { return nil }
      return notification.session
    }
    guard case .builtInMicMute(true) = input, !before.builtInMicMuted else {
      #expect(interrupted.isEmpty, "\(input) interrupted for the mic mute: \(interrupted)")
      return
    }
    let rules = policy.table.interactions
    let running = before.sessions.filter {
      $0.active && $0.playing && rules.micMuteInterrupts.contains($0.configuration.category)
        && !$0.options.contains(rules.micMuteExemptOption)
        && $0.route.inputs.contains { $0.portType == .builtInMic }
    }.map(\.name)
    #expect(interrupted == running, "mic mute interrupted \(interrupted), not \(running)")
  }

  /// The app's own mutes (docs/avaudiosession.md §1.5, §3, §13.6): a session is told exactly
  /// when its output mute changes; its input mute at once while it is an active recording
  /// session, else once, with the state then, when it becomes one; the last thing it was told is
  /// its state, and only the volume going up unmutes a shortFormVideo session, after telling it
  /// of the user's intent.
  static func checkOwnMute(
    _ input: EngineInput, _ before: EngineStatus, _ after: EngineStatus,
    _ notifications: [SessionNotification], _ policy: Policy
  ) {
    for session in after.sessions {
      let told = notifications.filter { $0.session == session.name }.compactMap {
        notification -> Bool? in
        if case .outputMuteStateChange(let muted) = notification.event { return muted }
        return nil
      }
      let intents = notifications.filter {
        $0.session == session.name && $0.event == .userIntentToUnmuteOutput
      }
      let toldInput = notifications.filter { $0.session == session.name }.compactMap {
        notification -> Bool? in
        if case .inputMuteStateChange(let muted) = notification.event { return muted }
        return nil
      }
      guard let was = before.sessions.first(where: { $0.name == session.name }) else { continue }
      // The input mute (AVAudioApplication, iOS 17) changes only by the app's own call; it is
      // told then to an active recording session, and stored otherwise, to be told at most once,
      // with the state then, when the session becomes an active recording session (§13.6).
      let records = session.active && policy.rules(for: session.configuration.category).hasInput
      if case .setInputMuted(session.name, let muted) = input, was.inputMuted != muted,
        was.appState != .suspended, before.mediaServicesAvailable
      {
        #expect(
          session.inputMuted == muted && toldInput == (records ? [muted] : []),
          "\(input): \(toldInput)")
      } else if input != .mediaServicesReset {
        #expect(session.inputMuted == was.inputMuted, "\(input) input mute")
        let recorded = was.active && policy.rules(for: was.configuration.category).hasInput
        #expect(
          toldInput.isEmpty || (toldInput == [session.inputMuted] && records && !recorded),
          "\(input) told \(session.name) \(toldInput)")
      }
      switch input {
      case .mediaServicesReset:
        // Reset: everything the app set is gone, said by mediaServicesWereReset alone.
        #expect(!session.outputMuted && !session.inputMuted && told.isEmpty && toldInput.isEmpty)
        continue
      case .systemVolume(let volume) where volume > before.outputVolume:
        let unmuted =
          was.outputMuted && session.configuration.mode == .shortFormVideo
          && session.appState == .foreground
        #expect(session.outputMuted == (was.outputMuted && !unmuted), "\(session.name) unmuted")
        #expect(intents.count == (unmuted ? 1 : 0), "\(session.name) intent")
      default:
        #expect(intents.isEmpty, "\(input) posted an unmute intent")
      }
      if was.outputMuted == session.outputMuted {
        #expect(told.isEmpty, "\(input) told \(session.name) of an unchanged output mute")
      } else {
        #expect(told == [session.outputMuted], "\(input): \(session.name) told \(told)")
      }
    }
  }

  /// `availableInputsChange` (docs/avaudiosession.md §6.5, §7.6): posted once to a recording
  /// session exactly when an input device that came or went changed its available inputs, and
  /// never otherwise; a session's available inputs are none without input.
  static func checkAvailableInputs(
    _ input: EngineInput, _ before: EngineStatus, _ after: EngineStatus,
    _ notifications: [SessionNotification], _ policy: Policy
  ) {
    for session in after.sessions {
      let records = policy.rules(for: session.configuration.category).hasInput
      if !records { #expect(session.availableInputs.isEmpty, "\(session.name) has inputs") }
      let told = notifications.filter {
        $0.session == session.name && $0.event == .availableInputsChange
      }.count
      guard let was = before.sessions.first(where: { $0.name == session.name }) else {
        #expect(told == 0)
        continue
      }
      var expected = false
      switch input {
      case .deviceConnected, .deviceDisconnected:
        expected =
          records && was.configuration.category == session.configuration.category
          && was.availableInputs.map(\.uid) != session.availableInputs.map(\.uid)
      default: break
      }
      #expect(told == (expected ? 1 : 0), "\(input): \(session.name) told \(told)")
    }
  }

  static func baseDevices() throws -> [Device] {
    let presets = try TestPolicies.table().devices.presets
    return ["builtInSpeaker", "builtInReceiver", "builtInMic"].map {
      Device(preset: presets[$0]!, uid: presets[$0]!.uid!)
    }
  }

  /// The dispositions the engine keeps incrementally equal those recomputed from scratch.
  static func invariants(_ engine: Engine) throws {
    let policy = engine.policy
    let status = engine.status()
    let active = status.sessions.filter(\.active)
    for session in status.sessions {
      #expect(!(session.active && session.interrupted), "\(session.name) active and interrupted")
      #expect(session.active || (!session.playing && !session.ducked && !session.muted))
      let traits = policy.traits(session.configuration)
      // A duck or a mute lasts while both are active: a rule that names `playing` decided an
      // interruption at activation, and a holder it spared is as the later rules say.
      let duckers = active.filter {
        $0.name != session.name
          && policy.action(
            incoming: policy.traits($0.configuration), holder: traits, holderPlaying: false)
            == .duck
      }
      #expect(session.ducked == (session.active && !duckers.isEmpty), "\(session.name) ducked")
      let recorders = active.filter {
        $0.name != session.name
          && policy.action(
            incoming: policy.traits($0.configuration), holder: traits, holderPlaying: false)
            == .mute
      }
      let silenced = policy.table.interactions.silencedBy
      let switchMuted =
        (status.silentSwitch && silenced[.silentSwitch]!.contains(session.configuration.category))
        || (status.screenLocked && silenced[.screenLock]!.contains(session.configuration.category))
      #expect(
        session.muted == (session.active && (switchMuted || !recorders.isEmpty)),
        "\(session.name) muted")
      let hintSources = active.filter {
        $0.name != session.name && $0.playing && !policy.isMixable($0.configuration)
      }
      #expect(session.secondaryAudioShouldBeSilencedHint == !hintSources.isEmpty)
      // Echo-cancelled input (docs/avaudiosession.md §13.5): available exactly while the input
      // is the built-in mic; enabled exactly when also preferred, active and in
      // playAndRecord/default (or multiRoute/dualRoute), whatever route changes came between.
      let onBuiltInMic = session.route.inputs.first?.portType == .builtInMic
      #expect(session.echoCancelledInputAvailable == onBuiltInMic, "\(session.name) echo avail")
      let accepted = policy.table.devices.hardware.echoCancelledInput.accepts(
        session.configuration.category, session.configuration.mode)
      #expect(
        session.echoCancelledInputEnabled
          == (session.prefersEchoCancelledInput && session.active && accepted && onBuiltInMic),
        "\(session.name) echo enabled")
      // isOtherAudioPlaying, as transcripts show it (§8): another active session plays.
      #expect(
        session.isOtherAudioPlaying
          == active.contains { $0.name != session.name && $0.playing },
        "\(session.name) otherAudioPlaying")
      // What was posted (hint begin/end) matches too, for sessions with an active session.
      let own = engine.sessions.first { $0.alive && $0.name == session.name }!
      let published = own.hint
      #expect(published == (session.active && !hintSources.isEmpty), "\(session.name) hint")
      // Every output session has an output route while the built-in speaker exists (§7.3).
      if policy.rules(for: session.configuration.category).hasOutput {
        #expect(!session.route.outputs.isEmpty, "\(session.name) has no output route")
      }
      // The route equals a fresh computation from the rules (§7).
      let key = RouteKey(
        category: session.configuration.category,
        options: policy.routingOptions(session.configuration),
        speakerOverride: session.portOverride == .speaker,
        preferredInput: session.preferredInput,
        chosenOutput: own.chosen[.output]
          ?? engine.sharedChoice[session.configuration.policy]?[.output] ?? engine.chosen[.output],
        chosenInput: own.chosen[.input]
          ?? engine.sharedChoice[session.configuration.policy]?[.input] ?? engine.chosen[.input])
      #expect(session.route == engine.router.route(for: key, devices: status.devices))
    }
  }

  @Test(
    "Invariants hold after every input of random sequences, whatever vanishedApp says (docs/avaudiosession.md §5–§7; docs/engine.md \"Rules, and where they come from\")"
  )
  func randomSequences_keepInvariants() async throws {
    let input = zip(
      Gen.int(in: 0...1_000_000).array(of: 1...60),
      Gen.int(in: 0...(VanishedAppEnding.allCases.count - 1)),
      Gen.int(in: 0...(Self.profiles.count - 1)))
    await propertyCheck(count: 300, input: input) { numbers, ending, profile in
      try Self.check(
        numbers, vanishedApp: VanishedAppEnding.allCases[ending], profile: Self.profiles[profile])
    }
  }

  @Test(
    "Siri ending during its own call gives the call's session the focus back, though another app is active (docs/arbiter.md \"Calls\")"
  )
  func siriEndsDuringOwnCall_callSessionResumes() throws {
    // b plays, Siri interrupts it, b's app makes the call, the call begins, a (soloAmbient)
    // activates, Siri ends: b hears ended with shouldResume, as a cannot hold a call's session.
    // A random sequence found this; the invariant above had no exception for it.
    try Self.check([152321, 835620, 703465, 360576, 16808, 316584])
    var engine = Engine(
      policy: try Self.policy(vanishedApp: .endedShouldResume), devices: try Self.baseDevices())
    var counter = 0
    var ended: [SessionNotification] = []
    for n in [152321, 835620, 703465, 360576, 16808, 316584] {
      let input = Self.input(n, plugged: [], counter: &counter)
      if let name = input.session, engine.session(named: name) == nil {
        _ = engine.handle(.createSession(name))
      }
      ended = engine.handle(input).notifications.filter {
        if case .interruptionEnded(let options, .siri) = $0.event {
          return options.contains(.shouldResume)
        }
        return false
      }
    }
    #expect(ended.map(\.session) == ["b"])
    #expect(engine.status().callActive)
  }

  @Test("The same inputs give the same notifications (deterministic replay, docs/contract.md)")
  func replay_isDeterministic() async throws {
    await propertyCheck(count: 50, input: Gen.int(in: 0...1_000_000).array(of: 1...40)) { numbers in
      let first = try Self.notifications(numbers)
      #expect(first == (try Self.notifications(numbers)))
    }
  }

  static func notifications(_ numbers: [Int]) throws -> [SessionNotification] {
    var engine = Engine(policy: try TestPolicies.policy(), devices: try baseDevices())
    var plugged: [String] = []
    var counter = 0
    var all: [SessionNotification] = []
    for n in numbers {
      let input = input(n, plugged: plugged, counter: &counter)
      if let name = input.session, engine.session(named: name) == nil {
        _ = engine.handle(.createSession(name))
      }
      if case .deviceConnected(let device) = input { plugged.append(device.uid) }
      if case .deviceDisconnected(let uid) = input { plugged.removeAll { $0 == uid } }
      all += engine.handle(input).notifications
    }
    return all
  }
}
