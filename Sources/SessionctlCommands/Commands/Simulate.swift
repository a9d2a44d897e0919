import ArgumentParser
import AudioSession
import AudioSessionSystem

extension Sessionctl {
  /// `sessionctl simulate …`: changes to the system the sessions live in.
  struct Simulate: AsyncParsableCommand, StepCommand {
    static let configuration = CommandConfiguration(
      commandName: "simulate",
      abstract: "Simulates devices, the phone call, the switches and the media server.",
      discussion: """
        On the simulated backend everything stays inside the daemon. On a daemon started with \
        --backend pulse the changes are made on its PulseAudio server: 'plug' loads a virtual \
        device there (a module-null-sink per output port, a source per input port), 'unplug' \
        unloads it (real devices are refused), 'call' plays a silent phone-role stream, \
        'mic-mute' mutes the built-in microphone's sources, and 'silent' and 'lock' stay the \
        engine's (PulseAudio has neither).

        On the user's own server (the daemon without --spawn-server) the plugged device may \
        become the server's default output, so that other applications play into it and are \
        not heard, until 'simulate unplug' removes it (stopping the daemon removes it too); \
        'plug' says so in a warning. 'server-restart' restarts only a server the daemon started \
        ('sessionctl daemon --backend pulse --spawn-server', a private server with the \
        policy's built-in devices); on the user's server it is refused.
        """,
      subcommands: [
        Plug.self, Unplug.self, Call.self, Silent.self, Lock.self, MicMute.self,
        ServerRestart.self, MediaServices.self, Siri.self, Alarm.self,
        Volume.self, Permission.self, Program.self, User.self, DaemonRestart.self, Wait.self,
        RolePolicy.self,
      ])

    static let actsOnSession = false
  }
}

/// A `simulate` subcommand: a live command about the system, not about one session.
protocol SimulateCommand: LiveCommand {
  /// The simulated change.
  var action: SimulationAction { get }
}

extension SimulateCommand {
  static var actsOnSession: Bool { false }

  static var invocation: String {
    "sessionctl simulate \(commandWord)"
  }

  func command() -> Command { .simulate(action) }
}
