#if canImport(PortedIOSApps)
  import AudioSessionTestSupport
  import AudioSession
  import AudioSessionClient
  import AudioSessionSystem
  import Foundation
  import MediaPlayer
  import PortedIOSApps
  import Testing

  #if canImport(Glibc)
    import Glibc
  #endif

  /// docs/ios-compat.md "MediaPlayer over MPRIS": the process's Now Playing information and
  /// remote commands are an MPRIS player on the session bus, driven here from outside by the real
  /// `playerctl`, `dbus-send` and `dbus-monitor`, on a private `dbus-daemon` of the
  /// test's own (never the user's bus). In PortedAppsTests, serialized: the center and the
  /// commands are the process's.
  extension PortedAppsTests {
    /// A private bus with the process's player served on it, and the shared session in an
    /// in-process engine.
    struct MPRISRig {
      let bus: PrivateSessionBus
      let rig: Rig
      /// `playerctl`'s name for the player: the bus name without `org.mpris.MediaPlayer2.`.
      var player: String { String(NowPlayingService.busName.dropFirst(Self.prefix.count)) }
      static let prefix = "org.mpris.MediaPlayer2."

      /// Runs `body` with a rig, and always leaves the center and the commands as they were, the
      /// player withdrawn and the bus stopped.
      static func with(_ body: (MPRISRig) async throws -> Void) async throws {
        let bus = try PrivateSessionBus()
        let rig: Rig
        do {
          rig = try await PortedAppsTests.rig("engine")
        } catch {
          bus.stop()
          throw error
        }
        NowPlayingService.use(.address(bus.address))
        let mpris = MPRISRig(bus: bus, rig: rig)
        var failure: (any Error)?
        do { try await body(mpris) } catch { failure = error }
        MPNowPlayingInfoCenter.default().nowPlayingInfo = nil
        MPNowPlayingInfoCenter.default().playbackState = .unknown
        for command in Self.commands {
          command.removeTarget(nil)
          command.isEnabled = true
        }
        NowPlayingService.use(.none)
        await rig.stop()
        bus.stop()
        if let failure { throw failure }
      }

      static var commands: [MPRemoteCommand] {
        let center = MPRemoteCommandCenter.shared()
        return [
          center.playCommand, center.pauseCommand, center.togglePlayPauseCommand,
          center.stopCommand, center.nextTrackCommand, center.previousTrackCommand,
          center.skipForwardCommand, center.skipBackwardCommand,
          center.changePlaybackPositionCommand, center.changePlaybackRateCommand,
        ]
      }

      /// Runs a program with the private bus as the session bus; its exit status (nil: it did
      /// not end within 30 s) and its output (standard output and error).
      func run(_ program: String, _ arguments: [String]) throws -> (status: Int32?, output: String)
      {
        let path = NSTemporaryDirectory() + "mpris-\(UUID().uuidString).txt"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let child = try ChildProcess.spawn(
          program, arguments: arguments, environment: environment, output: .appending(path))
        guard child.waitForExit(seconds: 30) else {
          child.end(SIGKILL)
          return (nil, "\(program) did not end")
        }
        let data = Data(ProcFile.bytes(path) ?? [])
        return (child.exitStatus, String(decoding: data, as: UTF8.self))
      }

      var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = bus.address
        return environment
      }

      /// `playerctl --player=<this process's player> ARGUMENTS`'s output, trimmed; nil when it
      /// fails (no such player).
      func playerctl(_ arguments: String...) throws -> String? {
        let result = try run("/usr/bin/playerctl", ["--player=\(player)"] + arguments)
        guard result.status == 0 else { return nil }
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
      }

      /// A property of `org.mpris.MediaPlayer2.Player` or `org.mpris.MediaPlayer2`, read with
      /// `dbus-send` (`Properties.Get`): the variant as it prints it, spaces collapsed
      /// (`boolean false`, `string "Playing"`, `array [ ]`).
      func property(_ name: String, interface: String = "org.mpris.MediaPlayer2.Player") throws
        -> String?
      {
        let result = try send(
          "org.freedesktop.DBus.Properties.Get", "string:\(interface)", "string:\(name)")
        guard result.status == 0, let variant = result.output.range(of: "variant") else {
          return nil
        }
        return result.output[variant.upperBound...].split(whereSeparator: \.isWhitespace)
          .joined(separator: " ")
      }

      /// Calls a method of the player's object with `dbus-send` (arguments as it takes them:
      /// `objpath:/a/b`, `int64:5`).
      func send(_ method: String, _ arguments: String...) throws -> (
        status: Int32?, output: String
      ) {
        try run(
          "/usr/bin/dbus-send",
          [
            "--bus=\(bus.address)", "--print-reply", "--dest=\(NowPlayingService.busName)",
            "/org/mpris/MediaPlayer2", method,
          ] + arguments)
      }

      /// Whether the bus lists the player's name (`ListNames`, asked with `dbus-send`).
      func nameListed() throws -> Bool {
        let result = try run(
          "/usr/bin/dbus-send",
          [
            "--bus=\(bus.address)", "--print-reply", "--dest=org.freedesktop.DBus",
            "/org/freedesktop/DBus", "org.freedesktop.DBus.ListNames",
          ])
        #expect(result.status == 0, "dbus-send ListNames: \(result.output)")
        return result.output.contains("\"\(NowPlayingService.busName)\"")
      }

      /// Starts a program that follows the bus (`playerctl --follow`, `dbus-monitor`), its output
      /// going to a file; stopped by its PID.
      func follow(_ program: String, _ arguments: [String]) throws -> Follower {
        let path = NSTemporaryDirectory() + "mpris-follow-\(UUID().uuidString).txt"
        let child = try ChildProcess.spawn(
          program, arguments: arguments, environment: environment, output: .appending(path))
        return Follower(child: child, path: path)
      }

      struct Follower {
        let child: ChildProcess
        let path: String

        var output: String {
          String(decoding: Data(ProcFile.bytes(path) ?? []), as: UTF8.self)
        }

        func stop() {
          child.end(SIGTERM)
          try? FileManager.default.removeItem(atPath: path)
        }
      }

      /// Waits (up to 20 s) until `condition` holds; false if it never does.
      func eventually(_ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date(timeIntervalSinceNow: 20)
        while try !condition() {
          if Date() > deadline { return false }
          Thread.sleep(forTimeInterval: 0.02)
        }
        return true
      }
    }

    @Test(
      "an iOS radio app's player is served over MPRIS: playerctl reads its title and reaches its pause and play handlers, a disabled next track is CanGoNext false and does nothing, and stopping releases the name (docs/ios-compat.md \"MediaPlayer over MPRIS\")"
    )
    func radioPlayer_overMPRIS_playerctlDrivesItsHandlers() async throws {
      try await MPRISRig.with { mpris in
        #expect(try !mpris.nameListed())
        let radio = RadioPlayer()
        try radio.start(station: "Radio Swift")
        let handled = HandledCommands()
        defer { handled.remove() }
        #expect(try mpris.eventually { try mpris.nameListed() }, "the player's name")
        #expect(NowPlayingService.isServing)
        #expect(try mpris.playerctl("metadata", "title") == "Radio Swift")
        #expect(try mpris.playerctl("status") == "Playing")
        #expect(
          try mpris.property("Identity", interface: "org.mpris.MediaPlayer2")
            == "string \"\(ProcessInfo.processInfo.processName)\"")
        #expect(try mpris.property("CanGoNext") == "boolean false")
        #expect(try mpris.property("CanPause") == "boolean true")

        #expect(try mpris.playerctl("pause") != nil)
        #expect(mpris.eventually { handled.pauses >= 1 }, "the pause handlers ran")
        #expect(!radio.isPlaying)
        #expect(try mpris.playerctl("play") != nil)
        #expect(mpris.eventually { handled.plays >= 1 }, "the play handlers ran")
        #expect(radio.isPlaying)
        // The radio disabled nextTrackCommand: playerctl, reading CanGoNext, does not call Next;
        // called anyway, Next does nothing and is not an error.
        #expect(try mpris.playerctl("next") == nil)
        #expect(try mpris.send("org.mpris.MediaPlayer2.Player.Next").status == 0)
        #expect(radio.isPlaying)

        handled.remove()
        try radio.stop()
        #expect(try mpris.eventually { try !mpris.nameListed() }, "the name is released")
        #expect(try mpris.playerctl("status") == nil)
      }
    }

    @Test(
      "a command sent over MPRIS runs its handlers on the main queue, as iOS runs them (docs/ios-compat.md \"MediaPlayer over MPRIS\")"
    )
    func remoteCommand_overMPRIS_runsOnTheMainQueue() async throws {
      try await MPRISRig.with { mpris in
        final class Threads: @unchecked Sendable {
          let lock = NSLock()
          var onMain: [Bool] = []
        }
        let threads = Threads()
        // The main queue, whichever thread drains it (after dispatchMain, not the main thread).
        let mainQueue = DispatchSpecificKey<Int>()
        DispatchQueue.main.setSpecific(key: mainQueue, value: 1)
        MPNowPlayingInfoCenter.default().nowPlayingInfo = [
          MPMediaItemPropertyTitle: "Main", MPNowPlayingInfoPropertyPlaybackRate: 1.0,
        ]
        let pause = MPRemoteCommandCenter.shared().pauseCommand.addTarget { _ in
          let onMain = DispatchQueue.getSpecific(key: mainQueue) == 1
          threads.lock.withLock { threads.onMain.append(onMain) }
          return .success
        }
        #expect(try mpris.eventually { try mpris.nameListed() }, "the player's name")
        let sent = try mpris.send("org.mpris.MediaPlayer2.Player.Pause")
        #expect(sent.status == 0)
        #expect(mpris.eventually { threads.lock.withLock { !threads.onMain.isEmpty } })
        #expect(threads.lock.withLock { threads.onMain } == [true])
        MPRemoteCommandCenter.shared().pauseCommand.removeTarget(pause)
        MPNowPlayingInfoCenter.default().nowPlayingInfo = nil
        #expect(try mpris.eventually { try !mpris.nameListed() }, "the name is released")
      }
    }

    @Test(
      "PlaybackStatus follows the playback rate and playbackState, and its changes are signalled to playerctl --follow; Position is the elapsed time (docs/ios-compat.md \"MediaPlayer over MPRIS\")"
    )
    func nowPlayingInfo_overMPRIS_statusFollowsRateAndIsSignalled() async throws {
      try await MPRISRig.with { mpris in
        let center = MPNowPlayingInfoCenter.default()
        var info: [String: Any] = [
          MPMediaItemPropertyTitle: "Blue in Green",
          MPMediaItemPropertyArtist: "Miles Davis",
          MPMediaItemPropertyAlbumTitle: "Kind of Blue",
          MPMediaItemPropertyPlaybackDuration: 337.0,
          MPNowPlayingInfoPropertyElapsedPlaybackTime: 12.5,
          MPNowPlayingInfoPropertyPlaybackRate: 0.0,
        ]
        center.nowPlayingInfo = info
        #expect(try mpris.eventually { try mpris.nameListed() })
        // Paused with no play command, CanPlay is false, and playerctl then shows no metadata.
        #expect(try mpris.property("CanPlay") == "boolean false")
        #expect(try mpris.playerctl("metadata", "artist") == nil)
        let play = MPRemoteCommandCenter.shared().playCommand.addTarget { _ in .success }
        #expect(try mpris.eventually { try mpris.property("CanPlay") == "boolean true" })
        #expect(try mpris.playerctl("metadata", "artist") == "Miles Davis")
        #expect(try mpris.playerctl("metadata", "album") == "Kind of Blue")
        #expect(try mpris.playerctl("metadata", "mpris:length") == "337000000")
        #expect(try mpris.playerctl("status") == "Paused")
        #expect(try mpris.playerctl("position").flatMap { Double($0) } == 12.5)
        // Paused, Rate is the rate playback resumes at: MPRIS forbids 0.
        #expect(try mpris.property("Rate") == "double 1")

        let follower = try mpris.follow(
          "/usr/bin/playerctl", ["--player=\(mpris.player)", "--follow", "status"])
        defer { follower.stop() }
        #expect(mpris.eventually { follower.output.contains("Paused") }, "\(follower.output)")
        info[MPNowPlayingInfoPropertyPlaybackRate] = 1.0
        center.nowPlayingInfo = info
        #expect(
          mpris.eventually { follower.output.contains("Paused\nPlaying") }, "\(follower.output)")
        #expect(try mpris.playerctl("status") == "Playing")
        // playbackState, when set, wins over the rate.
        center.playbackState = .paused
        #expect(
          mpris.eventually { follower.output.contains("Playing\nPaused") }, "\(follower.output)")
        center.playbackState = .unknown
        #expect(try mpris.eventually { try mpris.playerctl("status") == "Playing" })

        // Without information but with a target, the player stays, Stopped, with no track.
        center.nowPlayingInfo = nil
        #expect(try mpris.eventually { try mpris.playerctl("status") == "Stopped" })
        #expect(try mpris.property("Metadata") == "array [ ]")
        MPRemoteCommandCenter.shared().playCommand.removeTarget(play)
        #expect(try mpris.eventually { try !mpris.nameListed() }, "the name is released")
      }
    }

    @Test(
      "enabling a command is signalled (CanGoNext in PropertiesChanged) and Next then reaches its handler (docs/ios-compat.md \"MediaPlayer over MPRIS\")"
    )
    func commandEnablement_overMPRIS_isSignalled() async throws {
      try await MPRISRig.with { mpris in
        let commands = MPRemoteCommandCenter.shared()
        let nexts = Counter()
        commands.nextTrackCommand.isEnabled = false
        commands.nextTrackCommand.addTarget { _ in
          nexts.add()
          return .success
        }
        MPNowPlayingInfoCenter.default().nowPlayingInfo = [MPMediaItemPropertyTitle: "One"]
        #expect(try mpris.eventually { try mpris.nameListed() })
        #expect(try mpris.property("CanGoNext") == "boolean false")
        #expect(try mpris.send("org.mpris.MediaPlayer2.Player.Next").status == 0)
        let monitor = try mpris.follow(
          "/usr/bin/dbus-monitor",
          [
            "--address", mpris.bus.address,
            "type='signal',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged'",
          ])
        defer { monitor.stop() }
        // dbus-monitor is listening once its own name was acquired and lost (it says so first).
        #expect(mpris.eventually { monitor.output.contains("NameLost") }, "\(monitor.output)")
        #expect(nexts.value == 0, "a disabled command's handler does not run")

        commands.nextTrackCommand.isEnabled = true
        let signalled = try Regex(#""CanGoNext"\s+variant\s+boolean true"#)
        #expect(
          mpris.eventually { monitor.output.contains(signalled) }, "\(monitor.output)")
        #expect(try mpris.property("CanGoNext") == "boolean true")
        #expect(try mpris.playerctl("next") != nil)
        #expect(mpris.eventually { nexts.value == 1 }, "the next-track handler ran")
      }
    }

    @Test(
      "SetPosition and Seek reach changePlaybackPositionCommand (a stale track id is ignored), and without it Seek is a skip (docs/ios-compat.md \"MediaPlayer over MPRIS\")"
    )
    func seeking_overMPRIS_reachesPositionAndSkipCommands() async throws {
      try await MPRISRig.with { mpris in
        let center = MPNowPlayingInfoCenter.default()
        let commands = MPRemoteCommandCenter.shared()
        let received = Recorded()
        center.nowPlayingInfo = [
          MPMediaItemPropertyTitle: "So What", MPMediaItemPropertyPlaybackDuration: 300.0,
          MPNowPlayingInfoPropertyElapsedPlaybackTime: 30.0,
          MPNowPlayingInfoPropertyPlaybackRate: 0.0,
        ]
        let position = commands.changePlaybackPositionCommand.addTarget { event in
          guard let event = event as? MPChangePlaybackPositionCommandEvent else {
            return .commandFailed
          }
          received.add("position \(event.positionTime)")
          // As an app does: the information follows the new position.
          var info = center.nowPlayingInfo ?? [:]
          info[MPNowPlayingInfoPropertyElapsedPlaybackTime] = event.positionTime
          center.nowPlayingInfo = info
          return .success
        }
        #expect(try mpris.eventually { try mpris.nameListed() })
        #expect(try mpris.property("CanSeek") == "boolean true")

        // SetPosition (playerctl reads the track id from Metadata).
        #expect(try mpris.playerctl("position", "42") != nil)
        #expect(mpris.eventually { received.values == ["position 42.0"] }, "\(received.values)")
        #expect(
          try mpris.eventually { try mpris.playerctl("position").flatMap { Double($0) } == 42 })
        // Seek: from the position, paused, so exactly.
        #expect(try mpris.playerctl("position", "10+") != nil)
        #expect(mpris.eventually { received.values.last == "position 52.0" }, "\(received.values)")
        // A SetPosition for another track is stale: ignored.
        let stale = try mpris.send(
          "org.mpris.MediaPlayer2.Player.SetPosition",
          "objpath:/org/audiosession/MediaPlayer/track999", "int64:5000000")
        #expect(stale.status == 0, "\(stale.output)")
        #expect(try mpris.playerctl("position", "7") != nil)
        #expect(mpris.eventually { received.values.last == "position 7.0" }, "\(received.values)")
        #expect(!received.values.contains("position 5.0"), "\(received.values)")

        // Without the position command, Seek is a skip of that interval.
        commands.changePlaybackPositionCommand.removeTarget(position)
        for skip in [commands.skipForwardCommand, commands.skipBackwardCommand] {
          skip.addTarget { event in
            let interval = (event as? MPSkipIntervalCommandEvent)?.interval ?? -1
            received.add(
              "\(skip === commands.skipForwardCommand ? "forward" : "back") \(interval)")
            return .success
          }
        }
        #expect(try mpris.playerctl("position", "15+") != nil)
        #expect(mpris.eventually { received.values.last == "forward 15.0" }, "\(received.values)")
        #expect(try mpris.playerctl("position", "5-") != nil)
        #expect(mpris.eventually { received.values.last == "back 5.0" }, "\(received.values)")
      }
    }

    @Test(
      "a session bus that restarts gets the player again, with its state (docs/ios-compat.md \"MediaPlayer over MPRIS\")"
    )
    func busRestarts_playerIsServedAgain() async throws {
      try await MPRISRig.with { mpris in
        let radio = RadioPlayer()
        try radio.start(station: "Radio Swift")
        let handled = HandledCommands()
        defer { handled.remove() }
        #expect(try mpris.eventually { try mpris.nameListed() })
        try mpris.bus.restart()
        #expect(try mpris.eventually { try mpris.nameListed() }, "the name on the new bus")
        #expect(try mpris.playerctl("metadata", "title") == "Radio Swift")
        #expect(try mpris.playerctl("pause") != nil)
        #expect(mpris.eventually { handled.pauses >= 1 }, "the pause handlers ran")
        #expect(!radio.isPlaying)
        handled.remove()
        try radio.stop()
        #expect(try mpris.eventually { try !mpris.nameListed() }, "the name is released")
      }
    }

    @Test(
      "with a session bus that cannot be reached the app works as before: in-process commands reach their handlers and nothing is served (docs/ios-compat.md \"MediaPlayer over MPRIS\")"
    )
    func unreachableBus_appWorksAsBefore() async throws {
      let rig = try await PortedAppsTests.rig("engine")
      NowPlayingService.use(.address("unix:path=/nonexistent/audiosession-test/bus"))
      let radio = RadioPlayer()
      try radio.start(station: "Radio Swift")
      let commands = MPRemoteCommandCenter.shared()
      #expect(commands.pauseCommand.send() == .success)
      #expect(!radio.isPlaying)
      #expect(commands.playCommand.send() == .success)
      #expect(radio.isPlaying)
      #expect(!NowPlayingService.isServing)
      let session = AVAudioSession.sharedInstance()
      #expect(await rig.status().sessions.first { $0.name == session.name }?.nowPlaying == true)
      try radio.stop()
      commands.nextTrackCommand.isEnabled = true
      NowPlayingService.use(.none)
      await rig.stop()
    }
  }

  /// A count handlers on the bus thread add to.
  /// Targets added after an app's on the shared pause and play commands: the commands run their
  /// handlers in order on the bus's thread, so once one of these has counted (under a lock) the
  /// app's handler has run, and the test reads what it wrote only then (found by
  /// ThreadSanitizer: docs/fuzzing.md "Sanitizers").
  final class HandledCommands: @unchecked Sendable {
    private let lock = NSLock()
    private var paused = 0
    private var played = 0
    private var tokens: [(MPRemoteCommand, Any)] = []

    init() {
      let commands = MPRemoteCommandCenter.shared()
      tokens = [
        (
          commands.pauseCommand,
          commands.pauseCommand.addTarget { [self] _ in
            lock.withLock { paused += 1 }
            return .success
          }
        ),
        (
          commands.playCommand,
          commands.playCommand.addTarget { [self] _ in
            lock.withLock { played += 1 }
            return .success
          }
        ),
      ]
    }

    var pauses: Int { lock.withLock { paused } }
    var plays: Int { lock.withLock { played } }

    func remove() {
      for (command, token) in tokens { command.removeTarget(token) }
      tokens = []
    }
  }

  final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func add() { lock.withLock { count += 1 } }
  }

  /// What handlers on the bus thread received, in order.
  final class Recorded: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [String] = []
    var values: [String] { lock.withLock { list } }
    func add(_ value: String) { lock.withLock { list.append(value) } }
  }
#endif
