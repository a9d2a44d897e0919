import AudioSession
import PropertyBased
import Testing

@testable import AudioSessionPulse

extension PulseAudioTests {
  /// Which corks of other programs' streams are a start-up flap (docs/apps.md "A cork as a
  /// stream starts"): any order of snapshots, the server's answers and streams going, with no
  /// server.
  @Suite struct StartCorkFilterPropertyTests {
    enum Event: Sendable, CustomStringConvertible {
      /// A snapshot shows stream `stream` corked or playing; its session is paused by us or not.
      case seen(stream: Int, corked: Bool, pausedByUs: Bool)
      /// The server answers a check of the stream: corked (or gone), or playing.
      case answer(stream: Int, corked: Bool)
      case gone(stream: Int)

      var description: String {
        switch self {
        case .seen(let stream, let corked, let paused):
          "#\(stream) \(corked ? "corked" : "playing")\(paused ? " (paused by us)" : "")"
        case .answer(let stream, let corked): "answer #\(stream) \(corked ? "corked" : "playing")"
        case .gone(let stream): "#\(stream) gone"
        }
      }
    }

    static var events: Generator<[Event], some SendableSequenceType> {
      zip(Gen<Int>.int(in: 0...9), Gen<Int>.int(in: 0...2), Gen<Bool>.bool, Gen<Bool>.bool).map {
        kind, stream, first, second -> Event in
        switch kind {
        case 0...5: .seen(stream: stream, corked: first, pausedByUs: second && kind == 0)
        case 6, 7, 8: .answer(stream: stream, corked: first)
        default: .gone(stream: stream)
        }
      }.array(of: 1...40)
    }

    /// What the test knows of one stream's life so far.
    struct Life {
      var played = false
      var holds = 0
      var released = false
      var playedAfterHold = false
      var pausedFirst = false
      var corkedOnceSeen = false
    }

    @Test(
      "over any order of snapshots, answers and streams going: only the first cork of a stream that has played is held, once per stream, never one whose session is paused by us; each hold asks the server once, and is reported once the server still shows the cork, or ends when the stream plays again; a stream that started corked is never held (docs/apps.md \"A cork as a stream starts\")"
    )
    func holdsOnlyTheFirstCorkOfAPlayedStream() async {
      await propertyCheck(input: Self.events) { events in
        var filter = StartCorkFilter()
        var lives: [Int: Life] = [:]
        var asked: Set<Int> = []
        for (step, event) in events.enumerated() {
          let context = "step \(step) \(event) of \(events)"
          switch event {
          case .seen(let stream, let corked, let pausedByUs):
            let key = ServerStream.Key(.playback, UInt32(stream))
            var life = lives[stream] ?? Life()
            let holdingBefore = filter.awaitsAnswer(key)
            let seen = filter.see(key, corked: corked) { pausedByUs }
            if seen.held {
              #expect(corked && life.played, "\(context): held a cork of a stream never played")
              #expect(!life.released, "\(context): held a released cork")
              #expect(!life.playedAfterHold, "\(context): held after the flap was over")
              #expect(!life.pausedFirst, "\(context): held a cork that answered our pause")
            }
            if seen.check {
              #expect(seen.held && life.holds == 0, "\(context): a second hold, or a check alone")
              #expect(!pausedByUs, "\(context): held while paused by us")
              life.holds += 1
              asked.insert(stream)
            }
            // The first cork of a played stream, not paused by us and not yet over, is held.
            if corked, life.played, life.holds == 0, !life.pausedFirst, !life.corkedOnceSeen,
              !pausedByUs
            {
              #expect(seen.held && seen.check, "\(context): the first cork was reported")
            }
            if !corked {
              #expect(!seen.held, "\(context): a playing stream held")
              if holdingBefore || life.holds > 0 { life.playedAfterHold = true }
              life.played = true
            } else if life.played {
              if life.holds == 0, pausedByUs { life.pausedFirst = true }
              life.corkedOnceSeen = true
            }
            lives[stream] = life
          case .answer(let stream, let corked):
            let key = ServerStream.Key(.playback, UInt32(stream))
            let awaited = filter.awaitsAnswer(key)
            let answer = filter.checked(key, corked: corked)
            #expect((answer != nil) == awaited, "\(context)")
            if awaited {
              #expect(asked.contains(stream), "\(context): an answer no hold asked for")
              #expect(answer == (corked ? .released : .askAgain), "\(context)")
              if corked { lives[stream]?.released = true }
            }
          case .gone(let stream):
            filter.forget(ServerStream.Key(.playback, UInt32(stream)))
            lives[stream] = nil
            asked.remove(stream)
          }
        }
      }
    }

    @Test(
      "espeak-ng's start: it plays, corks 15 ms later and plays on; the cork is held, the server's answer finds it playing, and nothing is reported; its later pause is (docs/apps.md \"A cork as a stream starts\")"
    )
    func espeakStart() {
      var filter = StartCorkFilter()
      let key = ServerStream.Key(.playback, 7)
      #expect(filter.see(key, corked: false) { false } == .init(held: false, check: false))
      #expect(filter.see(key, corked: true) { false } == .init(held: true, check: true))
      #expect(filter.checked(key, corked: false) == .askAgain)
      #expect(filter.see(key, corked: false) { false } == .init(held: false, check: false))
      #expect(filter.checked(key, corked: false) == nil)
      // The flap is over: its pause is reported at once.
      #expect(filter.see(key, corked: true) { false } == .init(held: false, check: false))
    }
  }
}
