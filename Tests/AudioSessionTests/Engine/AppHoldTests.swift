import AudioSession
import PropertyBased
import Testing

/// An app session held after its last stream (docs/apps.md "Speech", "Rules":
/// `heldAfterLastStream`): espeak-ng speaks an utterance on three streams, each from a new
/// connection, and its session is one activation, one duck, however its streams come and go
/// within the hold.
@Suite struct AppHoldTests {
  static let speech = AppRules.Outcome.session(
    category: .playback, mode: .spokenAudio, options: [.duckOthers])
  static let rules = AppRules([
    .init(
      match: ["application.process.binary": "espeak*"], outcome: speech,
      heldAfterLastStream: 250),
    .init(
      match: ["media.role": nil],
      outcome: .session(category: .playback, mode: .default, options: [])
    ),
  ])

  static func espeak(_ index: UInt32, corked: Bool = false) -> ServerStream {
    ServerStream(
      key: .init(.playback, index),
      properties: [
        "application.process.id": "600", "application.process.binary": "espeak-ng",
        "application.name": "eSpeak",
      ], clientIndex: index, isCorked: corked)
  }

  static let session = "espeak-ng.600"

  @Test(
    "a held app's session outlives its last stream until its hold ends, and a stream that comes meanwhile joins it with no input at all (docs/apps.md Speech)"
  )
  func heldAcrossStreams() {
    var tracker = AppStreamTracker(rules: Self.rules)
    let first = tracker.apply(.updated(Self.espeak(1)))
    #expect(first.contains(.setActive(session: Self.session, active: true, options: [])))
    #expect(tracker.takeHolds().isEmpty)
    // The first stream goes: the session stays, active, and a hold is to be timed.
    #expect(tracker.apply(.removed(Self.espeak(1).key)) == [])
    #expect(tracker.appSessions[Self.session]?.playing == true)
    let holds = tracker.takeHolds()
    #expect(holds == [AppHold(session: Self.session, generation: 1, milliseconds: 250)])
    // The next stream joins it: nothing for the engine, and the hold is over.
    #expect(tracker.apply(.updated(Self.espeak(2))) == [])
    #expect(tracker.held.isEmpty)
    // The first hold's time comes: it was ended by the stream, so nothing happens.
    #expect(tracker.endHold(holds[0]) == [])
    #expect(tracker.appSessions[Self.session] != nil)
    // The last stream goes, and its hold runs out: the session deactivates and goes.
    #expect(tracker.apply(.removed(Self.espeak(2).key)) == [])
    let last = tracker.takeHolds()
    #expect(last.map(\.generation) == [2])
    #expect(
      tracker.endHold(last[0]) == [
        .stopIO(session: Self.session),
        .setActive(session: Self.session, active: false, options: .notifyOthersOnDeactivation),
        .removeSession(Self.session),
      ])
    #expect(tracker.appSessions.isEmpty)
    #expect(tracker.held.isEmpty)
  }

  @Test(
    "an app whose rule holds nothing goes with its last stream; a held app goes at once when the server is lost (docs/apps.md Rules, Speech)"
  )
  func noHoldAndReset() {
    var tracker = AppStreamTracker(rules: Self.rules)
    var beep = Self.espeak(1)
    beep.properties["application.process.binary"] = "aplay"
    _ = tracker.apply(.updated(beep))
    #expect(tracker.apply(.removed(beep.key)).contains(.removeSession("aplay.600")))
    #expect(tracker.takeHolds().isEmpty)
    _ = tracker.apply(.updated(Self.espeak(2)))
    _ = tracker.apply(.snapshot([]))
    #expect(tracker.held.keys.sorted() == [Self.session])
    let reset = tracker.mediaServicesWereReset()
    #expect(reset.contains(.removeSession(Self.session)))
    #expect(tracker.appSessions.isEmpty)
  }

  /// A history of espeak-ng's streams: each step opens one (corked or not), closes one, or lets
  /// the hold's time run out.
  static let histories = Gen.int(in: 0...3).array(of: 1...30)

  @Test(
    "over random openings, corks and closings of a held app's streams and its holds running out: the session is removed only when its hold ends with no stream, activates only when none of its streams played before, and is never left with no stream and no hold (docs/apps.md Speech)"
  )
  func holdProperty() async {
    await propertyCheck(count: 500, input: Self.histories) { codes in
      var tracker = AppStreamTracker(rules: Self.rules)
      var open: [UInt32] = []
      var next: UInt32 = 1
      var pending: [AppHold] = []
      var active = false
      for code in codes {
        var inputs: [EngineInput] = []
        var endedHold = false
        switch code {
        case 0, 1:
          inputs = tracker.apply(.updated(Self.espeak(next, corked: code == 1)))
          open.append(next)
          next += 1
        case 2:
          guard let first = open.first else { continue }
          open.removeFirst()
          inputs = tracker.apply(.removed(Self.espeak(first).key))
        default:
          guard !pending.isEmpty else { continue }
          inputs = tracker.endHold(pending.removeFirst())
          endedHold = true
        }
        pending += tracker.takeHolds()
        let removed = inputs.contains(.removeSession(Self.session))
        #expect(!removed || (endedHold && open.isEmpty), "codes \(codes)")
        for input in inputs {
          if input == .setActive(session: Self.session, active: true, options: []) {
            #expect(!active, "activated twice: codes \(codes)")
            active = true
          } else if case .setActive(Self.session, false, _) = input {
            active = false
          }
        }
        if tracker.appSessions[Self.session] != nil, open.isEmpty {
          #expect(tracker.held[Self.session] != nil, "no stream, no hold: codes \(codes)")
        }
        if tracker.appSessions[Self.session] == nil { #expect(!active, "codes \(codes)") }
      }
    }
  }
}
