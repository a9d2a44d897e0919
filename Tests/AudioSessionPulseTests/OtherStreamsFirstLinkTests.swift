import AudioSession
import Testing

@testable import AudioSessionPulse

extension PulseAudioTests {
  /// Where a program's stream is first seen is its session's chosen output (docs/apps.md "On the
  /// server"), also for a stream routed while on no sink: pipewire-pulse 1.4 shows a native
  /// program's new stream so until WirePlumber links it, and mpv on the headphones was taken
  /// for mpv on the speaker, so that an unplug of the headphones paused nothing.
  @Suite struct OtherStreamsFirstLinkTests {
    static let stream = ServerStream.Key(.playback, 7)

    static func snapshot(_ sequence: Int, streamOn sink: UInt32) -> PulseServerSnapshot {
      PulseServerSnapshot(
        sequence: sequence, server: nil,
        devices: [
          PulseDeviceSnapshot(direction: .output, index: 1, name: "spk"),
          PulseDeviceSnapshot(direction: .output, index: 2, name: "hp"),
        ],
        sinkInputs: [
          PulseSinkInput(
            index: 7, name: "mpv", clientIndex: 3, sinkIndex: sink,
            properties: ["application.process.binary": "mpv"], isMuted: false, channels: 2,
            channelVolumes: [PulseVolume(rawValue: 0x10000), PulseVolume(rawValue: 0x10000)])
        ], sourceOutputs: [])
    }

    static func uid(_ sink: String) -> String? { "uid-\(sink)" }

    @Test(
      "a stream routed while on no sink is adopted where it is first linked, once, whatever else the burst changed (docs/apps.md On the server)"
    )
    func routedUnlinked_adoptedWhereLinked() {
      var model = OtherStreamsModel(systemDevices: true, duckVolume: { $0 })
      var actions: [OtherStreamsModel.Action] = []
      model.see(Self.snapshot(1, streamOn: UInt32.max))
      model.assign(StreamAssignment([Self.stream: "mpv.1"]), into: &actions)
      model.follow(
        Self.stream, OtherStreamsModel.Decision(sink: "spk"), uid: Self.uid, into: &actions)
      #expect(!actions.contains { if case .deviceChosen = $0 { true } else { false } })
      #expect(model.unlinkedFirst == [Self.stream])
      // Still on no sink: nothing yet.
      model.see(Self.snapshot(2, streamOn: UInt32.max))
      actions = []
      model.adoptLinked(uid: Self.uid, into: &actions)
      #expect(actions.isEmpty)
      // Linked to the headphones: that is where it was first seen.
      model.see(Self.snapshot(3, streamOn: 2))
      actions = []
      model.adoptLinked(uid: Self.uid, into: &actions)
      #expect(
        actions == [
          .deviceChosen(
            session: "mpv.1", uid: "uid-hp", key: Self.stream, sink: "hp", firstSeen: true)
        ])
      #expect(model.unlinkedFirst.isEmpty)
      // The user's-move check of the same snapshot takes it for no move.
      actions = []
      model.movedByUser(
        from: Self.snapshot(2, streamOn: UInt32.max), to: Self.snapshot(3, streamOn: 2),
        uid: Self.uid, into: &actions)
      #expect(actions.isEmpty)
      // Linked to the route's own device instead, nothing is chosen.
      var other = OtherStreamsModel(systemDevices: true, duckVolume: { $0 })
      other.see(Self.snapshot(1, streamOn: UInt32.max))
      other.assign(StreamAssignment([Self.stream: "mpv.1"]), into: &actions)
      other.follow(
        Self.stream, OtherStreamsModel.Decision(sink: "spk"), uid: Self.uid, into: &actions)
      other.see(Self.snapshot(2, streamOn: 1))
      actions = []
      other.adoptLinked(uid: Self.uid, into: &actions)
      #expect(actions.isEmpty)
      #expect(other.unlinkedFirst.isEmpty)
    }
  }
}
