import ArgumentParser
import AudioSessionDaemon

#if canImport(Glibc)
  import Glibc
#endif

/// The entry point: a synchronous `main`, so that the daemon can move Swift concurrency off
/// libdispatch before any task exists, and so that the main thread, which an `async main` would
/// hand to libdispatch, waits for signals instead (issue 4 "Speed": an idle daemon makes no wakeups).
public enum SessionctlMain {
  @MainActor public static func main() -> Never {
    if CommandLine.arguments.dropFirst().first(where: { !$0.hasPrefix("-") }) == "daemon" {
      GlobalExecutor.takeOver()
    }
    // Detached: the main actor never runs (its queue is not drained; the main thread sleeps).
    Task.detached {
      // ArgumentParser exits by itself on errors, help and version.
      await Sessionctl.main()
      exit(EXIT_SUCCESS)
    }
    // The main thread takes the process's signals, whatever mask it inherited (a parent's
    // libdispatch worker blocks them all): SIGTERM and SIGINT reach their handlers or end us.
    var none = sigset_t()
    sigemptyset(&none)
    while true { sigsuspend(&none) }
  }
}

struct Sessionctl: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "sessionctl",
    abstract: "Configure, arbitrate and replay audio sessions with AVAudioSession's semantics.",
    subcommands: [
      SetCategory.self, Activate.self, Deactivate.self, Play.self, Stop.self, Override.self,
      AppStateCommand.self, NowPlaying.self, Prefer.self, InputGain.self, DataSource.self,
      Remove.self, Status.self, Route.self,
      Devices.self, Watch.self, Explain.self, Run.self,
      Simulate.self,
      ScenarioCommand.self, PolicyCommand.self, Daemon.self,
    ]
  )
}
