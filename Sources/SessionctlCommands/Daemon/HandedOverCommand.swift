import ArgumentParser

#if canImport(Glibc)
  import Glibc
#endif

/// The commands `sessionctl` hands to the daemon program because they need the PulseAudio
/// backend (``DaemonProgram/handOver()``): `scenario run … --backend pulse` and `policy check` of
/// a directory with `pulse.json`. The daemon program runs them here with its backend, given as
/// `support`, with sessionctl's parser, output and messages.
public enum HandedOverCommand {
  /// Whether `arguments` (sessionctl's, as handed over) are such a command.
  public static func handles(_ arguments: [String]) -> Bool {
    ["scenario", "policy"].contains(arguments.first)
  }

  /// Runs the command and exits.
  public static func main(_ arguments: [String], support: any PulseSupport) -> Never {
    Task.detached {
      do {
        switch try Sessionctl.parseAsRoot(arguments) {
        case let run as Sessionctl.ScenarioCommand.Run:
          try await run.perform(support: support) { print($0) }
        case let check as Sessionctl.PolicyCommand.Check:
          print(try check.output(support: support))
        case let other:
          // Help and the like (`scenario --help`) run as in sessionctl; they need no backend.
          var command = other
          if var asynchronous = command as? any AsyncParsableCommand {
            try await asynchronous.run()
          } else {
            try command.run()
          }
        }
      } catch {
        Sessionctl.exit(withError: error)
      }
      exit(EXIT_SUCCESS)
    }
    // The main thread waits, taking the process's signals, as in `SessionctlMain`.
    var none = sigset_t()
    sigemptyset(&none)
    while true { sigsuspend(&none) }
  }
}
