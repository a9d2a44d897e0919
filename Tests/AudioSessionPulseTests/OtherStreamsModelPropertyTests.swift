import AudioSession
import PropertyBased
import Testing

@testable import AudioSessionPulse

extension PulseAudioTests {
  /// The model of other programs' streams (docs/apps.md "The model of other programs' streams",
  /// "On the server") under random orders of events, with no server: streams appear and go,
  /// the user changes their volumes and moves them, the engine decides about their sessions,
  /// a device is unplugged and plugged again, and the snapshots the model takes in come late
  /// and coalesce several of these. A small fake server carries out the model's actions; the
  /// rules are checked on each action and after each decision.
  @Suite struct OtherStreamsModelPropertyTests {
    typealias Key = ServerStream.Key
    typealias Action = OtherStreamsModel.Action

    /// One app's sessions: its call, its music, its video.
    static let sessions = ["app.call", "app.music", "app.video"]
    /// The sink of a stream shown on none (PA_INVALID_INDEX).
    static let noSink = UInt32.max
    /// Channel volumes the programs and the user pick from; none is the ducked form of another.
    static let levels: [PulseVolume] = [0x10000, 0xC000, 0x8000, 0x4000].map {
      PulseVolume(rawValue: $0)
    }

    /// Ducking in the tests: a tenth of the volume (no value of ``levels`` is one).
    static func duck(_ volume: PulseVolume) -> PulseVolume {
      PulseVolume(rawValue: volume.rawValue / 10)
    }

    /// A stream on the fake server.
    struct Stream {
      var session: String
      var device: UInt32
      var volumes: [PulseVolume]
      var muted = false
    }

    /// What the engine decided about a session, its route as an index of a sink and a source
    /// (named only while the server has it).
    struct Decided {
      var decision: OtherStreamsModel.Decision
      var sink: UInt32?
      var source: UInt32?
    }

    /// Why the model was asked: its actions are checked against it.
    enum Context { case follow, rescue, adopt, userMove, assign }

    /// The fake server, the model and what the checks know.
    struct World {
      var model = OtherStreamsModel(
        systemDevices: true, duckVolume: { OtherStreamsModelPropertyTests.duck($0) })
      var streams: [Key: Stream] = [:]
      var sinks: Set<UInt32> = [0, 1, 2]
      let sources: Set<UInt32> = [0, 1]
      var nextIndex: UInt32 = 1
      var sequence = 0
      var decided: [String: Decided] = [:]
      /// The streams the last snapshot showed (the backend's "reported").
      var reported: Set<Key> = []
      /// The volumes each playback stream should have when not ducked: its own, or the last
      /// the user set.
      var expected: [Key: [PulseVolume]] = [:]
      /// Streams whose volumes the user changed since the model last saw them (a snapshot, or
      /// the read before a ducking).
      var unseen: Set<Key> = []
      /// A session no decision ever silences (the call), if any.
      let call: String?
      /// The playback streams the latest snapshot moved off a sink that went (only these may
      /// be muted as rescued), those it shows linked from no sink (none of these is a user's
      /// move), and those that were on a sink in some snapshot before it (a link of one of these
      /// is no first sink either).
      var rescuable: Set<Key> = []
      var linkedFromNothing: Set<Key> = []
      var everLinked: Set<Key> = []
      var linkedBefore: Set<Key> = []
      var failures: [String] = []
      var log: [String] = []

      init(call: String?) { self.call = call }

      func sinkName(_ index: UInt32) -> String { "sink\(index)" }
      func sourceName(_ index: UInt32) -> String { "source\(index)" }

      /// The device UID of a sink, as the backend's devices name it.
      static func uid(_ sink: String) -> String? { "uid-\(sink)" }

      mutating func fail(_ message: String) {
        failures.append("\(message) [after: \(log.joined(separator: "; "))]")
      }

