import AudioSession
import PropertyBased
import Testing

@testable import AudioSessionPulse

extension PulseAudioTests {
  /// What the server's stream database may hand a new stream because of the backend, and its
  /// undoing (docs/apps.md "WirePlumber 0.5 keeps a mute"): any order of streams going changed,
  /// undos, new streams, snapshots and time, with no server.
  @Suite struct StreamInheritancePropertyTests {
    typealias LeftBehind = OtherStreamsModel.LeftBehind

    static let entries = ["sink-input-by-media-role:music", "sink-input-by-media-role:phone"]
    /// Two volumes a stream may have had, and their ducked forms.
    static let originals: [[PulseVolume]] = [
      [PulseVolume(rawValue: 65536), PulseVolume(rawValue: 65536)],
      [PulseVolume(rawValue: 40000), PulseVolume(rawValue: 40000)],
    ]
    static func ducked(_ volumes: [PulseVolume]) -> [PulseVolume] {
      volumes.map { PulseVolume(rawValue: $0.rawValue / 10) }
    }

    enum Event: Sendable, CustomStringConvertible {
      /// A stream of the entry went with the backend's mute and/or ducking of `volumes`.
      case went(entry: Int, muted: Bool, volumes: Int?)
      /// The backend undid a mute and/or ducking on a stream of the entry.
      case undone(entry: Int, muted: Bool, volumes: Int?)
      /// Stream `key` of the entry appeared.
      case appeared(key: Int, entry: Int)
      /// Time passes.
      case wait(milliseconds: Int)
      /// A snapshot shows stream `key` muted or not, at volumes (0, 1: an original; 2, 3: its
      /// ducked form; 4: the user's own), and whether the backend has muted or ducked it.
      case shown(key: Int, muted: Bool, volumes: Int, byUs: Bool)
      /// The streams are gone (a snapshot shows none of them).
      case gone

      var description: String {
        switch self {
        case .went(let entry, let muted, let volumes):
          "went(\(entry), muted \(muted), ducked \(volumes.map(String.init) ?? "-"))"
        case .undone(let entry, let muted, let volumes):
          "undone(\(entry), muted \(muted), ducked \(volumes.map(String.init) ?? "-"))"
        case .appeared(let key, let entry): "appeared(#\(key) of \(entry))"
        case .wait(let milliseconds): "wait(\(milliseconds) ms)"
        case .shown(let key, let muted, let volumes, let byUs):
          "shown(#\(key), muted \(muted), volumes \(volumes)\(byUs ? ", by us" : ""))"
        case .gone: "gone"
        }
      }
    }

    static var events: Generator<[Event], some SendableSequenceType> {
      zip(
        Gen<Int>.int(in: 0...11), Gen<Int>.int(in: 0...3), Gen<Bool>.bool, Gen<Int>.int(in: 0...4),
        Gen<Bool>.bool
      ).map { kind, small, flag, volumes, other -> Event in
        let ducking = volumes < 2 ? volumes : nil
        switch kind {
        case 0: return .went(entry: small % 2, muted: flag, volumes: ducking)
        case 1: return .undone(entry: small % 2, muted: flag, volumes: ducking)
        case 2, 3: return .appeared(key: small, entry: other ? 1 : 0)
        case 4: return .wait(milliseconds: [100, 1000, 3000, 6000][small])
        case 5: return .gone
        default: return .shown(key: small, muted: flag, volumes: volumes, byUs: other && kind == 6)
        }
      }.array(of: 1...40)
    }

    /// A source of inheritance the test keeps: what was left, until when (nil: for good).
    struct Source {
      var left: LeftBehind
      var until: ContinuousClock.Instant?
    }

