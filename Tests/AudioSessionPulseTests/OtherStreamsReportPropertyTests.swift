import AudioSession
import PropertyBased
import Testing

@testable import AudioSessionPulse

extension PulseAudioTests {
  /// What the host is told of other programs' streams, snapshot by snapshot, and which undos a
  /// stream's going counts with (docs/apps.md "On the server", "WirePlumber 0.5 keeps a
  /// mute"): any order of snapshots, reconnections, undos and waits, with no server.
  @Suite struct OtherStreamsReportPropertyTests {
    enum Step: Sendable, CustomStringConvertible {
      /// A snapshot shows these streams (index → client, corked), on a new connection or not.
      case shown([UInt32: Stream], newConnection: Bool)
      /// An undo is sent for the stream (its mute, or its volumes).
      case undo(UInt32, muted: Bool)
      /// Time passes (milliseconds).
      case wait(Int)

      struct Stream: Sendable, Hashable {
        var client: UInt32
        var corked: Bool
      }

      var description: String {
        switch self {
        case .shown(let streams, let new):
          "\(new ? "reconnect, " : "")shown \(streams.sorted { $0.key < $1.key }.map { "#\($0.key)/c\($0.value.client)\($0.value.corked ? "c" : "")" })"
        case .undo(let index, let muted): "undo #\(index) \(muted ? "mute" : "volumes")"
        case .wait(let ms): "wait \(ms) ms"
        }
      }
    }

    static var steps: Generator<[Step], some SendableSequenceType> {
      let stream = zip(Gen<UInt32>.uint32(in: 0...1), Gen<Bool>.bool).map {
        Step.Stream(client: $0, corked: $1)
      }
      return zip(
        Gen<Int>.int(in: 0...9), stream.array(of: 4...4), Gen<Int>.int(in: 0...15),
        Gen<Bool>.bool, Gen<UInt32>.uint32(in: 0...3), Gen<Int>.int(in: 0...3)
      ).map { kind, streams, present, flag, index, wait -> Step in
        switch kind {
        case 0...5:
          // Which of four indices are shown: the bits of `present`.
          var shown: [UInt32: Step.Stream] = [:]
          for (bit, stream) in streams.enumerated() where present & (1 << bit) != 0 {
            shown[UInt32(bit)] = stream
          }
          return .shown(shown, newConnection: kind == 0 && flag)
        case 6, 7: return .undo(index, muted: flag)
        default: return .wait([500, 1_000, 1_999, 2_500][wait])
        }
      }.array(of: 1...40)
    }

    static func serverStream(_ index: UInt32, _ stream: Step.Stream) -> ServerStream {
      ServerStream(
        key: .init(.playback, index),
        properties: ["application.name": "app \(stream.client)", "media.role": "music"],
        clientIndex: stream.client, isCorked: stream.corked)
    }

    /// What the test expects of an undo: when the last one was, and whether one of its chain
    /// (undos less than the window apart) was a mute or carried volumes.
    struct Undo {
      var at: Duration
      var muted: Bool
      var volumes: Bool
    }

    @Test(
      "over any order of snapshots, reconnections, undos and waits: the events bring a copy of the streams to what the server shows (a whole snapshot on a new connection); a stream is gone when it is no longer shown or another client has its index, with what was last reported and what was undone on it within two seconds; nothing is sent for nothing changed (docs/apps.md \"On the server\")"
    )
    func eventsKeepTheHostsCopy() async {
      await propertyCheck(input: Self.steps) { steps in
        var report = OtherStreamsReport()
        let start = ContinuousClock.now
        var elapsed = Duration.zero
        var connection = 1
        var copy: [ServerStream.Key: ServerStream] = [:]
        var undos: [ServerStream.Key: Undo] = [:]
        var first = true
        for (number, step) in steps.enumerated() {
          let context = "step \(number) \(step) of \(steps)"
          let now = start + elapsed
          switch step {
          case .wait(let ms):
            elapsed += .milliseconds(ms)
          case .undo(let index, let muted):
            let key = ServerStream.Key(.playback, index)
            report.noteUndone(key, muted: muted, original: muted ? nil : [.normal], at: now)
            guard copy[key] != nil else {
              #expect(
                !report.undone(at: now).contains { $0.key == key },
                "\(context): an undo of no stream noted")
              continue
            }
            if let last = undos[key], elapsed - last.at < UndoneStream.window {
              undos[key] = Undo(
                at: elapsed, muted: last.muted || muted, volumes: last.volumes || !muted)
            } else {
              undos[key] = Undo(at: elapsed, muted: muted, volumes: !muted)
            }
          case .shown(let shown, let newConnection):
            if newConnection { connection += 1 }
            let streams = shown.map { Self.serverStream($0.key, $0.value) }
            let before = copy
            let change = report.take(streams, connection: connection, at: now)
            let current = Dictionary(uniqueKeysWithValues: streams.map { ($0.key, $0) })
            if newConnection || first {
              // Indices of the last connection's streams mean nothing on this one.
              undos = [:]
              #expect(change.isSnapshot, "\(context): a new connection sent no snapshot")
              #expect(change.gone.isEmpty && change.appeared.isEmpty, "\(context)")
            }
            first = false
            for event in change.events {
              switch event {
              case .snapshot(let all):
                copy = Dictionary(uniqueKeysWithValues: all.map { ($0.key, $0) })
              case .removed(let key):
                #expect(copy.removeValue(forKey: key) != nil, "\(context): removed \(key) unknown")
              case .updated(let stream):
                #expect(copy[stream.key] != stream, "\(context): \(stream.key) sent unchanged")
                copy[stream.key] = stream
              }
            }
            #expect(copy == current, "\(context): the host's copy is not what the server shows")
            #expect(report.reported == current, "\(context)")
            guard !change.isSnapshot else { continue }
            let goneKeys = before.keys.filter {
              current[$0] == nil || current[$0]?.clientIndex != before[$0]?.clientIndex
            }
            #expect(
              change.gone.map(\.stream.key).sorted() == goneKeys.sorted(),
              "\(context): gone \(change.gone.map(\.stream.key)), expected \(goneKeys)")
            #expect(
              change.appeared
                == Set(current.keys).subtracting(before.keys).union(goneKeys)
                .intersection(current.keys), "\(context): appeared \(change.appeared)")
            for (stream, undone) in change.gone {
              #expect(before[stream.key] == stream, "\(context): gone not as last reported")
              let expected = undos.removeValue(forKey: stream.key).flatMap {
                elapsed - $0.at < UndoneStream.window ? $0 : nil
              }
              #expect(
                (undone != nil) == (expected != nil),
                "\(context): \(stream.key) undone \(undone != nil), expected \(expected != nil)")
              if let undone, let expected {
                // The stream as it was reported when the undo was sent.
                #expect(
                  undone.stream.key == stream.key
                    && undone.stream.clientIndex == stream.clientIndex,
                  "\(context)")
                #expect(undone.state.mutedByUs == expected.muted, "\(context): the undo's mute")
                #expect(
                  (undone.state.savedVolumes != nil) == expected.volumes,
                  "\(context): the undo's volumes")
              }
            }
            if change.events.isEmpty {
              #expect(before == current, "\(context): a change was not sent")
            }
          }
        }
        // The backend stops: the undos still recent, once.
        let now = start + elapsed
        let taken = report.takeUndone(at: now)
        let recent = undos.filter { elapsed - $0.value.at < UndoneStream.window }
        #expect(taken.map(\.key) == recent.keys.sorted(), "at the end of \(steps)")
        #expect(report.takeUndone(at: now).isEmpty, "taken twice, at the end of \(steps)")
      }
    }
  }
}
