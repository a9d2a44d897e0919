import AudioSession
import PropertyBased
import Testing

@testable import AudioSessionPulse

extension PulseAudioTests {
  /// How the backend knows another program's call (docs/apps.md "Calls"; docs/pulseaudio.md
  /// §2): snapshots that show a call-role stream or not, module-role-cork's requests on our
  /// streams, their expiries and our streams closing, in any order, with no server.
  @Suite struct PulseCallSignalsPropertyTests {
    typealias Signals = PulseCallSignals

    static let sessions = ["music", "video", "game"]

    enum Event: Sendable, CustomStringConvertible {
      /// A snapshot settles: another client's call-role stream shows (`foreign`), one of our
      /// own sessions plays with a call role (`own`).
      case snapshot(foreign: Bool, own: Bool)
      /// A request on a session's stream; it was sent `lag` snapshots ago.
      case cork(session: Int, cork: Bool, lag: Int)
      /// The expiry of one of the requests made so far (`pick` chooses which).
      case expire(pick: Int)
      /// The session's streams close.
      case close(session: Int)

      var description: String {
        switch self {
        case .snapshot(let foreign, let own): "snapshot(foreign: \(foreign), own: \(own))"
        case .cork(let session, let cork, let lag):
          "\(cork ? "cork" : "uncork")(\(sessions[session]), lag \(lag))"
        case .expire(let pick): "expire(#\(pick))"
        case .close(let session): "close(\(sessions[session]))"
        }
      }
    }

    static var events: Generator<[Event], some SendableSequenceType> {
      zip(
        Gen<Int>.int(in: 0...5), Gen<Bool>.bool, Gen<Bool>.bool, Gen<Int>.int(in: 0...2),
        Gen<Int>.int(in: 0...20)
      ).map { kind, first, second, small, pick -> Event in
        switch kind {
        case 0, 1: .snapshot(foreign: first, own: second)
        case 2, 3: .cork(session: small, cork: first || second, lag: pick % 3)
        case 4: .expire(pick: pick)
        default: .close(session: small)
        }
      }.array(of: 1...40)
    }