      /// The server as a settled snapshot.
      mutating func snapshot() -> PulseServerSnapshot {
        sequence += 1
        let devices =
          sinks.sorted().map {
            PulseDeviceSnapshot(direction: .output, index: $0, name: sinkName($0))
          }
          + sources.sorted().map {
            PulseDeviceSnapshot(direction: .input, index: $0, name: sourceName($0))
          }
        let playback = streams.filter { $0.key.direction == .playback }.sorted { $0.key < $1.key }
          .map { key, stream in
            PulseSinkInput(
              index: key.index, name: stream.session, clientIndex: 7, sinkIndex: stream.device,
              properties: ["media.role": stream.session], isMuted: stream.muted,
              channels: stream.volumes.count, channelVolumes: stream.volumes)
          }
        let record = streams.filter { $0.key.direction == .record }.sorted { $0.key < $1.key }
          .map { key, stream in
            PulseSourceOutput(
              index: key.index, name: stream.session, clientIndex: 7, sourceIndex: stream.device,
              properties: ["media.role": stream.session], isMuted: stream.muted)
          }
        return PulseServerSnapshot(
          sequence: sequence, server: nil, devices: devices, sinkInputs: playback,
          sourceOutputs: record)
      }

      // MARK: Events

      /// A program opens a stream of one of the sessions.
      mutating func appear(_ arg: Int) {
        let record = arg % 4 == 3
        let key = Key(record ? .record : .playback, nextIndex)
        nextIndex += 1
        let session = OtherStreamsModelPropertyTests.sessions[(arg / 4) % 3]
        let devices = record ? sources.sorted() : sinks.sorted()
        let levels = OtherStreamsModelPropertyTests.levels
        let volumes = [levels[(arg / 12) % 4], levels[(arg / 48) % 4]]
        // pipewire-pulse 1.4 shows a new stream on no sink until it is linked.
        let unlinked = !record && (arg / 192) % 3 == 0
        streams[key] = Stream(
          session: session,
          device: unlinked
            ? OtherStreamsModelPropertyTests.noSink
            : devices[(arg / 12) % devices.count], volumes: volumes)
        if !record { expected[key] = volumes }
        log.append("\(key) of \(session) appears")
      }

      /// A program's stream ends.
      mutating func disappear(_ arg: Int) {
        let keys = streams.keys.sorted()
        guard !keys.isEmpty else { return }
        let key = keys[arg % keys.count]
        streams[key] = nil
        expected[key] = nil
        unseen.remove(key)
        log.append("\(key) goes")
      }

      /// The user sets a playback stream's volumes in a mixer.
      mutating func userVolume(_ arg: Int) {
        let keys = streams.keys.filter { $0.direction == .playback }.sorted()
        guard !keys.isEmpty else { return }
        let key = keys[arg % keys.count]
        let levels = OtherStreamsModelPropertyTests.levels
        let volumes = [levels[(arg / 8) % 4], levels[(arg / 32) % 4]]
        streams[key]?.volumes = volumes
        expected[key] = volumes
        unseen.insert(key)
        log.append("user sets \(key) to \(volumes.map(\.rawValue))")
      }

      /// The user moves a stream to another sink or source.
      mutating func userMove(_ arg: Int) {
        let keys = streams.keys.sorted()
        guard !keys.isEmpty else { return }
        let key = keys[arg % keys.count]
        let devices = key.direction == .playback ? sinks.sorted() : sources.sorted()
        let device = devices[(arg / 8) % devices.count]
        streams[key]?.device = device
        log.append("user moves \(key) to \(device)")
      }

      /// A playback stream on no sink is linked to one (pipewire-pulse 1.4 shows a new stream
      /// on no sink until it is; WirePlumber's role policy links a stream again after its
      /// cork), or a linked one is unlinked (the role policy corks it).
      mutating func relink(_ arg: Int) {
        let keys = streams.keys.filter { $0.direction == .playback }.sorted()
        guard !keys.isEmpty else { return }
        let key = keys[arg % keys.count]
        let noSink = OtherStreamsModelPropertyTests.noSink
        if streams[key]?.device == noSink {
          let sinks = self.sinks.sorted()
          streams[key]?.device = sinks[(arg / 8) % sinks.count]
          log.append("\(key) linked to sink \(streams[key]?.device ?? noSink)")
        } else {
          streams[key]?.device = noSink
          log.append("\(key) unlinked")
        }
      }

      /// The engine decides about a session; the model makes its streams follow.
      mutating func decide(_ arg: Int) {
        let session = OtherStreamsModelPropertyTests.sessions[arg % 3]
        let bits = arg / 3
        var decision = OtherStreamsModel.Decision(
          muted: bits & 3 == 3, interrupted: bits & 4 != 0, playing: bits & 8 != 0,
          held: bits & 16 != 0, ducked: bits & 32 != 0)
        // The app's own output mute (iOS 26): its playback streams only.
        decision.outputMuted = (bits / 768) % 3 == 2
        decision.inputMuted = (bits / 2304) % 3 == 2
        if session == call {
          // A call is never muted, interrupted, held or ducked by the engine.
          decision = OtherStreamsModel.Decision(playing: bits & 8 != 0)
        }
        let sink = (bits / 64) % 4
        let source = (bits / 256) % 3
        decided[session] = Decided(
          decision: decision, sink: sink == 3 ? nil : UInt32(sink),
          source: source == 2 ? nil : UInt32(source))
        log.append("decide \(session): \(decided[session]!)")
        followAll()
      }

