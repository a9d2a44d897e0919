import AudioSession
import PropertyBased
import Testing

@testable import AudioSessionPulse

extension PulseAudioTests {
  /// The sessions' own streams as a value (docs/pulseaudio-layer.md "Our own streams"): any
  /// order of the engine's decisions, opens that succeed or fail late, kills and lost
  /// connections, with no server. A pretend server carries out the actions as the backend does.
  @Suite struct OwnStreamsModelPropertyTests {
    typealias Model = OwnStreamsModel

    static let names = ["music", "nav", "voip"]
    /// Ports and what they stand for on the server; the USB port's sink is not known.
    static let outputs = [
      PortDescription(portType: .builtInSpeaker, portName: "Speaker", uid: "speaker"),
      PortDescription(portType: .headphones, portName: "Headphones", uid: "headphones"),
      PortDescription(portType: .usbAudio, portName: "USB", uid: "usb"),
    ]
    static let inputs = [
      PortDescription(portType: .builtInMic, portName: "Microphone", uid: "mic"),
      PortDescription(portType: .headsetMic, portName: "Headset", uid: "headset"),
    ]
    static let targets = [
      "speaker": "sink.speaker", "headphones": "sink.headphones", "mic": "source.mic",
      "headset": "source.headset",
    ]

    static func rules(followed: Set<String>, movable: Bool) -> Model.Rules {
      Model.Rules(
        role: { $0.category == .playAndRecord ? "phone" : "music" },
        target: { port, _ in port.flatMap { targets[$0.uid] } },
        followedElsewhere: followed, movable: movable)
    }

    /// One session as the engine shows it: 0 none, else what its bits say.
    struct Shape: Sendable, CustomStringConvertible {
      var exists: Bool
      var active: Bool
      var playing: Bool
      var interrupted: Bool
      var records: Bool
      var output: Int
      var input: Int
      var ducked: Bool
      var muted: Bool
      var paused: Bool

      var description: String {
        guard exists else { return "-" }
        return [
          active ? "active" : "inactive", playing ? "playing" : nil,
          interrupted ? "interrupted" : nil, records ? "records" : nil, "out \(output)",
          records ? "in \(input)" : nil, ducked ? "ducked" : nil, muted ? "muted" : nil,
          paused ? "PAUSE" : nil,
        ].compactMap { $0 }.joined(separator: " ")
      }
    }

    enum Event: Sendable, CustomStringConvertible {
      /// The engine decides: a shape per name, and which sessions other programs' streams
      /// follow (bits).
      case engine([Shape], followed: Int)
      /// The oldest open in flight is done.
      case openDone(succeeded: Bool)
      case kill(session: Int)
      case lost

      var description: String {
        switch self {
        case .engine(let shapes, let followed):
          "engine(\(shapes.map(\.description).joined(separator: " | ")), followed \(followed))"
        case .openDone(let succeeded): "openDone(\(succeeded))"
        case .kill(let session): "kill(\(OwnStreamsModelPropertyTests.names[session]))"
        case .lost: "lost"
        }
      }
    }

    static var shape: Generator<Shape, some SendableSequenceType> {
      zip(Gen<Int>.int(in: 0...1023), Gen<Int>.int(in: 0...2), Gen<Int>.int(in: 0...1)).map {
        bits, output, input in
        Shape(
          exists: bits & 0b11 != 0, active: bits & 4 != 0, playing: bits & 8 != 0,
          interrupted: bits & 16 != 0, records: bits & 32 != 0, output: output, input: input,
          ducked: bits & 64 != 0, muted: bits & 128 != 0, paused: bits & 256 != 0)
      }
    }

    static var events: Generator<[Event], some SendableSequenceType> {
      zip(
        Gen<Int>.int(in: 0...9), shape.array(of: 3...3), Gen<Int>.int(in: 0...7), Gen<Bool>.bool
      ).map { kind, shapes, small, flag -> Event in
        switch kind {
        case 0...4: .engine(shapes, followed: small % 8 == 7 ? small : small & 1)
        case 5, 6, 7: .openDone(succeeded: flag || small != 0)
        case 8: .kill(session: small % 3)
        default: small == 0 ? .lost : .openDone(succeeded: true)
        }
      }.array(of: 1...40)
    }

