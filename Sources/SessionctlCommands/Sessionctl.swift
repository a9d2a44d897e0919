import ArgumentParser
import AudioSession

#if canImport(Glibc)
  import Glibc
#endif

/// The entry point: a synchronous `main`, so that a one-shot command runs on the main thread with
/// no task, and so that the main thread, which an `async main` would hand to libdispatch, waits
/// for signals instead.
public enum SessionctlMain {
  @MainActor public static func main() -> Never {
    // Options before the command and negative numbers as values, for both parsers below.
    let arguments = CommandLineWords.normalized(Array(CommandLine.arguments.dropFirst()))
    let first = arguments.first { !$0.hasPrefix("-") }
    // A one-shot live command (`status`, `set`, `simulate …`) is a request and its reply: it runs
    // here, on the main thread, with no task, so that no worker thread is started for it
    // (docs/modules.md "What `sessionctl` links": start-up against `pactl info`).
    // The simplest (`status`, `play`, …) are read without ArgumentParser, whose parser costs
    // more than the request (`OneShotRequest.init(arguments:)`).
    // A command line that does not parse (a mistake, `--help`) takes the usual way below, where
    // ArgumentParser says what it says.
    let request =
      OneShotRequest(arguments: arguments)
      ?? first.flatMap {
        isOneShot($0) ? try? Sessionctl.parseAsRoot(arguments) as? any LiveCommand : nil
      }
      .map(OneShotRequest.init)
    if let request {
      do {
        try request.run()
      } catch {
        Sessionctl.exit(withError: error)
      }
      exit(EXIT_SUCCESS)
    }
    // Detached: the main actor never runs (its queue is not drained; the main thread sleeps).
    Task.detached {
      // ArgumentParser exits by itself on errors, help and version.
      await Sessionctl.main(arguments)
      exit(EXIT_SUCCESS)
    }
    // The main thread takes the process's signals, whatever mask it inherited (a parent's
    // libdispatch worker blocks them all): SIGTERM and SIGINT reach their handlers or end us.
    var none = sigset_t()
    sigemptyset(&none)
    while true { sigsuspend(&none) }
  }
}

/// Whether `SessionctlMain` runs the command named `name` without a task: a live command, or one
/// of `simulate`'s. (One type is checked: a conformance check scans the binary's conformance
/// table, a cost per type.)
func isOneShot(_ name: String) -> Bool {
  guard let type = Sessionctl.configuration.subcommands.first(where: { $0.commandWord == name })
  else { return false }
  return type == Sessionctl.Simulate.self || type is any LiveCommand.Type
}

struct Sessionctl: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "sessionctl",
    abstract: "Configure, arbitrate and replay audio sessions with AVAudioSession's semantics.",
    version: PackageVersion.current,
    subcommands: [
      SetCategory.self, SetMode.self, Activate.self, Deactivate.self, Play.self, Stop.self,
      Override.self,
      AppStateCommand.self, NowPlaying.self, Prefer.self, InputGain.self, DataSource.self,
      PolarPatternCommand.self,
      OutputMuted.self, InputMuted.self,
      Remove.self, Status.self, Route.self,
      Devices.self, Watch.self, Explain.self, Record.self, Run.self,
      Simulate.self, Heard.self,
      ScenarioCommand.self, PolicyCommand.self, Daemon.self, PortIOS.self,
    ]
  )
}