    @Test(
      "over any order of snapshots, cork requests, expiries and closes: a call is active exactly while another client's call-role stream shows or a request stands that our own call stream did not cause; a request is settled only by a snapshot after it; a cork our own call stream caused is undone; a stale expiry never ends a newer request (docs/apps.md \"Calls\")"
    )
    func signalsFollowTheirRules() async {
      await propertyCheck(input: Self.events) { events in
        var signals = Signals()
        var sequence = 0
        var facts: Signals.Facts?
        var issued: [(session: String, serial: Int)] = []
        for event in events {
          let before = signals.holds
          switch event {
          case .snapshot(let foreign, let own):
            sequence += 1
            let now = Signals.Facts(sequence: sequence, foreignCall: foreign, ownCallPlaying: own)
            facts = now
            let actions = signals.resolve(now)
            for (session, hold) in before {
              let after = signals.holds[session]
              guard hold.before < sequence else {
                #expect(after == hold, "\(event): a request after the snapshot was settled")
                continue
              }
              if foreign {
                #expect(after?.confirmed == true, "\(event): not confirmed")
              } else if hold.confirmed {
                #expect(after == nil, "\(event): a confirmed call outlived its stream")
              } else if own {
                #expect(after == nil, "\(event): our own call's cork counted as a call")
                #expect(actions.contains(.restoreMute(session: session)))
              } else {
                #expect(after == hold, "\(event): an unexplained request changed")
              }
            }
            let undone = actions.compactMap { action -> String? in
              if case .restoreMute(let session) = action { session } else { nil }
            }
            #expect(
              undone.allSatisfy { before[$0]?.confirmed == false } && (undone.isEmpty || !foreign),
              "\(event): \(actions)")
          case .cork(let index, let cork, let lag):
            let session = Self.sessions[index]
            let actions = signals.corkRequested(
              session: session, cork: cork, settled: max(sequence - lag, 0), facts: facts)
            if cork {
              let expiries = actions.compactMap { action -> Int? in
                if case .expireLater(session, let serial) = action { serial } else { nil }
              }
              #expect(expiries.count == 1, "\(event): \(actions)")
              if let serial = expiries.first {
                #expect(issued.allSatisfy { $0.serial < serial }, "\(event): serial reused")
                issued.append((session, serial))
              }
            } else {
              #expect(signals.holds[session] == nil, "\(event): an uncork left the request")
            }
          case .expire(let pick):
            guard !issued.isEmpty else { continue }
            let (session, serial) = issued[pick % issued.count]
            let ended = signals.expire(session, serial: serial)
            let standing = before[session]
            #expect(ended == (standing?.serial == serial && standing?.confirmed == false))
            #expect(signals.holds[session] == (ended ? nil : standing), "\(event)")
          case .close(let index):
            let session = Self.sessions[index]
            let closed = signals.close(session)
            #expect(closed == (before[session] != nil))
            #expect(signals.holds[session] == nil)
          }
          if let facts {
            #expect(
              signals.callActive(facts)
                == (facts.foreignCall || (!signals.holds.isEmpty && !facts.ownCallPlaying)),
              "\(events)")
          }
        }
        signals.reset()
        #expect(signals.holds.isEmpty && !signals.callActive(nil))
      }
    }

    @Test(
      "a phone stream's story: its cork is a call at once, the stream confirms it, and the call ends when the stream goes, without a request-uncork (docs/apps.md \"Calls\")"
    )
    func phoneStreamStory() {
      var signals = Signals()
      let idle = Signals.Facts(sequence: 1, foreignCall: false, ownCallPlaying: false)
      let requested = signals.corkRequested(session: "music", cork: true, settled: 1, facts: idle)
      #expect(requested == [.expireLater(session: "music", serial: 1)])
      // The snapshot the request was settled after says nothing yet.
      #expect(signals.callActive(idle))
      let first = signals.resolve(idle)
      #expect(first.isEmpty)
      let calling = Signals.Facts(sequence: 2, foreignCall: true, ownCallPlaying: false)
      let second = signals.resolve(calling)
      #expect(second.isEmpty)
      #expect(signals.holds["music"]?.confirmed == true)
      // Confirmed: the expiry a second later does not end it.
      let expired = signals.expire("music", serial: 1)
      #expect(!expired)
      #expect(signals.callActive(calling))
      let over = Signals.Facts(sequence: 3, foreignCall: false, ownCallPlaying: false)
      let third = signals.resolve(over)
      #expect(third.isEmpty)
      #expect(!signals.callActive(over))
    }

    @Test(
      "a call is another client's call-role stream: not ours, not the one named besides, not a saved-state repair stream, and any role not a call role is none (docs/apps.md \"Calls\")"
    )
    func foreignCallIsAnotherClientsCallRoleStream() async {
      let input = zip(
        Gen<UInt32>.uint32(in: 0...3), Gen<Int>.int(in: 0...3), Gen<Bool>.bool(0.2)
      ).map { client, role, repair in
        var properties: [String: String] = [:]
        if let role = [nil, "phone", "music", "communication"][role] {
          properties["media.role"] = role
        }
        if repair { properties[PulseSimulatedDevice.Key.repair] = "1" }
        return PulseSinkInput(
          index: 0, name: "s", clientIndex: client, sinkIndex: 0, properties: properties)
      }.array(of: 0...5)
      await propertyCheck(input: zip(input, Gen<Int>.int(in: 0...4))) { inputs, besides in
        let snapshot = PulseServerSnapshot(sinkInputs: inputs)
        let other: UInt32? = besides < 4 ? UInt32(besides) : nil
        let roles: Set<String> = ["phone", "communication"]
        let calls = inputs.filter {
          $0.clientIndex != 0 && $0.clientIndex != other
            && $0.properties[PulseSimulatedDevice.Key.repair] == nil
            && ($0.role == "phone" || $0.role == "communication")
        }
        #expect(
          PulseCallSignals.foreignCall(in: snapshot, roles: roles, ours: 0, besides: other)
            == !calls.isEmpty, "\(inputs), besides \(other.map(String.init) ?? "none")")
      }
    }
  }
}
