import AudioSession
import AudioSessionScenario
import Testing

@testable import SessionctlCommands

/// The desktop steps a record is written with (docs/contract.md "Desktop steps", "Recording what
/// the daemon saw"): a program started paused or with other properties, one that closes its
/// streams while its player stays, and the daemon stopped while the desktop goes on.
@Suite struct ReplayStepsTests {
  typealias Steps = DesktopStepsTests
  static let mpv = Steps.mpv
  static let call = Steps.call

  @Test(
    "the steps a record is written with parse into their acts (docs/contract.md Desktop steps)")
  func parse_recordSteps() throws {
    let plan = try Steps.plan([
      "simulate program web start --binary chromium --paused --property application.id=web "
        + "--property 'pipewire.access.portal.app_id=org.example.Web' --player "
        + "org.mpris.MediaPlayer2.web",
      "simulate program web close", "simulate program web open", "simulate daemon stop",
      "simulate daemon start --bus-first", "simulate daemon stop", "simulate daemon start",
    ])
    #expect(
      plan.actions == [
        .desktop(
          .start(
            DesktopAct.Program(
              name: "web", binary: "chromium", player: "org.mpris.MediaPlayer2.web", paused: true,
              properties: [
                "application.id": "web", "pipewire.access.portal.app_id": "org.example.Web",
              ]))),
        .desktop(.program("web", .close)), .desktop(.program("web", .open)),
        .desktop(.daemonStop), .desktop(.daemonStart(busFirst: true)), .desktop(.daemonStop),
        .desktop(.daemonStart(busFirst: false)),
      ])
  }

  @Test(
    "a wrong record step is the file's problem, with what is valid (docs/contract.md Desktop steps, Bad input)",
    arguments: [
      (
        "simulate program mpv start --binary mpv --property role",
        "--property takes KEY=VALUE (application.id=firefox), not 'role'"
      ),
      (
        "simulate program mpv start --binary mpv --property media.role=music",
        "--property cannot set 'media.role': --binary, --pid, --app-name and --role set "
          + "application.process.binary, application.process.id, application.name, media.role"
      ),
      (
        "simulate program mpv start --binary mpv --property a=1 --property a=2",
        "--property gives 'a' twice"
      ),
      (
        "simulate daemon stop --bus-first",
        "--bus-first says what a new daemon hears first; 'stop' starts none"
      ),
    ])
  func parse_wrongRecordStep(step: String, message: String) {
    #expect(Steps.problems([step]) == "t.yaml:3:5: step '\(step)': \(message)")
  }

  @Test(
    "closing a program without a player, stopping a stopped daemon, starting a running one, and a command while none runs are refused before anything runs (docs/contract.md Desktop steps)"
  )
  func parse_wrongOrder() {
    #expect(
      Steps.problems([Self.call, "simulate program call close"])?.contains(
        "the program 'call' has no player to stay when its streams close") == true)
    #expect(
      Steps.problems(["simulate daemon stop", "simulate daemon stop"])?.contains(
        "the daemon is already stopped") == true)
    #expect(
      Steps.problems(["simulate daemon start"])?.contains(
        "the daemon runs; stop it first with 'simulate daemon stop'") == true)
    #expect(
      Steps.problems(["simulate daemon stop", "simulate daemon restart"])?.contains(
        "the daemon is stopped; start it with 'simulate daemon start'") == true)
    #expect(
      Steps.problems(["simulate daemon stop", "music activate"])
        == "t.yaml:4:5: step 'music activate': no daemon runs to take 'music activate' (an "
        + "earlier step stopped it); start it first with 'simulate daemon start'")
  }

  @Test(
    "while the daemon is stopped the programs act unseen; the daemon that starts finds them as they are and decides then (docs/contract.md Desktop steps)"
  )
  func stoppedDaemon_decidesWhenItStarts() async throws {
    let entries = try await Steps.run([
      "simulate daemon stop", Self.mpv, Self.call, "heard", "simulate daemon start", "heard",
    ])
    for entry in entries.prefix(4) {
      #expect(entry.result.notifications.isEmpty, "\(entry.command)")
      #expect(Steps.sent(entry).isEmpty)
    }
    #expect(Steps.heard(Array(entries.prefix(4))) == ["mpv": 1, "call": 1])
    #expect(
      entries[4].result.notifications.map(\.event).contains(
        .interruptionBegan(reason: .default, by: .call)), "\(entries[4].result.notifications)")
    #expect(Steps.heard(entries) == ["mpv": 0, "call": 1])
  }

  @Test(
    "a program that closes its streams keeps its player: it is heard at 0, its session goes, it obeys the daemon, and opens its streams as it then plays (docs/contract.md Desktop steps)"
  )
  func close_keepsThePlayer() async throws {
    let entries = try await Steps.run([
      Self.mpv, "simulate program mpv close", "heard", "simulate user mpv pause",
      "simulate program mpv open", "status", "simulate user mpv play", "heard",
    ])
    #expect(entries[1].result.error == nil)
    #expect(Steps.heard(Array(entries.prefix(3))) == ["mpv": 0])
    guard case .status(let status)? = entries[5].result.reply else {
      Issue.record("no status")
      return
    }
    // Opened paused: corked, so its session is there and does not play.
    #expect(status.sessions.first { $0.name == "mpv.1000" }?.playing == false)
    #expect(Steps.heard(entries) == ["mpv": 1])
  }

  @Test(
    "while the audio server is lost no program has a stream, even a player the daemon plays; when it is back the players open theirs, unless closed (docs/contract.md Desktop steps)"
  )
  func serverDown_opensNoStream() async throws {
    let entries = try await Steps.run([
      Self.mpv,
      "simulate program meet start --binary chromium --never-corks --player "
        + "org.mpris.MediaPlayer2.meet", "simulate media-services lost", "heard",
      "simulate program meet close", "simulate media-services reset", "heard",
    ])
    #expect(Steps.heard(Array(entries.prefix(4))) == ["mpv": 0, "meet": 0])
    #expect(Steps.heard(entries)["meet"] == 0)
  }

  @Test(
    "a program started paused plays nothing, and one whose app id a --property gives is the app's session (docs/contract.md Desktop steps, docs/apps.md Sessions of other programs)"
  )
  func paused_andProperties() async throws {
    let entries = try await Steps.run([
      Self.mpv + " --paused", "heard",
      "simulate program app start --binary bwrap --role music --property "
        + "pipewire.access.portal.app_id=org.example.Player",
      "status",
    ])
    #expect(Steps.heard(Array(entries.prefix(2))) == ["mpv": 0])
    #expect(entries[0].result.notifications.isEmpty)
    guard case .status(let status)? = entries[3].result.reply else {
      Issue.record("no status")
      return
    }
    #expect(
      status.sessions.contains { $0.name == "orgexamplePlayer" && $0.active },
      "\(status.sessions.map(\.name))")
  }
}
