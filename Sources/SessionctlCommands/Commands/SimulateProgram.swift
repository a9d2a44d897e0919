import ArgumentParser
import AudioSession
import AudioSessionScenario

extension Sessionctl.Simulate {
  /// `simulate program NAME start --binary BIN [...]`,
  /// `simulate program NAME pause|play|stop|stall` (a scenario step).
  struct Program: DesktopStepCommand {
    static let configuration = CommandConfiguration(
      commandName: "program",
      abstract:
        "In a scenario: another program starts, pauses, plays, quits, stalls, or closes its "
        + "streams.",
      discussion: """
        start: its playback stream appears, playing (uncorked), with application.process.binary \
        --binary, application.name --app-name, media.role --role, application.process.id \
        --pid (default 1000 plus the order the scenario first starts it in) in process group \
        --group (default its own); --records adds a record stream (a browser's call page); \
        --player BUS gives it an MPRIS player at that bus name, Playing; --never-corks keeps its \
        stream uncorked while it is paused, as Chromium does; --paused starts it paused; \
        --property KEY=VALUE sets another property of its streams (application.id, \
        pipewire.access.portal.app_id…). pause: it pauses (corks, its player says Paused). \
        play: it plays again. stop: it quits, its streams and player gone. stall: its stream \
        corks while its player still says Playing (mpv as it starts on a busy machine, a \
        player buffering); play uncorks it. close: its streams go, its player stays (a player \
        that lets its stream go while paused); open: it opens them again. Its player obeys the \
        daemon's Pause and Play as these do (docs/contract.md "Desktop steps").
        """)

    static let invocation = "sessionctl simulate program"

    enum Act: String, CaseIterable, ExpressibleByArgument {
      case start, pause, play, stop, stall, close, open
    }

    @Argument(help: "The program's name in the scenario.")
    var name: String

    @Argument(help: "start, pause, play, stop, stall, close or open.")
    var act: Act

    @Option(help: "application.process.binary (start).")
    var binary: String?

    @Option(help: "media.role (start).")
    var role: String?

    @Option(help: "application.name (start).")
    var appName: String?

    @Option(help: "application.process.id (start).")
    var pid: Int32?

    @Option(help: "The process group (start).")
    var group: Int32?

    @Flag(help: "It records too, as a call page does (start).")
    var records = false

    @Flag(help: "It keeps its stream uncorked while paused (start).")
    var neverCorks = false

    @Option(help: ArgumentHelp("Its MPRIS player's bus name (start).", valueName: "bus"))
    var player: String?

    @Flag(help: "It starts paused: its player says Paused, its stream is corked (start).")
    var paused = false

    @Option(
      name: .customLong("property"),
      help: ArgumentHelp(
        "Another property of its streams, as KEY=VALUE; repeatable (start).",
        valueName: "key=value"))
    var properties: [String] = []

    func validate() throws {
      if let problem = programNameProblem(name) { throw ValidationError(problem) }
      let described =
        binary != nil || role != nil || appName != nil || pid != nil || group != nil || records
        || neverCorks || player != nil || paused || !properties.isEmpty
      guard act == .start else {
        if described {
          throw ValidationError(
            "--binary, --role, --app-name, --pid, --group, --records, --never-corks, --player, "
              + "--paused and --property describe a program as it starts; '\(act.rawValue)' "
              + "takes none")
        }
        return
      }
      _ = try propertyList()
      guard let binary, !binary.isEmpty else {
        throw ValidationError("'program \(name) start' needs --binary BINARY")
      }
      for (option, value) in [("--pid", pid), ("--group", group)] {
        if let value, value <= 0 {
          throw ValidationError("\(option) takes a process id greater than 0, not \(value)")
        }
      }
      let prefix = "org.mpris.MediaPlayer2."
      if let player, !player.hasPrefix(prefix) || player.count == prefix.count {
        throw ValidationError(
          "--player takes an MPRIS bus name, org.mpris.MediaPlayer2.NAME, not '\(player)'")
      }
    }

    /// The `--property` values by key; a value without `=`, an empty key, a key given twice or
    /// one another option sets is refused.
    func propertyList() throws -> [String: String] {
      var list: [String: String] = [:]
      for item in properties {
        guard let equals = item.firstIndex(of: "="), equals != item.startIndex else {
          throw ValidationError(
            "--property takes KEY=VALUE (application.id=firefox), not '\(item)'")
        }
        let key = String(item[..<equals])
        if DesktopAct.Program.optionKeys.contains(key) {
          throw ValidationError(
            "--property cannot set '\(key)': --binary, --pid, --app-name and --role set "
              + DesktopAct.Program.optionKeys.joined(separator: ", "))
        }
        guard list[key] == nil else {
          throw ValidationError("--property gives '\(key)' twice")
        }
        list[key] = String(item[item.index(after: equals)...])
      }
      return list
    }

    func desktopAct() -> DesktopAct {
      switch act {
      case .start:
        .start(
          DesktopAct.Program(
            name: name, binary: binary ?? name, role: role, appName: appName, pid: pid,
            group: group, records: records, neverCorks: neverCorks, player: player,
            paused: paused, properties: (try? propertyList()) ?? [:]))
      case .pause: .program(name, .pause)
      case .play: .program(name, .play)
      case .stop: .program(name, .stop)
      case .stall: .program(name, .stall)
      case .close: .program(name, .close)
      case .open: .program(name, .open)
      }
    }
  }

