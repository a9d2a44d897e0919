import PropertyBased
import Testing

@testable import AudioSession

/// A system alarm (the Clock app) interrupts like a non-mixable app and, dismissed, ends with
/// shouldResume (docs/avaudiosession.md §6.1; policies/interactions.json `alarm`).
@Suite("A system alarm")
struct AlarmTests {
  @Test(
    "an alarm interrupts every active non-mixable session (by alarm, reason default) and spares mixable ones (docs/avaudiosession.md §6.1)"
  )
  func alarm_interruptsNonMixable() throws {
    var h = try EngineHarness()
    h.start("music", .playback)
    h.start("game", .ambient)
    h.set("idle", .playback)
    let begin = h.run(.alarm(active: true))
    #expect(begin.error == nil)
    // music no longer plays, so game's secondary-audio hint ends.
    #expect(begin.lines == ["music: interruption began default by alarm", "game: hint end"])
    #expect(!h.status("music").active && h.status("music").interrupted)
    #expect(h.status("game").active && h.status("game").playing)
    #expect(h.engine.status().alarmActive)
  }

  @Test(
    "a dismissed alarm ends its interruptions with shouldResume, as a declined call (docs/avaudiosession.md §6.1)"
  )
  func alarm_dismissed_endsWithShouldResume() throws {
    var h = try EngineHarness()
    h.start("music", .playback)
    h.start("memo", .playAndRecord)
    // memo interrupted music; the alarm interrupts memo only.
    #expect(h.run(.alarm(active: true)).lines == ["memo: interruption began default by alarm"])
    let end = h.run(.alarm(active: false))
    #expect(end.error == nil)
    #expect(end.lines == ["memo: interruption ended [shouldResume] by alarm"])
    #expect(!h.engine.status().alarmActive)
    #expect(!h.status("memo").interrupted)
  }

  @Test(
    "a session that went active again during the alarm is not told it ended (docs/avaudiosession.md §6.1)"
  )
  func alarm_reactivatedVictim_getsNoEnded() throws {
    var h = try EngineHarness()
    h.start("music", .playback)
    h.run(.alarm(active: true))
    #expect(h.activate("music").error == nil)
    #expect(h.run(.alarm(active: false)).lines.isEmpty)
  }

  @Test(
    "an alarm that already sounds, or none to dismiss, is badParam and changes nothing (docs/contract.md Bad input)"
  )
  func alarm_twice_isBadParam() throws {
    var h = try EngineHarness()
    h.start("music", .playback)
    let none = h.run(.alarm(active: false))
    #expect(none.error?.code == .badParam)
    #expect(none.error?.message == "no alarm is sounding")
    h.run(.alarm(active: true))
    let before = h.engine.status()
    let twice = h.run(.alarm(active: true))
    #expect(twice.error?.message == "an alarm is already sounding")
    #expect(twice.lines.isEmpty && h.engine.status() == before)
  }

  @Test("'alarm' cannot name a session: transcripts use it as a cause (docs/contract.md)")
  func alarm_isReservedName() throws {
    #expect(Command.sessionNameProblem("alarm")?.contains("a system alarm") == true)
    var h = try EngineHarness()
    #expect(h.run(.createSession("alarm")).error?.code == .badParam)
  }

  static let configurations: [(Category, Mode, CategoryOptions)] = [
    (.playback, .default, []), (.playback, .default, [.mixWithOthers]),
    (.ambient, .default, []), (.soloAmbient, .default, []), (.playAndRecord, .default, []),
    (.playback, .spokenAudio, [.duckOthers]), (.record, .default, []),
  ]

  @Test(
    "over random orders of events, an alarm interrupts exactly the active non-mixable sessions and its dismissal ends exactly the interruptions it still holds, with shouldResume (docs/avaudiosession.md §6.1)"
  )
  func alarm_property() async {
    await propertyCheck(count: 300, input: Gen.int(in: 0...9999).array(of: 1...30)) { numbers in
      var h = try EngineHarness()
      let names = ["a", "b", "c"]
      // Sessions the alarm interrupted and that heard nothing of it since.
      var heldByAlarm: Set<String> = []
      for n in numbers {
        let name = names[n % 3]
        let input: EngineInput
        switch (n / 3) % 7 {
        case 0:
          let (category, mode, options) = Self.configurations[(n / 21) % Self.configurations.count]
          input = .setCategory(session: name, category: category, mode: mode, options: options)
        case 1, 2: input = .setActive(session: name, active: true, options: [])
        case 3: input = .startIO(session: name)
        case 4:
          input = .setActive(
            session: name, active: false,
            options: n % 2 == 0 ? .notifyOthersOnDeactivation : [])
        default: input = .alarm(active: (n / 21) % 2 == 0)
        }
        if let session = input.session, h.engine.session(named: session) == nil {
          _ = h.engine.handle(.createSession(session))
        }
        let before = h.engine.status()
        let outcome = h.engine.handle(input)
        let after = h.engine.status()
        for notification in outcome.notifications {
          switch notification.event {
          case .interruptionBegan(_, let cause):
            if cause == .alarm {
              heldByAlarm.insert(notification.session)
            } else {
              heldByAlarm.remove(notification.session)
            }
          case .interruptionEnded(let options, let cause):
            if cause == .alarm {
              #expect(heldByAlarm.contains(notification.session), "\(notification)")
              #expect(options.contains(.shouldResume))
            }
            heldByAlarm.remove(notification.session)
          default: break
          }
        }
        // A session that goes active again on its own is no longer the alarm's.
        for session in after.sessions where session.active { heldByAlarm.remove(session.name) }
        guard case .alarm(let active) = input else { continue }
        if let error = outcome.error {
          #expect(error.code == .badParam && before == after && outcome.notifications.isEmpty)
          continue
        }
        let began = outcome.notifications.compactMap { notification -> String? in
          guard case .interruptionBegan(.default, .alarm) = notification.event else { return nil }
          return notification.session
        }
        if active {
          let expected = before.sessions.filter {
            $0.active && !h.policy.isMixable($0.configuration)
          }.map(\.name)
          #expect(began == expected)
          #expect(after.sessions.allSatisfy { !$0.active || h.policy.isMixable($0.configuration) })
        } else {
          #expect(began.isEmpty)
          // Not told: only a session still kept out by an active session that interrupts it
          // (the focus goes back only when it is free, docs/apps.md "Focus").
          for name in heldByAlarm {
            let victim = try #require(after.sessions.first { $0.name == name })
            let blocked = after.sessions.contains {
              $0.active
                && h.policy.action(
                  incoming: h.policy.traits($0.configuration),
                  holder: h.policy.traits(victim.configuration)) == .interrupt
            }
            #expect(blocked, "\(name) still held by the dismissed alarm")
          }
          heldByAlarm = []
        }
      }
    }
  }
}
