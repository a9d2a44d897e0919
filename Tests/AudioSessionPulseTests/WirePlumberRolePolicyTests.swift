import AudioSession
import PropertyBased
import Testing

@testable import AudioSessionPulse

extension PulseAudioTests {
  /// WirePlumber 0.5's role sinks as the backend reads them from a snapshot, with no server
  /// (docs/pulseaudio.md §2.2; docs/apps.md "Beside WirePlumber's role policy"): a stream on a
  /// role sink is heard on the device behind it, and what the role policy does to it (duck,
  /// cork) is left to WirePlumber.
  @Suite struct WirePlumberRolePolicyTests {
    typealias Key = ServerStream.Key

    /// The role sinks of WirePlumber's example (`media-role-nodes.conf`), as pipewire-pulse
    /// shows them: name, priority, action on the same priority, on lower ones.
    static let roles: [(name: String, priority: Int, same: String, lower: String)] = [
      ("multimedia", 10, "mix", "mix"), ("notification", 20, "mix", "mix"),
      ("navigation", 30, "mix", "duck"), ("assistant", 40, "mix", "cork"),
      ("communication", 50, "mix", "cork"),
    ]
    /// The device behind them.
    static let speaker: UInt32 = 1

    /// A role sink's index.
    static func sinkIndex(_ role: String) -> UInt32 {
      UInt32(10 + roles.firstIndex { $0.name == role }!)
    }

    /// The devices: the speaker and the role sinks.
    /// The roles each role sink lists (`device.intended_roles`), as the example has them.
    static let intended = [
      "multimedia": #"[ "Music", "Movie", "Game", "Multimedia" ]"#,
      "notification": #"[ "Notification" ]"#, "navigation": #"[ "Navigation", "GPS" ]"#,
      "assistant": #"[ "Assistant" ]"#, "communication": #"[ "Communication", "Phone" ]"#,
    ]

    static var devices: [PulseDeviceSnapshot] {
      [PulseDeviceSnapshot(direction: .output, index: speaker, name: "spk")]
        + roles.map { role in
          PulseDeviceSnapshot(
            direction: .output, index: sinkIndex(role.name),
            name: "input.loopback.sink.role.\(role.name)",
            properties: [
              "policy.role-based.target": "true",
              "policy.role-based.priority": "\(role.priority)",
              "policy.role-based.action.same-priority": role.same,
              "policy.role-based.action.lower-priority": role.lower,
              "node.link-group": "loopback-\(role.name)", "node.virtual": "true",
              "device.intended_roles": intended[role.name] ?? "",
            ])
        }
    }

    /// Each role sink's loopback stream (WirePlumber's, no client) onto the speaker.
    static var loopbacks: [PulseSinkInput] {
      roles.enumerated().map { offset, role in
        PulseSinkInput(
          index: UInt32(100 + offset), name: "output.loopback.sink.role.\(role.name)",
          sinkIndex: speaker, properties: ["node.link-group": "loopback-\(role.name)"])
      }
    }

    /// A program's stream on a role sink (or the speaker).
    static func stream(_ index: UInt32, on sink: UInt32, corked: Bool = false) -> PulseSinkInput {
      PulseSinkInput(
        index: index, name: "stream \(index)", clientIndex: 7, sinkIndex: sink, isCorked: corked)
    }

    static func snapshot(_ streams: [PulseSinkInput]) -> PulseServerSnapshot {
      PulseServerSnapshot(sequence: 1, devices: devices, sinkInputs: loopbacks + streams)
    }

    // docs/pulseaudio.md §2.2: a role sink passes its audio on to the device behind it
    @Test("a stream on a role sink is heard on the device its loopback plays on")
    func audibleSink_throughLoopback() {
      let music = Self.stream(1, on: Self.sinkIndex("multimedia"))
      let snapshot = Self.snapshot([music])
      #expect(snapshot.audibleSink(Self.sinkIndex("multimedia"))?.name == "spk")
      #expect(snapshot.audibleSink(Self.speaker)?.name == "spk")
      // A loopback whose output is unlinked (its device went) is heard nowhere.
      var unlinked = snapshot
      unlinked.sinkInputs = unlinked.sinkInputs.map { input in
        var input = input
        if input.clientIndex == nil { input.sinkIndex = UInt32.max }
        return input
      }
      #expect(unlinked.audibleSink(Self.sinkIndex("multimedia")) == nil)
    }

