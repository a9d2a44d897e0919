import AudioSession
import AudioSessionTestSupport
import Foundation
import PropertyBased
import Testing

// docs/apps.md "Sessions of other programs" and "Rules": every stream in exactly one session; an
// app session lives with its streams.
@Suite struct AppStreamTrackerTests {
  static let rules = AppRules([
    .init(match: ["media.role": "event"], outcome: .ignore),
    .init(
      match: ["media.role": "phone"],
      outcome: .session(category: .playAndRecord, mode: .voiceChat, options: [], call: true)),
    .init(
      match: ["media.role": "[mv]*"],
      outcome: .session(category: .playback, mode: .default, options: [])),
    .init(
      match: ["media.role": nil],
      outcome: .session(category: .playback, mode: .default, options: [])
    ),
  ])

  static func stream(
    _ index: UInt32, pid: String? = "100", binary: String? = "mpv", role: String? = nil,
    corked: Bool = false, client: UInt32? = 7, extra: [String: String] = [:]
  ) -> ServerStream {
    var properties = extra
    properties["application.process.id"] = pid
    properties["application.process.binary"] = binary
    properties["application.name"] = binary.map { $0.uppercased() }
    properties["media.role"] = role
    return ServerStream(
      key: .init(.playback, index), properties: properties, clientIndex: client, isCorked: corked)
  }

  @Test("globs: *, ?, sets, ranges, negation and escapes (docs/apps.md Rules)")
  func globs() {
    #expect(Glob.matches("m*", "music"))
    #expect(Glob.matches("*ic", "music"))
    #expect(Glob.matches("m?sic", "music"))
    #expect(Glob.matches("[mv]*", "video"))
    #expect(!Glob.matches("[!mv]*", "video"))
    #expect(Glob.matches("[a-c]at", "bat"))
    #expect(Glob.matches("a\\*", "a*"))
    #expect(!Glob.matches("a\\*", "ab"))
    #expect(Glob.matches("*", ""))
    #expect(!Glob.matches("?", ""))
    #expect(Glob.matches("[oops", "[oops"))
    #expect(Glob.matches("*a*b*c", "xaxxbxxc"))
    #expect(!Glob.matches("*a*b*c", "xaxxbxx"))
  }