  /// `simulate user NAME play|pause` (a scenario step).
  struct User: DesktopStepCommand {
    static let configuration = CommandConfiguration(
      commandName: "user",
      abstract: "In a scenario: the user tells a program's player to play or pause.",
      discussion: """
        The user's MPRIS command (playerctl, the media keys): the bus shows the command, then \
        the player's new status, and its stream uncorks or corks as the program plays or \
        pauses (docs/contract.md "Desktop steps"). The program must have a player (--player).
        """)

    static let invocation = "sessionctl simulate user"

    @Argument(help: "The program's name in the scenario.")
    var name: String

    @Argument(help: "play or pause.")
    var command: PlayerAction.Command

    func validate() throws {
      if let problem = programNameProblem(name) { throw ValidationError(problem) }
    }

    func desktopAct() -> DesktopAct { .user(name, command) }
  }

  /// `simulate daemon restart [--bus-first]` (a scenario step).
  struct DaemonRestart: DesktopStepCommand {
    static let configuration = CommandConfiguration(
      commandName: "daemon",
      abstract: "In a scenario: the daemon is killed and started again, or stopped, or started.",
      discussion: """
        restart: a new daemon starts with what the last one left on disk (its sessions' state \
        file, the journal of the players it paused), then learns the streams on the server and \
        the players on the bus as they are (the server first, unless --bus-first). stop: the \
        daemon is killed and stays stopped: the programs and the user act with no daemon to see \
        them, and no command runs, until start, which starts a new daemon as restart does \
        (docs/contract.md "Desktop steps").
        """)

    static let invocation = "sessionctl simulate daemon"

    enum What: String, CaseIterable, ExpressibleByArgument {
      case restart, stop, start
    }

    @Argument(help: "restart, stop or start.")
    var what: What

    @Flag(help: "The new daemon hears the session bus before the audio server (restart, start).")
    var busFirst = false

    func validate() throws {
      if busFirst, what == .stop {
        throw ValidationError("--bus-first says what a new daemon hears first; 'stop' starts none")
      }
    }

    func desktopAct() -> DesktopAct {
      switch what {
      case .restart: .daemonRestart(busFirst: busFirst)
      case .stop: .daemonStop
      case .start: .daemonStart(busFirst: busFirst)
      }
    }
  }

  /// `simulate wait DURATION` (a scenario step).
  struct Wait: DesktopStepCommand {
    static let configuration = CommandConfiguration(
      commandName: "wait",
      abstract: "In a scenario: time passes.",
      discussion: """
        Every other step takes no time; this one lets DURATION pass (250ms, 2s; at most an \
        hour), and what the daemon times ends meanwhile: an app session held after its last \
        stream goes (docs/apps.md "Speech") unless a stream of its app came back \
        (docs/contract.md "Desktop steps").
        """)

    static let invocation = "sessionctl simulate wait"

    @Argument(help: ArgumentHelp("How long: N ms or N s (250ms, 2s).", valueName: "duration"))
    var duration: String

    func validate() throws {
      if Self.milliseconds(duration) == nil {
        throw ValidationError(
          "'\(duration)' is no duration: write whole milliseconds or seconds, from 1ms to "
            + "3600s (250ms, 2s)")
      }
    }

    /// `250ms` or `2s` in milliseconds, from 1 ms to an hour; nil for anything else.
    static func milliseconds(_ text: String) -> Int? {
      let (digits, scale): (Substring, Int) =
        if text.hasSuffix("ms") { (text.dropLast(2), 1) } else if text.hasSuffix("s") {
          (text.dropLast(), 1000)
        } else { ("", 0) }
      guard !digits.isEmpty, digits.count <= 7, digits.allSatisfy({ ("0"..."9").contains($0) }),
        let value = Int(digits)
      else { return nil }
      let milliseconds = value * scale
      return (1...3_600_000).contains(milliseconds) ? milliseconds : nil
    }

    func desktopAct() -> DesktopAct { .wait(milliseconds: Self.milliseconds(duration) ?? 0) }
  }

  /// `simulate role-policy on|off` (a scenario step).
  struct RolePolicy: DesktopStepCommand {
    static let configuration = CommandConfiguration(
      commandName: "role-policy",
      abstract: "In a scenario: WirePlumber's role policy is turned on or off.",
      discussion: """
        With it on, 'heard' also hears what WirePlumber 0.5's example role policy \
        (media-role-nodes.conf) does to other programs' streams: while a stream plays on a \
        role sink, the streams of lower roles are corked (a call's, an assistant's, an \
        alert's) or ducked to 0.3 (a navigation prompt's). The daemon decides as before \
        (docs/contract.md "Desktop steps").
        """)

    static let invocation = "sessionctl simulate role-policy"

    enum State: String, CaseIterable, ExpressibleByArgument {
      case on, off
    }

    @Argument(help: "on or off.")
    var state: State

    func desktopAct() -> DesktopAct { .rolePolicy(state == .on) }
  }
}
