import AudioSession
import Foundation
import PropertyBased
import Testing

@testable import AudioSessionPulse

extension PulseAudioTests {
  /// The changes file and its intent file (docs/apps.md "A daemon that was killed"): what one
  /// daemon writes, the next reads back for its server only, and undoes only on the streams that
  /// still have exactly what it gave them; with no server and no file.
  @Suite struct ChangesFilePropertyTests {
    typealias Entry = ChangesFile.Entry

    static let volumes: [[PulseVolume]] = [
      [.normal, .normal], [PulseVolume(rawValue: 40_000)], [PulseVolume(rawValue: 0)],
    ]

    static var entry: Generator<Entry, some SendableSequenceType> {
      zip(
        Gen<Bool>.bool, Gen<UInt32>.uint32(in: 0...4), Gen<Int>.int(in: 0...2), Gen<Bool>.bool,
        Gen<Int>.int(in: 0...3), Gen<Int>.int(in: 0...3), Gen<Int>.int(in: 0...2)
      ).map { playback, index, pid, muted, saved, shown, name in
        let original = saved < volumes.count && playback ? volumes[saved] : nil
        return Entry(
          key: .init(playback ? .playback : .record, index),
          pid: pid == 0 ? nil : "\(100 + pid)", muted: muted, volumes: original,
          ducked: original.map { $0.map { PulseVolume(rawValue: $0.rawValue / 4) } },
          shown: original == nil && shown < volumes.count ? volumes[shown] : nil,
          restoreName: [
            nil, "sink-input-by-media-role:music", "sink-input-by-application-name:ünï \"q\"",
          ][name])
      }
    }

    static func once(_ entries: [Entry]) -> [Entry] {
      var kept: [Entry] = []
      for entry in entries where !kept.contains(entry) { kept.append(entry) }
      return kept
    }

    static func text(_ entries: [Entry], _ server: String) -> [UInt8]? {
      let text = ChangesFile.text(entries, server: server)
      return text.isEmpty ? nil : Array(text.utf8)
    }