      /// A session ends: its streams are given back what they had.
      mutating func sessionGone(_ arg: Int) {
        let session = OtherStreamsModelPropertyTests.sessions[arg % 3]
        decided[session] = nil
        log.append("\(session) ends")
        followAll()
      }

      /// The headphones (sink 2) are unplugged or plugged again: the server rescues their
      /// streams to sink 0.
      mutating func unplug() {
        if sinks.contains(2) {
          sinks.remove(2)
          for (key, stream) in streams where key.direction == .playback && stream.device == 2 {
            streams[key]?.device = 0
          }
          log.append("sink 2 unplugged")
        } else {
          sinks.insert(2)
          log.append("sink 2 plugged")
        }
      }

      /// A settled snapshot reaches the model, as `received` hands it on; the host then assigns
      /// the streams it shows to their sessions, and the model follows the engine's decisions.
      mutating func deliver() {
        let new = snapshot()
        let previous = model.snapshot
        model.see(new)
        var actions: [Action] = []
        let sinksBefore = Set(
          (previous?.devices ?? []).filter { $0.direction == .output }.map(\.index))
        rescuable = []
        linkedFromNothing = []
        for input in previous?.sinkInputs ?? [] {
          let key = Key(.playback, input.index)
          if sinksBefore.contains(input.sinkIndex), !sinks.contains(input.sinkIndex) {
            rescuable.insert(key)
          }
          if !sinksBefore.contains(input.sinkIndex) { linkedFromNothing.insert(key) }
        }
        linkedBefore = everLinked
        for input in new.sinkInputs where sinks.contains(input.sinkIndex) {
          everLinked.insert(Key(.playback, input.index))
        }
        if let previous {
          model.silenceRescued(from: previous, to: new, into: &actions)
          apply(actions, .rescue)
        }
        for key in reported where streams[key] == nil { _ = model.forget(key) }
        reported = Set(streams.keys)
        actions = []
        model.adoptLinked(uid: Self.uid, into: &actions)
        apply(actions, .adopt)
        var shown: [Key: ServerStream] = [:]
        for (key, stream) in streams {
          shown[key] = ServerStream(
            key: key, properties: ["media.role": stream.session], clientIndex: 7, isCorked: false)
        }
        model.noteShown(shown)
        unseen = []
        let sameDevices =
          previous.map { $0.devices.filter { $0.direction == .output }.count } == sinks.count
        if let previous, sameDevices {
          actions = []
          model.movedByUser(from: previous, to: new, uid: Self.uid, into: &actions)
          apply(actions, .userMove)
        }
        log.append("snapshot \(sequence)")
        actions = []
        model.assign(StreamAssignment(streams.mapValues(\.session)), into: &actions)
        apply(actions, .assign)
        followAll()
      }

      // MARK: The model's actions

      /// The decision about a session, its devices named when the server has them.
      func decision(of session: String) -> OtherStreamsModel.Decision? {
        guard let decided = decided[session] else { return nil }
        var decision = decided.decision
        decision.sink = decided.sink.flatMap { sinks.contains($0) ? sinkName($0) : nil }
        decision.source = decided.source.flatMap { sources.contains($0) ? sourceName($0) : nil }
        return decision
      }

      /// Makes every assigned stream follow its session, as the backend's `followOtherStreams`.
      mutating func followAll() {
        for (key, session) in model.assignment.sessions.sorted(by: { $0.key < $1.key }) {
          var actions: [Action] = []
          model.follow(key, decision(of: session), uid: Self.uid, into: &actions)
          apply(actions, .follow)
        }
        checkSettled()
      }

      /// The device the model's latest snapshot shows a stream on.
      func shownDevice(_ key: Key) -> String? {
        guard let snapshot = model.snapshot else { return nil }
        if key.direction == .playback {
          return snapshot.sinkInputs.first { $0.index == key.index }.map { sinkName($0.sinkIndex) }
        }
        return snapshot.sourceOutputs.first { $0.index == key.index }.map {
          sourceName($0.sourceIndex)
        }
      }

