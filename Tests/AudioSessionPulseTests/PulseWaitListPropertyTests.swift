import AudioSession
import PropertyBased
import Testing

@testable import AudioSessionPulse

extension PulseAudioTests {
  /// What the backend's actions wait for (docs/pulseaudio-layer.md "The backend's parts"): any
  /// order of waits, server changes, time limits, losses and a stop, with no server.
  @Suite struct PulseWaitListPropertyTests {
    typealias List = PulseWaitList<Int>
    typealias Expectation = PulseExpectation

    enum Step: Sendable, CustomStringConvertible {
      case wait(Expectation)
      /// The server shows a state; client 7 plays or not; `restored`: the last connection
      /// fully restored.
      case shown(PulseSystemState, clientPlays: Bool, restored: Int)
      /// The time limit of the `n`th waiter added so far ends.
      case expire(Int)
      case lost
      case stop

      var description: String {
        switch self {
        case .wait(let expectation): "wait for \(expectation)"
        case .shown(let state, let plays, let restored):
          PulseWaitListPropertyTests.describe(state)
            + " client \(plays ? "plays" : "gone") restored \(restored)"
        case .expire(let n): "expire #\(n)"
        case .lost: "lost"
        case .stop: "stop"
        }
      }
    }

    static func describe(_ state: PulseSystemState) -> String {
      let volume = state.outputVolume.map { "\($0)" } ?? "none"
      let connected = state.connected ? "connected" : "lost"
      return "shown \(connected) devices \(state.devices.map(\.uid)) call \(state.callActive) "
        + "mic \(state.builtInMicMuted) volume \(volume)"
    }

    static let devices = [
      Device(uid: "speaker", name: "Speaker", ports: []),
      Device(uid: "headphones", name: "Headphones", ports: []),
    ]

    static var expectation: Generator<Expectation, some SendableSequenceType> {
      zip(Gen<Int>.int(in: 0...5), Gen<Bool>.bool, Gen<Int>.int(in: 0...2)).map {
        kind, flag, number -> Expectation in
        switch kind {
        case 0: .device(uid: devices[number % 2].uid, present: flag)
        case 1: .call(active: flag)
        case 2: .micMuted(flag)
        case 3: .volume([0.0, 0.5, 1.0][number])
        case 4: .clientGone(7)
        default: .connection(after: number)
        }
      }
    }

    static var steps: Generator<[Step], some SendableSequenceType> {
      let state = zip(
        Gen<Bool>.bool(0.8), Gen<Int>.int(in: 0...3), Gen<Bool>.bool, Gen<Bool>.bool,
        Gen<Int>.int(in: 0...3)
      ).map { connected, present, call, mic, volume in
        PulseSystemState(
          connected: connected, connection: 1,
          devices: devices.enumerated().filter { present & (1 << $0.offset) != 0 }.map(\.element),
          callActive: call, builtInMicMuted: mic,
          outputVolume: [nil, 0.0, 0.5, 1.0][volume])
      }
      return zip(
        Gen<Int>.int(in: 0...12), expectation, state, Gen<Bool>.bool, Gen<Int>.int(in: 0...3),
        Gen<Int>.int(in: 0...9)
      ).map { kind, expectation, state, plays, restored, number -> Step in
        switch kind {
        case 0...4: .wait(expectation)
        case 5...8: .shown(state, clientPlays: plays, restored: restored)
        case 9, 10: .expire(number)
        case 11: .lost
        default: .stop
        }
      }.array(of: 1...40)
    }

    /// Whether the state shows what is expected, as the table in the docs says it.
    static func met(
      _ expectation: Expectation, _ state: PulseSystemState, plays: Bool, restored: Int
    ) -> Bool {
      guard state.connected else { return false }
      switch expectation {
      case .device(let uid, let present): return state.devices.map(\.uid).contains(uid) == present
      case .call(let active): return state.callActive == active
      case .micMuted(let on): return state.builtInMicMuted == on
      case .volume(let volume): return state.outputVolume == volume
      case .clientGone: return !plays
      case .connection(let after): return restored > after
      }
    }

    @Test(
      "over any order of waits, server changes, time limits, losses and a stop: a waiter is woken only once the server shows what it waits for and then at once, a loss fails all but those waiting for the connection, and every waiter comes out exactly once"
    )
    func everyWaiterComesOutOnce() async {
      await propertyCheck(input: Self.steps) { steps in
        var list = List()
        var added: [(id: Int, waiter: Int, expectation: Expectation)] = []
        var waiting: [Int: Expectation] = [:]
        var out: [Int] = []
        for (number, step) in steps.enumerated() {
          let context = "step \(number) \(step) of \(steps)"
          switch step {
          case .wait(let expectation):
            let waiter = added.count
            added.append((list.add(waiter, for: expectation), waiter, expectation))
            waiting[waiter] = expectation
          case .shown(let state, let plays, let restored):
            let woken = list.takeMet {
              $0.isMet(by: state, restoredConnection: restored) { $0 == 7 && plays }
            }
            let expected = waiting.filter {
              Self.met($0.value, state, plays: plays, restored: restored)
            }.keys.sorted()
            #expect(woken == expected, "\(context): woke \(woken), expected \(expected)")
            for waiter in woken { waiting[waiter] = nil }
            out += woken
          case .expire(let n):
            guard n < added.count else { continue }
            let expired = list.expire(added[n].id)
            #expect(
              (expired != nil) == (waiting[added[n].waiter] != nil),
              "\(context): expired \(expired.map { "\($0.waiter)" } ?? "none")")
            if let expired {
              #expect(expired.waiter == added[n].waiter, "\(context)")
              #expect(expired.expectation == added[n].expectation, "\(context)")
              waiting[expired.waiter] = nil
              out.append(expired.waiter)
            }
          case .lost:
            let failed = list.takeFailedByLoss()
            let expected = waiting.filter { !$0.value.survivesLoss }.keys.sorted()
            #expect(failed.map(\.waiter) == expected, "\(context)")
            for waiter in expected { waiting[waiter] = nil }
            out += expected
            #expect(
              waiting.values.allSatisfy {
                if case .connection = $0 { return true }
                return false
              }, "\(context): only waits for the connection survive a loss")
          case .stop:
            let all = list.takeAll()
            #expect(all.map(\.waiter) == waiting.keys.sorted(), "\(context)")
            out += all.map(\.waiter)
            waiting = [:]
          }
          #expect(list.count == waiting.count, "\(context)")
        }
        out += list.takeAll().map(\.waiter)
        #expect(out.sorted() == Array(0..<added.count), "each waiter once: \(out) of \(steps)")
      }
    }
  }
}