    /// The engine's status and notifications for the shapes. An active session keeps its
    /// category (`records`: playAndRecord) across decisions as the shapes say.
    static func engine(_ shapes: [Shape]) -> (EngineStatus, [SessionNotification]) {
      var sessions: [SessionStatus] = []
      var notifications: [SessionNotification] = []
      for (name, shape) in zip(names, shapes) where shape.exists {
        let playing = shape.active && shape.playing
        let route = RouteDescription(
          inputs: shape.records ? [inputs[shape.input]] : [], outputs: [outputs[shape.output]])
        sessions.append(
          SessionStatus(
            name: name,
            configuration: SessionConfiguration(
              category: shape.records ? .playAndRecord : .playback),
            options: [], active: shape.active, playing: playing,
            interrupted: !playing && shape.interrupted, ducked: shape.ducked,
            muted: shape.muted, route: route, portOverride: .none, preferredInput: nil,
            secondaryAudioShouldBeSilencedHint: false, isOtherAudioPlaying: false))
        if shape.paused, !playing {
          notifications.append(
            SessionNotification(session: name, event: .pause(reason: .oldDeviceUnavailable)))
        }
      }
      let status = EngineStatus(
        sessions: sessions, devices: [], callActive: false, silentSwitch: false,
        screenLocked: false, builtInMicMuted: false, mediaServicesAvailable: true)
      return (status, notifications)
    }

    /// The streams a pretend server holds, by session, from the actions carried out.
    struct Server {
      var streams: [String: Model.Streams] = [:]
      var inFlight: [Model.Opening] = []
      var problems: [String] = []

      mutating func carryOut(_ actions: [Model.Action], context: String) {
        for action in actions {
          switch action {
          case .close(let session):
            // Closing what is not there is harmless; the model forgets it either way.
            streams[session] = nil
          case .open(let opening):
            if streams[opening.session] != nil
              || inFlight.contains(where: {
                $0.session == opening.session
              })
            {
              problems.append("\(context): a second open of \(opening.session)")
            }
            inFlight.append(opening)
          case .cork(let session, let corked):
            guard streams[session] != nil else {
              problems.append("\(context): cork of \(session), which has no streams")
              continue
            }
            streams[session]?.corked = corked
          case .moveSink(let session, let sink):
            guard let current = streams[session], current.movable, current.playback else {
              problems.append("\(context): move of \(session)'s pinned or absent playback")
              continue
            }
            streams[session]?.sink = sink
          case .moveSource(let session, let source):
            guard let current = streams[session], current.movable, current.record else {
              problems.append("\(context): move of \(session)'s pinned or absent record")
              continue
            }
            streams[session]?.source = source
          }
        }
      }
    }

