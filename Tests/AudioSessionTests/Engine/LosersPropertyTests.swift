import AudioSessionTestSupport
import PropertyBased
import Testing

@testable import AudioSession

/// Who an activation interrupts is decided per class, through the indexes of active and playing
/// sessions (docs/engine.md "One input"); this keeps that path equal to the plain one: every
/// other active session, asked the first matching interaction rule with its own playing state
/// (docs/avaudiosession.md §5.1 A2, §4.4 interruptSpokenAudioAndMixWithOthers).
@Suite struct LosersPropertyTests {
  /// The plain answer: a walk over every session the engine holds, no index, no cache.
  static func plainLosers(of id: Int, in engine: Engine) -> [Int] {
    let incoming = engine.sessions[id].traits
    return engine.sessions.indices.filter { holder in
      holder != id && engine.sessions[holder].alive && engine.sessions[holder].active
        && engine.policy.action(
          incoming: incoming, holder: engine.sessions[holder].traits,
          holderPlaying: engine.sessions[holder].playing) == .interrupt
    }
  }

  /// The shipped rules, and the same with the spoken-audio rule turned round (it interrupts a
  /// paused holder and spares a playing one), so that both ways a rule can name `playing` are
  /// taken.
  static func policy(flipped: Bool, profile: String) throws -> Policy {
    var table = try TestPolicies.table()
    if flipped {
      for index in table.interactions.rules.indices
      where table.interactions.rules[index].holder.playing != nil {
        table.interactions.rules[index].holder.playing?.toggle()
      }
    }
    return try Policy(table: table, profile: profile)
  }

  static func check(_ numbers: [Int], flipped: Bool, profile: String) throws {
    var engine = Engine(
      policy: try policy(flipped: flipped, profile: profile),
      devices: try EnginePropertyTests.baseDevices())
    var plugged: [String] = []
    var counter = 0
    for n in numbers {
      let input = EnginePropertyTests.input(n, plugged: plugged, counter: &counter)
      if let name = input.session, engine.session(named: name) == nil {
        _ = engine.handle(.createSession(name))
      }
      let outcome = engine.handle(input)
      switch input {
      case .deviceConnected(let device) where outcome.error == nil: plugged.append(device.uid)
      case .deviceDisconnected(let uid) where outcome.error == nil: plugged.removeAll { $0 == uid }
      default: break
      }
      // The playing index holds exactly the active sessions whose I/O runs, by class.
      for id in engine.sessions.indices {
        let session = engine.sessions[id]
        let indexed =
          session.classID < engine.playingByClass.count
          && engine.playingByClass[session.classID].contains(id)
        #expect(
          indexed == (session.alive && session.active && session.playing),
          "after \(input): \(session.name) indexed as playing: \(indexed)")
      }
      for id in engine.sessions.indices where engine.sessions[id].alive {
        let plain = plainLosers(of: id, in: engine)
        let indexed = engine.losers(of: id)
        #expect(
          indexed == plain,
          "after \(input): \(engine.sessions[id].name) would interrupt \(indexed), plainly \(plain)"
        )
      }
    }
  }

  @Test("An activation interrupts exactly whom a walk over every session would (§5.1 A2, §4.4)")
  func indexedEqualsPlain() async {
    let input = zip(
      Gen.int(in: 0...1_000_000).array(of: 1...60), Gen.int(in: 0...1),
      Gen.int(in: 0...(EnginePropertyTests.profiles.count - 1)))
    await propertyCheck(count: 300, input: input) { numbers, flipped, profile in
      try Self.check(numbers, flipped: flipped == 1, profile: EnginePropertyTests.profiles[profile])
    }
  }

  @Test("A spoken-audio session that plays is interrupted, a paused one spared (§4.4)")
  func spokenAudioExample() throws {
    var engine = Engine(
      policy: try Self.policy(flipped: false, profile: "default"),
      devices: try EnginePropertyTests.baseDevices())
    for name in ["book", "podcast", "prompt"] { _ = engine.handle(.createSession(name)) }
    for name in ["book", "podcast"] {
      _ = engine.handle(
        .setCategory(
          session: name, category: .playback, mode: .spokenAudio, options: [.mixWithOthers]))
      _ = engine.handle(.setActive(session: name, active: true, options: []))
    }
    _ = engine.handle(.startIO(session: "book"))
    _ = engine.handle(
      .setCategory(
        session: "prompt", category: .playback, mode: .voicePrompt,
        options: [.duckOthers, .interruptSpokenAudioAndMixWithOthers]))
    let outcome = engine.handle(.setActive(session: "prompt", active: true, options: []))
    let interrupted = outcome.notifications.filter {
      if case .interruptionBegan = $0.event { return true }
      return false
    }.map(\.session)
    #expect(interrupted == ["book"])
  }
}
