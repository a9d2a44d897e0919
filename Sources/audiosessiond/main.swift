// `audiosessiond`: the audio session daemon, with the backends (libpulse, sd-bus) and the socket
// server (NIO); `sessionctl` links none of them (docs/modules.md "What sessionctl links").
import ArgumentParser
import AudioSessionDaemon
import SessionctlCommands
import SessionctlPulse

#if canImport(Glibc)
  import Glibc
#endif

let arguments = Array(CommandLine.arguments.dropFirst())
if HandedOverCommand.handles(arguments) {
  // `sessionctl scenario run … --backend pulse`, `sessionctl policy check` of pulse.json.
  HandedOverCommand.main(arguments, support: LivePulseSupport())
}
// Swift concurrency off libdispatch before any task exists, so that an idle daemon makes no
// wakeups (docs/style.md §3.12).
GlobalExecutor.takeOver()
// Detached: the main actor never runs (its queue is not drained; the main thread sleeps).
Task.detached {
  // ArgumentParser exits by itself on errors, help and version.
  await Audiosessiond.main(arguments)
  exit(EXIT_SUCCESS)
}
// The main thread takes the process's signals, whatever mask it inherited (a parent's
// libdispatch worker blocks them all): SIGTERM and SIGINT reach their handlers or end us.
var none = sigset_t()
sigemptyset(&none)
while true { sigsuspend(&none) }
