import AudioSession
import PropertyBased
import Testing

/// Which media players the daemon pauses and plays (docs/mpris.md "What the daemon does"), on
/// the pure ``PlayerArbiter``.
@Suite struct PlayerArbiterTests {
  static let mpv = "org.mpris.MediaPlayer2.mpv"
  static let owners = ["mpv.42": PlayerOwner(processes: [42, 7])]

  static func began(_ session: String = "mpv.42", by cause: Cause = .call) -> SessionNotification {
    SessionNotification(session: session, event: .interruptionBegan(reason: .default, by: cause))
  }

  static func ended(_ session: String = "mpv.42", resume: Bool) -> SessionNotification {
    SessionNotification(
      session: session, event: .interruptionEnded(options: resume ? .shouldResume : [], by: .call))
  }

  static func player(_ status: PlaybackStatus, pid: Int32 = 42, bus: String = mpv) -> MediaPlayer {
    MediaPlayer(bus: bus, pid: pid, status: status)
  }

  static func commands(_ notifications: [SessionNotification]) -> [String] {
    notifications.compactMap {
      guard case .player(let action) = $0.event else { return nil }
      return "\($0.session) \(action.command.rawValue) \(action.player) \(action.cause.name)"
    }
  }

  @Test(
    "an interruption pauses the session's playing player; ended with shouldResume plays it again (docs/mpris.md)"
  )
  func interruptionPausesThenPlays() {
    var arbiter = PlayerArbiter()
    arbiter.apply(.snapshot([Self.player(.playing)]))
    #expect(
      Self.commands(arbiter.decide([Self.began()], owners: Self.owners))
        == ["mpv.42 pause \(Self.mpv) interruption"])
    arbiter.apply(.updated(Self.player(.paused)))
    #expect(
      Self.commands(arbiter.decide([Self.ended(resume: true)], owners: Self.owners))
        == ["mpv.42 play \(Self.mpv) interruptionEnded"])
    #expect(arbiter.pausedByUs.isEmpty)
  }

  @Test("ended without shouldResume leaves the player paused, and forgets it (docs/mpris.md)")
  func endedWithoutResume() {
    var arbiter = PlayerArbiter()
    arbiter.apply(.snapshot([Self.player(.playing)]))
    _ = arbiter.decide([Self.began()], owners: Self.owners)
    #expect(arbiter.decide([Self.ended(resume: false)], owners: Self.owners).isEmpty)
    #expect(arbiter.pausedByUs.isEmpty)
  }

  @Test("a player the user paused or stopped is never paused nor played (docs/mpris.md)")
  func userPausedIsLeftAlone() {
    for status in [PlaybackStatus.paused, .stopped] {
      var arbiter = PlayerArbiter()
      arbiter.apply(.snapshot([Self.player(status)]))
      #expect(arbiter.decide([Self.began()], owners: Self.owners).isEmpty)
      #expect(arbiter.decide([Self.ended(resume: true)], owners: Self.owners).isEmpty)
    }
  }

  @Test(
    "a player the user plays during the interruption is forgotten: ended sends nothing (docs/mpris.md)"
  )
  func userPlaysDuringInterruption() {
    var arbiter = PlayerArbiter()
    arbiter.apply(.snapshot([Self.player(.playing)]))
    _ = arbiter.decide([Self.began()], owners: Self.owners)
    arbiter.apply(.updated(Self.player(.paused)))
    arbiter.apply(.updated(Self.player(.playing)))
    arbiter.apply(.updated(Self.player(.paused)))
    #expect(arbiter.decide([Self.ended(resume: true)], owners: Self.owners).isEmpty)
  }

  @Test(
    "headphones unplugged pause the player with the pause's reason; nothing plays it after (docs/mpris.md)"
  )
  func headphonePause() {
    var arbiter = PlayerArbiter()
    arbiter.apply(.snapshot([Self.player(.playing)]))
    let pause = SessionNotification(session: "mpv.42", event: .pause(reason: .oldDeviceUnavailable))
    let sent = arbiter.decide([pause], owners: Self.owners)
    #expect(
      sent.map(\.event)
        == [.player(.init(.pause, player: Self.mpv, cause: .pause(reason: .oldDeviceUnavailable)))])
  }

  @Test(
    "players are matched by the streams' processes and their ancestors, or by Flatpak app id; other sessions' players are untouched (docs/mpris.md)"
  )
  func matching() {
    var arbiter = PlayerArbiter()
    let browser = MediaPlayer(
      bus: "org.mpris.MediaPlayer2.chromium.instance7", pid: 7, status: .playing)
    let flatpak = MediaPlayer(
      bus: "org.mpris.MediaPlayer2.spotify", pid: 3, desktopEntry: "com.spotify.Client",
      status: .playing)
    let stranger = Self.player(.playing, pid: 99, bus: "org.mpris.MediaPlayer2.vlc")
    arbiter.apply(.snapshot([browser, flatpak, stranger]))
    let owners = [
      "mpv.42": PlayerOwner(processes: [42, 7]),
      "com.spotify.Client": PlayerOwner(appIDs: ["com.spotify.Client"]),
    ]
    let sent = arbiter.decide(
      [Self.began(), Self.began("com.spotify.Client"), Self.began("cli-session")], owners: owners)
    #expect(
      Self.commands(sent) == [
        "mpv.42 pause org.mpris.MediaPlayer2.chromium.instance7 interruption",
        "com.spotify.Client pause org.mpris.MediaPlayer2.spotify interruption",
      ])
  }

  @Test("a player that quits while paused by us is forgotten (docs/mpris.md)")
  func playerQuits() {
    var arbiter = PlayerArbiter()
    arbiter.apply(.snapshot([Self.player(.playing)]))
    _ = arbiter.decide([Self.began()], owners: Self.owners)
    arbiter.apply(.removed(bus: Self.mpv))
    #expect(arbiter.pausedByUs.isEmpty)
    #expect(arbiter.decide([Self.ended(resume: true)], owners: Self.owners).isEmpty)
  }

  /// One step of a random history: a bus report or a notification for mpv.42.
  static func step(_ code: Int) -> (event: MediaPlayerEvent?, notification: SessionNotification?) {
    let status = PlaybackStatus.allCases[code % 3]
    switch code / 3 % 6 {
    case 0: return (.updated(player(status)), nil)
    case 1: return (.removed(bus: mpv), nil)
    case 2: return (.snapshot(code % 2 == 0 ? [] : [player(status)]), nil)
    case 3: return (nil, began())
    case 4: return (nil, ended(resume: code % 2 == 0))
    default:
      return (
        nil, SessionNotification(session: "mpv.42", event: .pause(reason: .oldDeviceUnavailable))
      )
    }
  }

  @Test(
    "over random histories: Pause only to a playing player, Play only on ended with shouldResume to a paused player we paused and nobody resumed (docs/mpris.md)"
  )
  func invariants() async {
    await propertyCheck(count: 300, input: Gen.int(in: 0...200).array(of: 1...40)) { codes in
      var arbiter = PlayerArbiter()
      // What the player did since our last Pause: nil if we never paused it.
      var pausedByUsSince: Bool? = nil
      for code in codes {
        let (event, notification) = Self.step(code)
        if let event {
          arbiter.apply(event)
          switch event {
          case .updated(let player) where player.status != .paused: pausedByUsSince = nil
          case .removed: pausedByUsSince = nil
          case .snapshot(let all) where all.first?.status != .paused: pausedByUsSince = nil
          default: break
          }
        }
        guard let notification else { continue }
        let before = arbiter.players[Self.mpv]
        let sent = arbiter.decide([notification], owners: Self.owners)
        for case .player(let action) in sent.map(\.event) {
          switch action.command {
          case .pause:
            #expect(before?.status == .playing, "\(codes)")
            pausedByUsSince = true
          case .play:
            guard case .interruptionEnded(let options, _) = notification.event else {
              Issue.record("Play without ended: \(codes)")
              continue
            }
            #expect(options.contains(.shouldResume), "\(codes)")
            #expect(before?.status == .paused, "\(codes)")
            #expect(pausedByUsSince == true, "\(codes)")
            pausedByUsSince = nil
          }
        }
        if case .interruptionEnded = notification.event { pausedByUsSince = nil }
        #expect(sent.count <= 1, "\(codes)")
      }
    }
  }
}