    @Test(
      "over any order of streams going changed, undos, new streams, snapshots and time: a new stream is unmuted exactly when it shows muted within five seconds of appearing, the backend did not mute it, and a stream of its entry went muted or was unmuted lately; it is given the volumes before ducking only when it shows exactly a ducked form that a stream of its entry left; nothing is done to a stream not watched, gone, or past its window (docs/apps.md \"WirePlumber 0.5 keeps a mute\")"
    )
    func undoesOnlyWhatTheBackendLeft() async {
      await propertyCheck(count: 1000, input: Self.events) { events in
        var inheritance = StreamInheritance()
        let start = ContinuousClock.now
        var now = start
        var sources: [Int: [Source]] = [:]
        var watched: [Int: (entry: Int, until: ContinuousClock.Instant)] = [:]
        for (step, event) in events.enumerated() {
          let context = "step \(step) \(event) of \(events)"
          switch event {
          case .went(let entry, let muted, let volumes):
            let left = LeftBehind(
              muted: muted, ducked: volumes.map { Self.ducked(Self.originals[$0]) },
              original: volumes.map { Self.originals[$0] })
            inheritance.wentChanged(left, entry: Self.entries[entry])
            // The entry keeps the last stream that went.
            sources[entry, default: []].removeAll { $0.until == nil }
            sources[entry, default: []].append(Source(left: left, until: nil))
          case .undone(let entry, let muted, let volumes):
            let left = LeftBehind(
              muted: muted, ducked: volumes.map { Self.ducked(Self.originals[$0]) },
              original: volumes.map { Self.originals[$0] })
            inheritance.undone(left, entry: Self.entries[entry], at: now)
            sources[entry, default: []].append(
              Source(left: left, until: now + StreamInheritance.window))
          case .appeared(let key, let entry):
            inheritance.appeared(
              .init(.playback, UInt32(key)), entry: Self.entries[entry], at: now)
            watched[key] = (entry, now + StreamInheritance.window)
          case .wait(let milliseconds):
            now += .milliseconds(milliseconds)
          case .gone:
            // A snapshot shows none of them.
            watched = [:]
            let fixes = inheritance.fixes(
              [], at: now, living: { _, _ in [] }, changed: { _ in nil })
            #expect(fixes.isEmpty && inheritance.fresh.isEmpty, "\(context)")
          case .shown(let key, let muted, let volumes, let byUs):
            let streamKey = ServerStream.Key(.playback, UInt32(key))
            let shownVolumes =
              volumes < 2
              ? Self.originals[volumes]
              : volumes < 4
                ? Self.ducked(Self.originals[volumes - 2]) : [PulseVolume(rawValue: 12345)]
            let state: OtherStreamsModel.StreamState? =
              byUs ? OtherStreamsModel.StreamState(mutedByUs: muted) : nil
            // Only this stream is shown: the others are gone.
            let fixes = inheritance.fixes(
              [.init(key: streamKey, muted: muted, volumes: shownVolumes)], at: now,
              living: { _, _ in [] }, changed: { $0 == streamKey ? state : nil })
            let watch = watched[key].flatMap { now < $0.until ? $0 : nil }
            watched = watch.map { [key: $0] } ?? [:]
            guard let watch else {
              #expect(fixes.isEmpty, "\(context): a stream not watched was fixed: \(fixes)")
              continue
            }
            let live = sources[watch.entry, default: []].filter {
              $0.until.map { now < $0 } ?? true
            }
            let mutedSource = live.contains { $0.left.muted }
            let unmute = muted && !(state?.mutedByUs ?? false) && mutedSource
            #expect(
              fixes.contains(.unmute(streamKey)) == unmute, "\(context): unmute \(fixes)")
            for fix in fixes {
              guard case .setVolumes(let fixed, let original) = fix else { continue }
              #expect(fixed == streamKey && state?.savedVolumes == nil, "\(context)")
              #expect(
                live.contains {
                  $0.left.ducked == shownVolumes && $0.left.original == original
                },
                "\(context): volumes \(original) given for \(shownVolumes)")
            }
            if volumes >= 2, !live.contains(where: { $0.left.ducked != nil }) {
              #expect(
                !fixes.contains { if case .setVolumes = $0 { true } else { false } },
                "\(context): undid a ducking no stream left")
            }
          }
        }
      }
    }

    @Test(
      "a second player starts muted by the database five seconds or more after it appeared: it is the program's own start, and left alone; within the window it is unmuted (docs/apps.md \"WirePlumber 0.5 keeps a mute\")"
    )
    func windowEnds() {
      let start = ContinuousClock.now
      let key = ServerStream.Key(.playback, 3)
      let entry = Self.entries[0]
      let shown = [StreamInheritance.Shown(key: key, muted: true, volumes: Self.originals[0])]
      func fixes(after seconds: Int) -> [StreamInheritance.Fix] {
        var inheritance = StreamInheritance()
        inheritance.wentChanged(LeftBehind(muted: true), entry: entry)
        inheritance.appeared(key, entry: entry, at: start)
        return inheritance.fixes(
          shown, at: start + .seconds(seconds), living: { _, _ in [] }, changed: { _ in nil })
      }
      #expect(fixes(after: 4) == [.unmute(key)])
      #expect(fixes(after: 5).isEmpty)
      #expect(fixes(after: 6).isEmpty)
    }
  }
}