    @Test(
      "over any order of decisions, late opens, kills and losses, the streams follow the engine's table: a playing session's are open, uncorked, with its category's role, on its route's sink and source; a held one's (interrupted, or paused by the system) stay corked; any other session, and one whose audio is other programs' streams, has none; pinned streams are replaced, never moved; one open at a time per session; the model's view is the server's (docs/pulseaudio-layer.md \"Our own streams\")"
    )
    func streamsFollowTheEngine() async {
      await propertyCheck(input: Self.events, Gen<Bool>.bool) { events, movable in
        var model = Model()
        var server = Server()
        var paused: Set<String> = []
        for (step, event) in events.enumerated() {
          let context = "step \(step) \(event) of \(events)"
          switch event {
          case .engine(let shapes, let followedBits):
            let followed = Set(
              Self.names.indices.filter { followedBits & (1 << $0) != 0 }.map {
                Self.names[$0]
              })
            let rules = Self.rules(followed: followed, movable: movable)
            let (status, notifications) = Self.engine(shapes)
            // Ducked or muted changes nothing: the same decision without them acts alike.
            var plain = status
            for index in plain.sessions.indices {
              plain.sessions[index].ducked = false
              plain.sessions[index].muted = false
            }
            var twin = model
            let before = server.streams
            let actions = model.apply(notifications, status: status, rules: rules)
            #expect(
              twin.apply(notifications, status: plain, rules: rules) == actions,
              "\(context): ducking or muting acted")
            server.carryOut(actions, context: context)
            for notification in notifications { paused.insert(notification.session) }
            let alive = Set(status.sessions.map(\.name))
            paused.formIntersection(alive)
            for session in status.sessions where session.playing || !session.active {
              paused.remove(session.name)
            }
            #expect(model.pausedBySystem == paused, "\(context)")
            for name in Self.names where !alive.contains(name) {
              #expect(server.streams[name] == nil, "\(context): \(name) is gone, its streams not")
            }
            for session in status.sessions {
              let name = session.name
              let streams = server.streams[name]
              let opening = server.inFlight.contains { $0.session == name }
              let held = !session.playing && (session.interrupted || paused.contains(name))
              if followed.contains(name) || (!session.playing && !held) {
                #expect(streams == nil, "\(context): \(name) keeps streams")
              } else if session.playing {
                guard let streams else {
                  #expect(opening, "\(context): \(name) plays with no streams and none opening")
                  continue
                }
                #expect(!streams.corked, "\(context): \(name) plays corked")
                #expect(streams.role == rules.role(session.configuration), "\(context): role")
                let sink = rules.target(session.route.outputs.first, .output)
                if streams.playback, let sink {
                  #expect(streams.sink == sink, "\(context): \(name) on \(streams.sink ?? "-")")
                }
                let source = rules.target(session.route.inputs.first, .input)
                if streams.record, let source {
                  #expect(streams.source == source, "\(context): \(name)'s input")
                }
                #expect(streams.record == !session.route.inputs.isEmpty, "\(context): record")
              } else if let streams {
                #expect(streams.corked, "\(context): held \(name) is not corked")
              } else if let had = before[name] {
                // Held streams are kept, unless they are pinned elsewhere than the route.
                #expect(
                  !had.movable && had.isElsewhere(than: session.route, target: rules.target),
                  "\(context): held \(name) lost its streams")
              }
            }
          case .openDone(let succeeded):
            guard !server.inFlight.isEmpty else { continue }
            let opening = server.inFlight.removeFirst()
            model.opened(opening, succeeded)
            #expect(!model.opening.contains(opening.session), "\(context)")
            if succeeded {
              server.streams[opening.session] = Model.Streams(
                role: opening.role, movable: opening.movable, playback: opening.playback,
                record: opening.record, sink: opening.sink, source: opening.source)
            }
          case .kill(let index):
            let name = Self.names[index]
            let had = server.streams[name] != nil
            let actions = model.killed(name)
            #expect(actions == (had ? [.close(session: name)] : []), "\(context)")
            server.carryOut(actions, context: context)
          case .lost:
            model.connectionLost()
            server.streams = [:]
          }
          #expect(server.problems.isEmpty, "\(server.problems)")
          server.problems = []
          #expect(model.streams == server.streams, "\(context): the model's view differs")
          #expect(
            model.opening == Set(server.inFlight.map(\.session)), "\(context): opens in flight")
          #expect(
            model.plays(withAnyOf: ["phone"])
              == server.streams.values.contains { $0.role == "phone" && !$0.corked })
        }
      }
    }

    @Test(
      "a session stream the server shows elsewhere: after a device came or went it is only adopted; otherwise it is the user's choice of output for that session, unless it followed a new default or its sink was not known yet (docs/apps.md \"On the server\")"
    )
    func shownSinks() async {
      await propertyCheck(
        input: Gen<Int>.int(in: 0...2).array(of: 3...3), Gen<Int>.int(in: 0...3),
        Gen<Bool>.bool
      ) { shown, defaultPick, adopting in
        var model = Model()
        let rules = Self.rules(followed: [], movable: true)
        let (status, _) = Self.engine(
          Self.names.indices.map { index in
            Shape(
              exists: true, active: true, playing: true, interrupted: false, records: false,
              output: index == 2 ? 2 : 0, input: 0, ducked: false, muted: false, paused: false)
          })
        for action in model.apply([], status: status, rules: rules) {
          if case .open(let opening) = action { model.opened(opening, true) }
        }
        let sinks = ["sink.speaker", "sink.headphones", "sink.usb"]
        let before = model.streams
        // "voip" played on the USB port, whose sink was not known: it has none yet.
        #expect(before["voip"]?.sink == nil && before["music"]?.sink == "sink.speaker")
        let where_ = Dictionary(
          uniqueKeysWithValues: zip(Self.names, shown.map { sinks[$0] }))
        let newDefault = defaultPick < 3 ? sinks[defaultPick] : nil
        if adopting {
          model.adopt(where_)
          for name in Self.names { #expect(model.streams[name]?.sink == where_[name]) }
          return
        }
        let chosen = model.moved(
          where_, newDefault: newDefault, defaultChanged: newDefault != nil,
          uid: { "device:\($0)" })
        var expected: [EngineInput] = []
        for name in Self.names {
          let sink = where_[name] ?? ""
          #expect(model.streams[name]?.sink == sink)
          guard let known = before[name]?.sink, known != sink, sink != newDefault else { continue }
          expected.append(.deviceChosen(uid: "device:\(sink)", direction: .output, session: name))
        }
        #expect(chosen == expected)
      }
    }
  }
}
