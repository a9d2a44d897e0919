import ArgumentParser
import AudioSession
import AudioSessionWire

/// A command a scenario step may start with (after an optional session name).
protocol StepCommand: ParsableCommand {
  /// Whether the command acts on one session, so that `NAME command` may stand for
  /// `command --session NAME`.
  static var actsOnSession: Bool { get }
}

/// A command that acts on live sessions: typed at a shell, it goes to the daemon; in a scenario
/// it is a step, turned into the library's ``Command``.
protocol LiveCommand: StepCommand, AsyncParsableCommand {
  /// How a user types it (`sessionctl simulate plug`), for messages.
  static var invocation: String { get }

  /// `--socket` and `--timeout`.
  var connection: LiveConnectionOptions { get }

  /// The library command this command line stands for.
  func command() -> Command
}

/// A live command with `--json`.
protocol JSONOutputCommand {
  var json: Bool { get }
}

extension LiveCommand {
  static var invocation: String { "sessionctl \(commandWord)" }

  func run() async throws { try runOneShot() }

  /// Sends the command to the daemon (starting one if none runs) and prints what it answered
  /// and the notifications it caused. Blocking calls only: `SessionctlMain` runs it on the main
  /// thread, with no task (docs/modules.md "What sessionctl links").
  func runOneShot() throws {
    try OneShotRequest(self).run()
  }
}

/// The daemon refused a live command; ArgumentParser prints it after "Error: ".
struct LiveCommandError: Error, CustomStringConvertible {
  var error: DaemonError

  var description: String { error.description }
}

extension Sessionctl.Status: JSONOutputCommand {}
extension Sessionctl.Route: JSONOutputCommand {}
extension Sessionctl.Devices: JSONOutputCommand {}
extension Sessionctl.AppStateCommand: JSONOutputCommand {}
extension Sessionctl.NowPlaying: JSONOutputCommand {}
extension Sessionctl.Prefer: JSONOutputCommand {}
extension Sessionctl.InputGain: JSONOutputCommand {}
extension Sessionctl.DataSource: JSONOutputCommand {}
extension Sessionctl.PolarPatternCommand: JSONOutputCommand {}
extension Sessionctl.OutputMuted: JSONOutputCommand {}
extension Sessionctl.InputMuted: JSONOutputCommand {}
extension Sessionctl.Simulate.Siri: JSONOutputCommand {}
extension Sessionctl.Simulate.Alarm: JSONOutputCommand {}
extension Sessionctl.Simulate.Call: JSONOutputCommand {}