  @Test(
    "a playing app's stream creates, configures, activates; corking deactivates with notify; going removes (docs/apps.md)"
  )
  func lifecycle() {
    var tracker = AppStreamTracker(rules: Self.rules)
    let inputs = tracker.apply(.updated(Self.stream(1, role: "music")))
    #expect(
      inputs == [
        .createSession("mpv.100"), .observed(session: "mpv.100"),
        .setCategory(session: "mpv.100", category: .playback, mode: .default, options: []),
        .setActive(session: "mpv.100", active: true, options: []), .startIO(session: "mpv.100"),
      ])
    #expect(tracker.assignment.sessions == [.init(.playback, 1): "mpv.100"])
    #expect(tracker.appSessions["mpv.100"]?.application == "MPV")
    #expect(
      tracker.apply(.updated(Self.stream(1, role: "music", corked: true)))
        == [
          .stopIO(session: "mpv.100"),
          .setActive(session: "mpv.100", active: false, options: .notifyOthersOnDeactivation),
        ])
    #expect(tracker.apply(.removed(.init(.playback, 1))) == [.removeSession("mpv.100")])
    #expect(tracker.assignment.sessions.isEmpty)
  }

  @Test(
    "a call rule's stream makes its session the call's own before its category is set (docs/apps.md Calls)"
  )
  func callRule_ownsTheCallBeforeItsCategory() {
    var tracker = AppStreamTracker(rules: Self.rules)
    let inputs = tracker.apply(
      .updated(Self.stream(2, pid: "300", binary: "linphone", role: "phone")))
    #expect(
      inputs == [
        .createSession("linphone.300"), .observed(session: "linphone.300"),
        .ownCall(session: "linphone.300"),
        .setCategory(
          session: "linphone.300", category: .playAndRecord, mode: .voiceChat, options: []),
        .setActive(session: "linphone.300", active: true, options: []),
        .startIO(session: "linphone.300"),
      ])
    // A rule without "call" gives no such input.
    #expect(
      !tracker.apply(.updated(Self.stream(3, role: "music"))).contains(.ownCall(session: "mpv.100"))
    )
  }

  /// Desktop rules in the shipped order's spirit: a call by role, a call by an app that plays
  /// and records at once, a media player, and programs that declare nothing mix.
  static let desktopRules = AppRules([
    .init(
      match: ["media.role": "phone"],
      outcome: .session(category: .playAndRecord, mode: .voiceChat, options: [], call: true)),
    .init(
      match: [AppFacts.playsKey: "yes", AppFacts.recordsKey: "yes", "media.role": nil],
      outcome: .session(category: .playAndRecord, mode: .voiceChat, options: [], call: true)),
    .init(
      match: ["audiosession.direction": "record", "media.role": nil],
      outcome: .session(category: .playAndRecord, mode: .default, options: [])),
    .init(
      match: [AppFacts.playerKey: "mpris", "media.role": nil],
      outcome: .session(category: .playback, mode: .default, options: [])),
    .init(
      match: ["media.role": nil],
      outcome: .session(category: .playback, mode: .default, options: [.mixWithOthers])),
  ])

  static func recording(_ index: UInt32, pid: String, binary: String, role: String? = nil)
    -> ServerStream
  {
    var stream = Self.stream(index, pid: pid, binary: binary, role: role)
    stream.key = .init(.record, index)
    return stream
  }

  @Test(
    "a call made of two processes of one program in one process group is one app session, the call's own, whichever stream comes first (docs/apps.md \"Sessions of other programs\", Calls)",
    arguments: [false, true])
  func twoProcessCall_isOneCallSession(recordingFirst: Bool) {
    var tracker = AppStreamTracker(
      rules: Self.desktopRules,
      processes: [
        400: ProcessFacts(group: 399, lineage: [400]),
        401: ProcessFacts(group: 399, lineage: [401]),
      ])
    let record = Self.recording(1, pid: "400", binary: "pacat")
    let play = Self.stream(2, pid: "401", binary: "pacat")
    let (first, second) = recordingFirst ? (record, play) : (play, record)
    var inputs = tracker.apply(.updated(first))
    inputs += tracker.apply(.updated(second))
    #expect(Set(tracker.assignment.sessions.values) == ["pacat.399"])
    #expect(Array(tracker.appSessions.keys) == ["pacat.399"])
    // It ends up the call's own, configured as one, and active: once it records and plays,
    // it is configured as a call and activated again, never stopped nor deactivated.
    #expect(inputs.contains(.ownCall(session: "pacat.399")))
    #expect(
      inputs.last { if case .setCategory = $0 { true } else { false } }
        == .setCategory(
          session: "pacat.399", category: .playAndRecord, mode: .voiceChat, options: []))
    #expect(inputs.last == .setActive(session: "pacat.399", active: true, options: []))
    #expect(inputs.filter { $0 == .startIO(session: "pacat.399") }.count == 1)
    #expect(!inputs.contains { if case .stopIO = $0 { true } else { false } })
    // Processes of another group are another app.
    _ = tracker.apply(.updated(Self.stream(3, pid: "402", binary: "pacat")))
    #expect(tracker.appSessions.keys.sorted() == ["pacat.399", "pacat.402"])
  }

  @Test(
    "a rule that names its app makes one app session of the streams it matches, whichever processes and groups open them, and its silence limit is the backend's to apply; without it each process group is an app (docs/apps.md Rules, Speech)"
  )
  func namedApp_isOneSessionAcrossProcesses() {
    let speech = AppRules.Outcome.session(
      category: .playback, mode: .spokenAudio, options: [.duckOthers])
    var rules = AppRules([
      .init(
        match: ["application.name": "speech-dispatcher*"], outcome: speech, app: "speech-dispatcher"
      ),
      .init(
        match: ["application.process.binary": "sd_*"], outcome: speech, app: "speech-dispatcher"),
      .init(match: ["application.process.binary": "espeak*"], outcome: speech),
    ])
    // speech-dispatcher's rules also count a second of silence as a pause.
    for index in 0..<2 { rules.rules[index].inactiveAfterSilence = 1000 }
    // Each process its own group, as for a process whose group is unknown.
    var tracker = AppStreamTracker(rules: rules)
    // speech-dispatcher's own stream and its dummy module's, from two process groups.
    var server = Self.stream(1, pid: "500", binary: "speech-dispatcher")
    server.properties["application.name"] = "speech-dispatcher-espeak-ng"
    var module = Self.stream(2, pid: "480", binary: "sd_dummy")
    module.properties["application.name"] = "speech-dispatcher-dummy"
    var inputs = tracker.apply(.updated(server))
    inputs += tracker.apply(.updated(module))
    #expect(Set(tracker.assignment.sessions.values) == ["speech-dispatcher"])
    #expect(Array(tracker.appSessions.keys) == ["speech-dispatcher"])
    // The backend listens to those streams (docs/apps.md Speech).
    #expect(tracker.assignment.silenceLimits == [server.key: 1000, module.key: 1000])
    #expect(
      inputs.filter { if case .setCategory = $0 { true } else { false } }
        == [
          .setCategory(
            session: "speech-dispatcher", category: .playback, mode: .spokenAudio,
            options: [.duckOthers])
        ])
    // Two espeak-ng processes of two groups: two apps, as any program's.
    _ = tracker.apply(.updated(Self.stream(3, pid: "600", binary: "espeak-ng")))
    _ = tracker.apply(.updated(Self.stream(4, pid: "601", binary: "espeak-ng")))
    #expect(
      tracker.appSessions.keys.sorted()
        == ["espeak-ng.600", "espeak-ng.601", "speech-dispatcher"])
    #expect(tracker.assignment.silenceLimits.count == 2)
    // The session lives while one of its streams does.
    _ = tracker.apply(.removed(server.key))
    #expect(tracker.appSessions["speech-dispatcher"] != nil)
    _ = tracker.apply(.removed(module.key))
    #expect(tracker.appSessions["speech-dispatcher"] == nil)
  }

  @Test(
    "an app without a role mixes until its media player appears, then is configured as a player (docs/apps.md Rules)"
  )
  func mediaPlayerAppears_reconfiguresTheApp() {
    // The stream comes from process 100, a child of 90, which owns the player's name.
    var tracker = AppStreamTracker(
      rules: Self.desktopRules, processes: [100: ProcessFacts(lineage: [100, 90])])
    let inputs = tracker.apply(.updated(Self.stream(1)))
    #expect(
      inputs.contains(
        .setCategory(
          session: "mpv.100", category: .playback, mode: .default, options: [.mixWithOthers])))
    // It plays: configured as a player and activated again, so that it interrupts as one.
    #expect(
      tracker.setPlayers(processes: [90], desktopEntries: []) == [
        .setCategory(session: "mpv.100", category: .playback, mode: .default, options: []),
        .setActive(session: "mpv.100", active: true, options: []),
      ])
    #expect(tracker.setPlayers(processes: [90], desktopEntries: []) == [])
    // Paused, another program's player is not this app's: configured again, not activated.
    _ = tracker.apply(.updated(Self.stream(1, corked: true)))
    #expect(
      tracker.setPlayers(processes: [55], desktopEntries: []) == [
        .setCategory(
          session: "mpv.100", category: .playback, mode: .default, options: [.mixWithOthers])
      ])
  }

  @Test(
    "tags, library clients, ignore rules, Flatpak ids and missing pids decide the session (docs/apps.md)"
  )
  func placement() {
    var tracker = AppStreamTracker(rules: Self.rules)
    _ = tracker.setClientProcesses([200: "player"])
    _ = tracker.apply(
      .snapshot([
        Self.stream(1, extra: ["audiosession.session": "movie"]),
        Self.stream(2, pid: "200"),
        Self.stream(3, role: "event"),
        Self.stream(4, pid: "1", extra: ["pipewire.access.portal.app_id": "org.example.App"]),
        Self.stream(5, pid: "abc", binary: "pa cat!", client: 9),
        Self.stream(6, pid: nil, binary: nil, client: nil),
      ]))
    #expect(
      tracker.assignment.sessions == [
        .init(.playback, 1): "movie", .init(.playback, 2): "player",
        .init(.playback, 4): "orgexampleApp", .init(.playback, 5): "pacat.c9",
        .init(.playback, 6): "app.s6",
      ])
    #expect(Set(tracker.appSessions.keys) == ["orgexampleApp", "pacat.c9", "app.s6"])
  }

  @Test(
    "a client whose process already plays takes its streams over from the app session (docs/apps.md)"
  )
  func clientTakesOver() {
    var tracker = AppStreamTracker(rules: Self.rules)
    _ = tracker.apply(.updated(Self.stream(1)))
    let inputs = tracker.setClientProcesses([100: "player"])
    #expect(
      inputs == [
        .stopIO(session: "mpv.100"),
        .setActive(session: "mpv.100", active: false, options: .notifyOthersOnDeactivation),
        .removeSession("mpv.100"),
      ])
    #expect(tracker.assignment.sessions == [.init(.playback, 1): "player"])
    #expect(tracker.isPlaying("player"))
  }

  @Test(
    "a followed session (sessionctl run's) activates while a stream tagged for it plays (docs/apps.md)"
  )
  func followedSession() {
    var tracker = AppStreamTracker(rules: Self.rules)
    tracker.followedSessions = ["film"]
    let tagged = { (corked: Bool) in
      Self.stream(3, corked: corked, extra: ["audiosession.session": "film"])
    }
    #expect(
      tracker.apply(.updated(tagged(false)))
        == [
          .observed(session: "film"), .setActive(session: "film", active: true, options: []),
          .startIO(session: "film"),
        ])
    #expect(tracker.appSessions.isEmpty)
    #expect(
      tracker.apply(.updated(tagged(true)))
        == [
          .stopIO(session: "film"),
          .setActive(session: "film", active: false, options: .notifyOthersOnDeactivation),
        ])
    #expect(tracker.apply(.removed(.init(.playback, 3))) == [])
  }

  /// Random event sequences over a few processes and streams.
  static let events = Gen.int(in: 0...199).array(of: 1...40)

  static func event(_ code: Int) -> ServerStreamEvent {
    // The hundreds pick the client: another client may take an index over with the same
    // properties (pipewire-pulse reuses ids).
    let client: UInt32 = code >= 100 ? 8 : 7
    let code = code % 100
    let index = UInt32(code % 6)
    let pid = ["100", "101", "abc", "0"][code / 6 % 4]
    if code >= 96 { return .removed(.init(.playback, index)) }
    let role: String? = [nil, "music", "event", "phone"][code / 24 % 4]
    return .updated(stream(index, pid: pid, role: role, corked: code % 2 == 0, client: client))
  }

  /// Absurd values built from codes: blank, control characters, overlong.
  static func absurd(_ codes: [Int]) -> String {
    let pieces = ["", " ", "\t", "\n", "\u{0}", "\u{7F}", "music", "phone", "é", "🎵"]
    var value = codes.map { pieces[$0 % pieces.count] }.joined()
    switch (codes.first ?? 0) % 3 {
    case 0: value = String(repeating: "m", count: 257) + value
    case 1: value += "\u{1}"
    default: value = String(repeating: " ", count: codes.count)
    }
    return value
  }

  @Test(
    "a stream whose role is absurd (blank, control characters, overlong) gets the shipped rule for none, and a usable session name (docs/apps.md Rules)"
  )
  func absurdProperties() async throws {
    let rules = try PolicyLoader.load(directory: Repository.policies).apps
    await propertyCheck(count: 200, input: Gen.int(in: 0...999).array(of: 1...8)) { codes in
      let role = Self.absurd(codes)
      for direction in [ServerStream.Direction.playback, .record] {
        // The session's name, and the inputs that create it (name left out).
        func session(_ role: String?) -> (name: String, setup: [String])? {
          var tracker = AppStreamTracker(rules: rules)
          var properties = ["application.process.id": "\(codes[0] + 2)"]
          properties["media.role"] = role
          properties["application.process.binary"] = role
          let inputs = tracker.apply(
            .updated(.init(key: .init(direction, 1), properties: properties, clientIndex: 4)))
          guard let name = tracker.assignment.sessions[.init(direction, 1)] else { return nil }
          return (name, inputs.map { "\($0)".replacingOccurrences(of: name, with: "NAME") })
        }
        let absurd = session(role)
        let none = session(nil)
        #expect(absurd != nil && absurd?.setup == none?.setup, "\(role.debugDescription)")
        let name = absurd?.name ?? ""
        #expect(
          !name.isEmpty && name.utf8.count < 300
            && name.unicodeScalars.allSatisfy {
              CharacterSet.alphanumerics.contains($0) || "._-".unicodeScalars.contains($0)
            }, "\(name.debugDescription)")
      }
    }
  }

  @Test(
    "invariants over random event sequences: one session per stream, active iff playing, a snapshot re-learns the same state (docs/apps.md)"
  )
  func invariants() async {
    await propertyCheck(count: 300, input: Self.events) { codes in
      var tracker = AppStreamTracker(rules: Self.rules)
      // The engine's view of app sessions, replayed from the inputs.
      var exists: Set<String> = []
      var active: Set<String> = []
      for code in codes {
        for input in tracker.apply(Self.event(code)) {
          switch input {
          case .createSession(let name): #expect(exists.insert(name).inserted)
          case .removeSession(let name):
            #expect(!active.contains(name))
            exists.remove(name)
          case .setActive(let name, let on, _):
            if on { active.insert(name) } else { active.remove(name) }
          default: break
          }
        }
        #expect(exists == Set(tracker.appSessions.keys))
        for (name, session) in tracker.appSessions {
          #expect(active.contains(name) == session.playing)
          #expect(session.playing == tracker.isPlaying(name))
        }
        for key in tracker.assignment.sessions.keys { #expect(tracker.streams[key] != nil) }
        // Only ignored streams are unassigned.
        for (key, stream) in tracker.streams where tracker.assignment.sessions[key] == nil {
          #expect(stream.properties["media.role"] == "event")
        }
      }
      var fresh = AppStreamTracker(rules: Self.rules)
      _ = fresh.apply(.snapshot(Array(tracker.streams.values)))
      #expect(fresh.assignment == tracker.assignment)
      #expect(fresh.appSessions == tracker.appSessions)
    }
  }
}