    @Test(
      "any entries written to the changes file and the intent file read back as they were, each once, the intents first; another server's read as none; a file of another version or not JSON is damaged, the intents still read (docs/apps.md \"A daemon that was killed\")"
    )
    func writtenReadsBack() async {
      let input = zip(
        Self.entry.array(of: 0...6), Self.entry.array(of: 0...3), Self.entry.array(of: 0...3))
      await propertyCheck(input: input) { listed, intended, foreign in
        let server = "unix:/run/user/1000/pulse/native"
        var intents: [UInt8] = []
        for entry in intended { intents += ChangesFile.intentLine(entry, server: server) }
        for entry in foreign { intents += ChangesFile.intentLine(entry, server: "unix:/other") }
        let read = ChangesFile.listed(
          changes: Self.text(listed, server), intents: intents, server: server)
        #expect(read == .init(entries: Self.once(intended + listed)), "\(listed), \(intended)")
        #expect(
          ChangesFile.listed(
            changes: Self.text(listed, "unix:/other"), intents: nil, server: server)
            == .init(entries: []), "another server's file")
        for bad in ["{\"v\":2,\"server\":\"\(server)\",\"streams\":[]}", "not json", "[]", ""] {
          #expect(
            ChangesFile.listed(changes: Array(bad.utf8), intents: intents, server: server)
              == .init(entries: Self.once(intended), changesDamaged: true), "\(bad)")
        }
      }
    }

    @Test(
      "a changes file cut short is damaged, and every stream wholly before the cut is still read, in order; an intent file with a line cut or altered is damaged, and its other lines are read (docs/apps.md \"A daemon that was killed\")"
    )
    func damagedFilesReadWhatIsLeft() async {
      let input = zip(Self.entry.array(of: 1...6), Gen<Int>.int(in: 0...10_000))
      await propertyCheck(input: input) { written, cutAt in
        let server = "unix:/run/user/1000/pulse/native"
        let entries = Self.once(written)
        let text = Array(ChangesFile.text(entries, server: server).utf8)
        // Cut anywhere before the closing "]}" and its newline.
        let cut = cutAt % (text.count - 2)
        let left = Array(text[..<cut])
        let listed = ChangesFile.listed(changes: left, intents: nil, server: server)
        #expect(listed.changesDamaged, "cut at \(cut)")
        #expect(!listed.intentsDamaged)
        // The streams whose object closes before the cut.
        let closed = String(decoding: left, as: UTF8.self).components(
          separatedBy: #"{"direction":"#
        )
        .dropFirst().filter { $0.contains("}") }.count
        #expect(listed.entries == Array(entries.prefix(closed)), "cut at \(cut)")

        // The intent file: its middle line altered, its last line torn.
        var intents: [[UInt8]] = entries.map { ChangesFile.intentLine($0, server: server) }
        if intents.count >= 2 {
          intents[0][0] = UInt8(ascii: "#")
          intents[intents.count - 1].removeLast(2)
          let read = ChangesFile.listed(
            changes: nil, intents: intents.flatMap { $0 }, server: server)
          #expect(read.intentsDamaged)
          #expect(!read.changesDamaged)
          #expect(read.entries == Self.once(Array(entries.dropFirst().dropLast())))
        }
      }
    }

    /// A stream on the server, as the next daemon's first snapshot shows it.
    struct Shown: Sendable {
      var playback: Bool
      var index: UInt32
      var pid: Int
      var muted: Bool
      var ducked: Bool
    }

    @Test(
      "undone from what a killed daemon listed: a stream still there, by the same program, is unmuted only if still muted and given its volumes back only if still at the ducked ones; one that went hands its database entry on; nothing else is touched (docs/apps.md \"A daemon that was killed\")"
    )
    func undoesOnlyWhatIsStillThere() async {
      let shown = zip(
        Gen<Bool>.bool, Gen<UInt32>.uint32(in: 0...4), Gen<Int>.int(in: 0...2), Gen<Bool>.bool,
        Gen<Bool>.bool
      ).map { Shown(playback: $0, index: $1, pid: $2, muted: $3, ducked: $4) }
      let input = zip(Self.entry.array(of: 0...6), shown.array(of: 0...6))
      await propertyCheck(input: input) { entries, streams in
        var snapshot = PulseServerSnapshot()
        for stream in streams {
          let properties = stream.pid == 0 ? [:] : ["application.process.id": "\(100 + stream.pid)"]
          if stream.playback, !snapshot.sinkInputs.contains(where: { $0.index == stream.index }) {
            // At the ducked volumes of an entry of its index, or at full volume.
            let ducked = entries.first { $0.key == .init(.playback, stream.index) }?.ducked
            snapshot.sinkInputs.append(
              PulseSinkInput(
                index: stream.index, name: "s", sinkIndex: 0, properties: properties,
                isMuted: stream.muted,
                channelVolumes: stream.ducked ? ducked ?? [.normal] : [.normal, .normal]))
          } else if !stream.playback,
            !snapshot.sourceOutputs.contains(where: { $0.index == stream.index })
          {
            snapshot.sourceOutputs.append(
              PulseSourceOutput(
                index: stream.index, name: "r", sourceIndex: 0, properties: properties,
                isMuted: stream.muted))
          }
        }
        var expected: [ChangesFile.Undo] = []
        for entry in entries {
          let pid = { (properties: [String: String]) in
            properties["application.process.id"] == entry.pid
          }
          if entry.key.direction == .playback,
            let input = snapshot.sinkInputs.first(where: {
              $0.index == entry.key.index && pid($0.properties)
            })
          {
            if entry.muted && input.isMuted { expected.append(.unmute(entry.key)) }
            if let volumes = entry.volumes, let ducked = entry.ducked,
              input.channelVolumes == ducked
            {
              expected.append(.setVolumes(index: entry.key.index, volumes))
            }
          } else if entry.key.direction == .record,
            let output = snapshot.sourceOutputs.first(where: {
              $0.index == entry.key.index && pid($0.properties)
            })
          {
            if entry.muted && output.isMuted { expected.append(.unmute(entry.key)) }
          } else if entry.restoreName != nil {
            expected.append(.gone(entry))
          }
        }
        #expect(
          ChangesFile.undos(entries, in: snapshot) == expected, "\(entries) on \(snapshot)")
      }
    }
  }
}