    // docs/pulseaudio.md §2.2: the role policy of WirePlumber's example
    @Test(
      "the role policy ducks music under navigation, corks it under a call or an assistant, and mixes it with a notification",
      arguments: [
        ("navigation", PulseRolePolicy.Action.duck), ("communication", .cork),
        ("assistant", .cork), ("notification", .mix), ("multimedia", .mix),
      ])
    func musicUnder(role: String, expected: PulseRolePolicy.Action) {
      let music = Self.stream(1, on: Self.sinkIndex("multimedia"))
      let other = Self.stream(2, on: Self.sinkIndex(role))
      #expect(Self.snapshot([music, other]).rolePolicyAction(on: 1) == expected)
      // The other stream is not acted on by the music, of a lower priority.
      #expect(Self.snapshot([music, other]).rolePolicyAction(on: 2) == .mix)
      // A corked interrupter does nothing; the music alone is left alone.
      let corked = Self.stream(2, on: Self.sinkIndex(role), corked: true)
      #expect(Self.snapshot([music, corked]).rolePolicyAction(on: 1) == .mix)
      #expect(Self.snapshot([music]).rolePolicyAction(on: 1) == .mix)
    }

    // docs/pulseaudio.md §2.2: the sink of the highest priority decides, and a stream
    // WirePlumber corked shows on no sink
    @Test(
      "under a call and a navigation prompt at once the music is corked (the call's priority is the highest); a corked stream, on no sink, is judged by the sink it was last on"
    )
    func highestPriorityDecides_lastSink() {
      let music = Self.stream(1, on: Self.sinkIndex("multimedia"))
      let navigation = Self.stream(2, on: Self.sinkIndex("navigation"))
      let call = Self.stream(3, on: Self.sinkIndex("communication"))
      #expect(Self.snapshot([music, navigation, call]).rolePolicyAction(on: 1) == .cork)
      // Navigation's own stream is corked too, by the call.
      #expect(Self.snapshot([music, navigation, call]).rolePolicyAction(on: 2) == .cork)
      let unlinked = Self.stream(1, on: UInt32.max)
      let snapshot = Self.snapshot([unlinked, call])
      #expect(snapshot.rolePolicyAction(on: 1, lastSink: Self.sinkIndex("multimedia")) == .cork)
      #expect(snapshot.rolePolicyAction(on: 1, lastSink: Self.sinkIndex("communication")) == .mix)
    }

    // docs/pulseaudio.md §2.2: a new stream shows on no sink until WirePlumber links it
    @Test(
      "a stream on no sink yet counts on the role sink WirePlumber links it to: by its role, translated from PulseAudio's names (phone is Communication), else the Multimedia one"
    )
    func streamOnNoSink_countsOnItsRoleSink() {
      func unlinked(_ index: UInt32, role: String?) -> PulseSinkInput {
        var input = Self.stream(index, on: UInt32.max)
        input.properties["media.role"] = role
        return input
      }
      let music = Self.stream(1, on: Self.sinkIndex("multimedia"))
      // A prompt not linked yet already ducks the music; a call corks it.
      #expect(
        Self.snapshot([music, unlinked(2, role: "Navigation")]).rolePolicyAction(on: 1) == .duck)
      #expect(Self.snapshot([music, unlinked(2, role: "phone")]).rolePolicyAction(on: 1) == .cork)
      // No role, or one no role sink lists: the Multimedia sink, which does nothing to music.
      #expect(Self.snapshot([music, unlinked(2, role: nil)]).rolePolicyAction(on: 1) == .mix)
      #expect(Self.snapshot([music, unlinked(2, role: "Unknown")]).rolePolicyAction(on: 1) == .mix)
      // On the speaker for a moment (pipewire-pulse shows it on the default sink before
      // WirePlumber links it): counted on its role sink, unless it asked for the speaker.
      var early = Self.stream(2, on: Self.speaker)
      early.properties["media.role"] = "Navigation"
      #expect(Self.snapshot([music, early]).rolePolicyAction(on: 1) == .duck)
      early.properties["target.object"] = "spk"
      #expect(Self.snapshot([music, early]).rolePolicyAction(on: 1) == .mix)
      // The unlinked music itself, under a call, is corked by it.
      let call = Self.stream(3, on: Self.sinkIndex("communication"))
      #expect(Self.snapshot([unlinked(1, role: "music"), call]).rolePolicyAction(on: 1) == .cork)
    }