      /// Carries out the actions on the fake server, checking each against the rules.
      mutating func apply(_ actions: [Action], _ context: Context) {
        for (position, action) in actions.enumerated() {
          let intentBefore = { (key: Key) in
            position > 0 && actions[position - 1] == .appendIntent(key)
          }
          switch action {
          case .appendIntent: break
          case .mute(let key):
            // docs/apps.md "A daemon that was killed": listed before it is sent.
            if !intentBefore(key) { fail("\(key) muted without an intent line just before") }
            let session = model.assignment.sessions[key]
            switch context {
            case .rescue:
              // docs/apps.md "On the server": only a stream whose sink went is rescued.
              if !rescuable.contains(key) {
                fail("\(key) muted as rescued, though the sink it was on did not go")
              }
            case .follow:
              // docs/apps.md "On the server": muted only by its own session's decision.
              if session.flatMap(decision(of:))?.silences(key.direction) != true {
                fail("\(key) of \(session ?? "none") muted while its session is not silenced")
              }
            case .adopt, .userMove, .assign: fail("\(key) muted by a \(context)")
            }
            // docs/apps.md "Calls": a call's own streams are never muted.
            if let call, session == call {
              fail("\(key) of the call muted (\(context))")
            }
            streams[key]?.muted = true
          case .unmute(let key):
            // docs/apps.md "Focus": nothing plays again while its session is still silenced.
            if context == .follow,
              model.assignment.sessions[key].flatMap(decision(of:))?.silences(key.direction)
                == true
            {
              fail("\(key) unmuted while its session is silenced")
            }
            streams[key]?.muted = false
          case .setVolumes(let key, let volumes, let ducking):
            if ducking, !intentBefore(key) {
              fail("\(key) ducked without an intent line just before")
            }
            if !ducking, unseen.contains(key), streams[key] != nil {
              // The model cannot know a volume it never saw.
              expected[key] = volumes
            }
            streams[key]?.volumes = volumes
          case .readVolumes(let key):
            guard let volumes = streams[key]?.volumes else { break }
            unseen.remove(key)
            var ducking: [Action] = []
            model.duck(key, read: volumes, into: &ducking)
            apply(ducking, context)
          case .move(let key, let device):
            // docs/apps.md "On the server": never to where the latest snapshot shows it.
            if shownDevice(key) == device { fail("\(key) moved to \(device), where it is") }
            let session = model.assignment.sessions[key]
            let route = session.flatMap(decision(of:))?.device(for: key.direction)
            if context != .follow || route != device {
              fail("\(key) moved to \(device), not its session's route \(route ?? "none")")
            }
            let prefix = key.direction == .playback ? "sink" : "source"
            if let index = UInt32(device.dropFirst(prefix.count)), streams[key] != nil {
              streams[key]?.device = index
            }
          case .deviceChosen(let session, let uid, let key, let sink, let firstSeen):
            if model.assignment.sessions[key] != session || uid != Self.uid(sink) {
              fail("deviceChosen for \(session) from \(key) on \(sink) as \(uid)")
            }
            if shownDevice(key) != sink { fail("\(key) chosen on \(sink), shown elsewhere") }
            // docs/apps.md "On the server": a stream linked from no sink was not moved; its
            // first link is where it was first seen, a link again after a cork nothing.
            // One routed while on no sink is adopted where it is first linked, and only there.
            if context == .adopt, !firstSeen || linkedBefore.contains(key) {
              fail("\(key) adopted on \(sink), not its first link")
            }
            if context == .userMove, linkedFromNothing.contains(key) {
              if linkedBefore.contains(key) {
                fail("\(key) linked again from no sink taken for a choice of \(sink)")
              } else if !firstSeen {
                fail("\(key) linked from no sink the first time taken for the user's move")
              }
            }
          case .undone, .userVolumesKept: break
          }
        }
      }

