import PropertyBased
import Testing

import AudioSessionSystem
import AudioSessionWire
@testable import AudioSessionCore

/// Engine invariants under random input sequences (docs/avaudiosession.md §5, §6, §7; issue: engine
/// invariants).
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
  ]
  static let presets = [
    "headphones", "headset", "bluetoothA2DP", "bluetoothHeadset", "usbAudio", "HDMI",
  ]

  /// Decodes one random number into an input (plugged: UIDs currently plugged).
  static func input(_ n: Int, plugged: [String], counter: inout Int) -> EngineInput {
    let session = names[n % names.count]
    let arg = n / 64
    switch (n / names.count) % 16 {
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
    case 12: return .call(active: arg % 2 == 0)
    case 13:
      return arg % 2 == 0 ? .silentSwitch(on: arg % 4 == 0) : .builtInMicMute(on: arg % 4 == 1)
    case 14:
      return arg % 5 == 0
        ? (arg % 2 == 0 ? .mediaServicesLost : .mediaServicesReset)
        : .setMode(session: session, mode: .default)
    default: return .removeSession(session)
    }
  }

  /// The default policy with the profile's `vanishedApp` override set (issue 4 item 4).
  static func policy(vanishedApp: VanishedAppEnding) throws -> Policy {
    var table = try TestPolicies.table()
    table.profiles[table.defaultProfile]?.switches.vanishedApp = vanishedApp
    return try Policy(table: table)
  }

  /// Runs a sequence, checking every invariant after every input.
  static func check(_ numbers: [Int], vanishedApp: VanishedAppEnding = .endedShouldResume) throws {
    var engine = Engine(policy: try policy(vanishedApp: vanishedApp), devices: try baseDevices())
    var plugged: [String] = []
    var counter = 0
    var waiting: [String: Int] = [:]  // began without ended yet, per session
    for n in numbers {
      let input = input(n, plugged: plugged, counter: &counter)
      if let name = input.sessionName, engine.session(named: name) == nil {
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
      if case .deviceChosen = input {
        // A user's choice only reroutes, with reason override: never a pause (docs/contract.md).
        for notification in outcome.notifications {
          guard case .routeChange(.override, _, _) = notification.event else {
            Issue.record("\(input) posted \(notification)")
            continue
          }
        }
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
      for session in after.sessions where !session.interrupted { waiting[session.name] = 0 }
      for name in names where engine.session(named: name) == nil { waiting[name] = nil }
      try invariants(engine)
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
      let duckers = active.filter {
        $0.name != session.name
          && policy.action(incoming: policy.traits($0.configuration), holder: traits) == .duck
      }
      #expect(session.ducked == (session.active && !duckers.isEmpty), "\(session.name) ducked")
      let recorders = active.filter {
        $0.name != session.name
          && policy.action(incoming: policy.traits($0.configuration), holder: traits) == .mute
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
        chosenOutput: own.chosen[.output] ?? engine.chosen[.output],
        chosenInput: own.chosen[.input] ?? engine.chosen[.input])
      #expect(session.route == engine.router.route(for: key, devices: status.devices))
    }
  }

  @Test(
    "Invariants hold after every input of random sequences, whatever vanishedApp says (docs/avaudiosession.md §5–§7, issue 4 item 4)"
  )
  func randomSequences_keepInvariants() async throws {
    let input = zip(
      Gen.int(in: 0...1_000_000).array(of: 1...60),
      Gen.int(in: 0...(VanishedAppEnding.allCases.count - 1)))
    await propertyCheck(count: 300, input: input) { numbers, ending in
      try Self.check(numbers, vanishedApp: VanishedAppEnding.allCases[ending])
    }
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
      if let name = input.sessionName, engine.session(named: name) == nil {
        _ = engine.handle(.createSession(name))
      }
      if case .deviceConnected(let device) = input { plugged.append(device.uid) }
      if case .deviceDisconnected(let uid) = input { plugged.removeAll { $0 == uid } }
      all += engine.handle(input).notifications
    }
    return all
  }
}