    // docs/apps.md "Beside WirePlumber's role policy": never act twice on one thing
    @Test(
      "for any streams on role sinks and any decision, the model neither mutes for an interruption nor ducks a stream the role policy ducks or corks, and does both to one it leaves alone"
    )
    func model_leavesToRolePolicy() async {
      let sinks = [Self.speaker] + Self.roles.map { Self.sinkIndex($0.name) }
      let streams = Gen<Int>.int(in: 0..<sinks.count).array(of: 1...5)
      let corks = Gen<Bool>.bool.array(of: 5)
      let decisions = Gen<Bool>.bool.array(of: 3)
      await propertyCheck(count: 400, input: streams, corks, decisions) { placed, corked, decided in
        let inputs = placed.enumerated().map { offset, sink in
          Self.stream(UInt32(offset + 1), on: sinks[sink], corked: corked[offset])
        }
        let snapshot = Self.snapshot(inputs)
        var model = OtherStreamsModel(systemDevices: false, duckVolume: { $0 })
        model.see(snapshot)
        var actions: [OtherStreamsModel.Action] = []
        let assignment = Dictionary(
          uniqueKeysWithValues: inputs.map { (Key(.playback, $0.index), "app\($0.index)") })
        model.assign(StreamAssignment(assignment), into: &actions)
        let decision = OtherStreamsModel.Decision(
          muted: false, interrupted: decided[0], playing: decided[1], ducked: decided[2])
        for input in inputs {
          let key = Key(.playback, input.index)
          actions.removeAll()
          model.follow(key, decision, uid: { $0 }, into: &actions)
          let byRolePolicy = snapshot.rolePolicyAction(on: input.index) != .mix
          let muted = actions.contains(.mute(key))
          let ducked = actions.contains(.readVolumes(key))
          if byRolePolicy {
            #expect(!ducked, "\(input) \(decision) \(actions)")
            #expect(!(muted && decision.interrupted), "\(input) \(decision) \(actions)")
          } else {
            #expect(muted == decision.silenced, "\(input) \(decision) \(actions)")
            #expect(ducked == (decision.ducked && !decision.silenced), "\(input) \(actions)")
          }
        }
      }
    }

    // docs/apps.md "Beside WirePlumber's role policy": what the role policy stops doing, the
    // model does
    @Test(
      "a music stream interrupted while a call plays on the communication sink is left to WirePlumber; once the call's stream corks, the model mutes it"
    )
    func model_takesOverWhenRolePolicyStops() {
      let key = Key(.playback, 1)
      let music = Self.stream(1, on: Self.sinkIndex("multimedia"))
      var model = OtherStreamsModel(systemDevices: false, duckVolume: { $0 })
      var actions: [OtherStreamsModel.Action] = []
      model.see(Self.snapshot([music, Self.stream(2, on: Self.sinkIndex("communication"))]))
      model.assign(StreamAssignment([key: "music"]), into: &actions)
      let interrupted = OtherStreamsModel.Decision(interrupted: true, playing: false)
      model.follow(key, interrupted, uid: { $0 }, into: &actions)
      #expect(!actions.contains(.mute(key)), "\(actions)")
      actions.removeAll()
      model.see(
        Self.snapshot([
          music, Self.stream(2, on: Self.sinkIndex("communication"), corked: true),
        ]))
      model.follow(key, interrupted, uid: { $0 }, into: &actions)
      #expect(actions.contains(.mute(key)), "\(actions)")
    }
    // docs/apps.md "On the server": a stream on no sink is WirePlumber's to link
    @Test(
      "a stream the role policy corked (on no sink) before the daemon started is not moved when its route changes: WirePlumber links it to its role sink again (docs/apps.md On the server)"
    )
    func model_leavesUnlinkedStreamToWirePlumber() {
      let key = Key(.playback, 1)
      // A daemon started during a call: the music's stream is already unlinked, and it never saw
      // on which role sink it was.
      let unlinked = PulseSinkInput(
        index: 1, name: "stream 1", clientIndex: 7, sinkIndex: UInt32.max,
        properties: ["media.role": "music"])
      let call = PulseSinkInput(
        index: 2, name: "stream 2", clientIndex: 8, sinkIndex: Self.sinkIndex("communication"),
        properties: ["media.role": "phone"])
      var model = OtherStreamsModel(systemDevices: false, duckVolume: { $0 })
      var actions: [OtherStreamsModel.Action] = []
      model.see(Self.snapshot([unlinked, call]))
      model.assign(StreamAssignment([key: "music"]), into: &actions)
      model.follow(
        key, OtherStreamsModel.Decision(interrupted: true, playing: false, sink: "spk"),
        uid: { $0 }, into: &actions)
      // Headphones come: the session's route goes to them, and back when they go.
      for sink in ["hp", "spk"] {
        actions.removeAll()
        model.follow(
          key, OtherStreamsModel.Decision(interrupted: true, playing: false, sink: sink),
          uid: { $0 }, into: &actions)
        #expect(!actions.contains { if case .move = $0 { true } else { false } }, "\(actions)")
      }
    }
  }
}