      /// After the model followed every decision: each assigned stream is muted exactly while
      /// its session is silenced, ducked exactly while its session is ducked and not silenced,
      /// and otherwise at the volumes it had or the user set (unless the model never saw them).
      mutating func checkSettled() {
        for (key, stream) in streams.sorted(by: { $0.key < $1.key }) {
          let session = model.assignment.sessions[key]
          let decision = session.flatMap(decision(of:))
          let silenced = decision?.silences(key.direction) ?? false
          if stream.muted != silenced {
            fail(
              "\(key) of \(session ?? "none") is \(stream.muted ? "" : "not ")muted; silenced: \(silenced)"
            )
          }
          guard key.direction == .playback else { continue }
          let ducked = (decision?.ducked ?? false) && !silenced
          let saved = model.states[key]?.savedVolumes
          if (saved != nil) != ducked {
            fail("\(key) ducked: \(saved != nil); its session ducked: \(ducked)")
          }
          if !ducked, !unseen.contains(key), let expected = expected[key],
            stream.volumes != expected
          {
            fail(
              "\(key) plays at \(stream.volumes.map(\.rawValue)), not \(expected.map(\.rawValue))")
          }
        }
      }

      /// Runs one event decoded from a number.
      mutating func step(_ n: Int, unplugging: Bool) {
        let arg = n / 11
        switch n % 11 {
        case 0, 1: appear(arg)
        case 2: disappear(arg)
        case 3: userVolume(arg)
        case 4: userMove(arg)
        case 5, 6: decide(arg)
        case 7: deliver()
        case 8: sessionGone(arg)
        case 9: relink(arg)
        default: if unplugging { unplug() } else { deliver() }
        }
      }
    }

    /// Runs a sequence of events, ending with a snapshot and a decision about every session
    /// being taken in, and returns what broke the rules.
    static func run(_ numbers: [Int], call: String?, unplugging: Bool) -> [String] {
      var world = World(call: call)
      for n in numbers { world.step(n, unplugging: unplugging) }
      world.deliver()
      return world.failures
    }

    static let events = Gen<Int>.int(in: 0...1_000_000).array(of: 1...60)

    // docs/apps.md "On the server" (mute, duck, move, first sink, user's move), "A daemon that
    // was killed" (intent line first), "Focus" (nothing plays while silenced)
    @Test(
      "over any order of events, each stream is muted and ducked exactly while its session's decision says so, listed before, moved only to a new route's device it is not on"
    )
    func anyEvents_streamsFollowTheirSessions() async {
      await propertyCheck(count: 1000, input: Self.events) { numbers in
        let failures = Self.run(numbers, call: nil, unplugging: true)
        #expect(failures.isEmpty, "\(failures.first ?? "")")
      }
    }

    // docs/apps.md "Calls", "Sessions of other programs": one app's sessions are apart
    @Test(
      "a call's own streams are never muted, whatever is decided about its app's other sessions")
    func call_streamsNeverMuted() async {
      await propertyCheck(count: 600, input: Self.events) { numbers in
        let failures = Self.run(numbers, call: "app.call", unplugging: false)
        #expect(failures.isEmpty, "\(failures.first ?? "")")
      }
    }

    // docs/apps.md "On the server": the exact volumes back after a ducking (the case the
    // property found: the volumes of an older snapshot passed for the user's, and the stream
    // stayed ducked)
    @Test(
      "a ducking that ends before the next snapshot gives back the volumes read before it, not those an older snapshot showed"
    )
    func duckingEndedBeforeSnapshot_restoresReadVolumes() {
      var world = World(call: nil)
      world.appear(0)
      world.decided["app.call"] = Decided(
        decision: OtherStreamsModel.Decision(), sink: 0, source: nil)
      world.deliver()
      // The model has seen the stream at its volumes; the user changes them, unseen.
      world.deliver()
      let key = Key(.playback, 1)
      world.userVolume(8 * 2 + 32 * 3)
      world.decided["app.call"] = Decided(
        decision: OtherStreamsModel.Decision(ducked: true), sink: 0, source: nil)
      world.followAll()
      #expect(
        world.streams[key]?.volumes == [Self.duck(Self.levels[2]), Self.duck(Self.levels[3])])
      world.decided["app.call"] = Decided(
        decision: OtherStreamsModel.Decision(), sink: 0, source: nil)
      world.followAll()
      #expect(world.streams[key]?.volumes == [Self.levels[2], Self.levels[3]])
      #expect(world.failures.isEmpty, "\(world.failures.first ?? "")")
    }

    // docs/apps.md "On the server": the user's volume set while ducked is kept
    @Test("a volume the user sets while the stream is ducked is its volume after the ducking ends")
    func userVolumeWhileDucked_isKept() {
      var world = World(call: nil)
      world.appear(0)
      world.deliver()
      world.decided["app.call"] = Decided(
        decision: OtherStreamsModel.Decision(ducked: true), sink: 0, source: nil)
      world.followAll()
      let key = Key(.playback, 1)
      #expect(
        world.streams[key]?.volumes == [Self.duck(Self.levels[0]), Self.duck(Self.levels[0])])
      world.userVolume(8 * 2 + 32 * 3)
      world.deliver()
      world.decided["app.call"] = Decided(
        decision: OtherStreamsModel.Decision(), sink: 0, source: nil)
      world.followAll()
      #expect(world.streams[key]?.volumes == [Self.levels[2], Self.levels[3]])
      #expect(world.failures.isEmpty, "\(world.failures.first ?? "")")
    }

    /// One step of the engine, as the model of other programs' streams hears of it.
    enum Heard: Sendable, CustomStringConvertible {
      /// An interruption of `session` ended, with shouldResume or without.
      case ended(session: Int, shouldResume: Bool)
      /// A status: each session absent, present and not playing, or playing; paused by the
      /// system or not.
      case status([Int], pausedBySystem: [Bool])

      var description: String {
        switch self {
        case .ended(let session, let resume):
          "s\(session) interruption ended\(resume ? " shouldResume" : "")"
        case .status(let states, let paused):
          "status \(states) paused \(paused)"
        }
      }
    }

    static func status(_ name: String, playing: Bool) -> SessionStatus {
      let speaker = PortDescription(portType: .builtInSpeaker, portName: "Speaker", uid: "spk")
      return SessionStatus(
        name: name, configuration: SessionConfiguration(category: .playback), options: [],
        active: playing, playing: playing, interrupted: !playing, ducked: false, muted: false,
        route: RouteDescription(outputs: [speaker]), portOverride: .none, preferredInput: nil,
        secondaryAudioShouldBeSilencedHint: false, isOtherAudioPlaying: false)
    }

    @Test(
      "over any order of interruption ends and statuses: a session is held while the system paused it, or from an interruption end without shouldResume until it plays again or goes; its route's sink is the one the server has for its port (docs/apps.md \"On the server\")"
    )
    func heldUntilItPlaysAgain() async {
      let step = zip(
        Gen<Int>.int(in: 0...3), Gen<Int>.int(in: 0...1), Gen<Bool>.bool,
        Gen<Int>.int(in: 0...2).array(of: 2...2), Gen<Bool>.bool.array(of: 2...2)
      ).map { kind, session, resume, states, paused -> Heard in
        kind == 0
          ? .ended(session: session, shouldResume: resume)
          : .status(states, pausedBySystem: paused)
      }
      await propertyCheck(input: step.array(of: 1...30)) { steps in
        var model = OtherStreamsModel(systemDevices: true, duckVolume: { $0 })
        var held: Set<Int> = []
        for (number, heard) in steps.enumerated() {
          let context = "step \(number) \(heard) of \(steps)"
          switch heard {
          case .ended(let session, let resume):
            model.take([
              SessionNotification(
                session: "s\(session)",
                event: .interruptionEnded(options: resume ? .shouldResume : [], by: .call))
            ])
            if !resume { held.insert(session) }
          case .status(let states, let paused):
            var sessions: [SessionStatus] = []
            for (session, state) in states.enumerated() where state > 0 {
              sessions.append(Self.status("s\(session)", playing: state == 2))
            }
            // Held until it plays again, or goes.
            held = held.filter { states[$0] == 1 }
            let pausedBySystem = Set(paused.indices.filter { paused[$0] }.map { "s\($0)" })
            let decisions = model.decisions(
              sessions, pausedBySystem: pausedBySystem,
              object: { $0 == "spk" && $1 == .output ? "sink-1" : nil })
            #expect(decisions.count == sessions.count, "\(context)")
            for (session, state) in states.enumerated() where state > 0 {
              let decision = decisions["s\(session)"]
              #expect(
                decision?.held == (paused[session] || held.contains(session)),
                "\(context): s\(session) held \(decision?.held == true)")
              #expect(decision?.silenced == (state == 1), "\(context): s\(session)")
              #expect(decision?.sink == "sink-1" && decision?.source == nil, "\(context)")
            }
            #expect(
              model.heldAfterInterruption == Set(held.map { "s\($0)" }),
              "\(context): \(model.heldAfterInterruption)")
          }
        }
      }
    }
  }
}
