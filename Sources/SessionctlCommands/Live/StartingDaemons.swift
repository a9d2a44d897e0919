import AudioSession
import AudioSessionSystem
import AudioSessionWire
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// The daemon processes (`audiosessiond`, `sessionctl daemon`) of this user that will serve a
/// socket, found in `/proc`:
/// for a daemon started an instant before a live command (`sessionctl daemon &` and the next
/// line of a script), which has not taken the socket's lock yet. A live command waits for such a
/// daemon rather than start a second one that would race it for the lock.
enum StartingDaemons {
  /// The pids of this user's daemon processes (other than this one) whose socket is
  /// `socketPath`.
  static func on(_ path: String) -> [pid_t] {
    let target = absolute(path, in: FileManager.default.currentDirectoryPath)
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    let own = getpid()
    let uid = getuid()
    return entries.compactMap(pid_t.init).filter { pid in
      guard pid != own else { return false }
      var info = stat()
      guard stat("/proc/\(pid)", &info) == 0, info.st_uid == uid,
        let arguments = strings("/proc/\(pid)/cmdline"), isDaemon(arguments),
        let socket = socketPath(arguments: arguments, pid: pid)
      else { return false }
      return socket == target
    }.sorted()
  }

  /// Whether a command line is a daemon's: `audiosessiond …`, or `sessionctl daemon …` before it
  /// runs `audiosessiond` in its place.
  static func isDaemon(_ arguments: [String]) -> Bool {
    switch arguments.first?.split(separator: "/").last {
    case DaemonProgram.name[...]?: true
    case "sessionctl"?: arguments.count >= 2 && arguments[1] == "daemon"
    default: false
    }
  }

  /// Whether a process is still there (and not a zombie).
  static func isAlive(_ pid: pid_t) -> Bool {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else {
      return false
    }
    return stat.split(separator: ")").last?.split(separator: " ").first != "Z"
  }

  /// The socket a `sessionctl daemon ARGUMENTS` process serves: `--socket`, else its
  /// environment's, as ``WireProtocol/socketPath(explicit:environment:userID:)`` resolves it;
  /// nil when its environment cannot be read.
  private static func socketPath(arguments: [String], pid: pid_t) -> String? {
    var explicit: String?
    for (index, argument) in arguments.enumerated() {
      if argument == "--socket", index + 1 < arguments.count {
        explicit = arguments[index + 1]
      } else if argument.hasPrefix("--socket=") {
        explicit = String(argument.dropFirst("--socket=".count))
      }
    }
    var environment: [String: String] = [:]
    if explicit == nil || explicit?.isEmpty == true {
      guard let variables = strings("/proc/\(pid)/environ") else { return nil }
      for variable in variables {
        guard let equals = variable.firstIndex(of: "=") else { continue }
        environment[String(variable[..<equals])] = String(
          variable[variable.index(after: equals)...])
      }
    }
    let path = WireProtocol.socketPath(
      explicit: explicit, environment: environment, userID: getuid())
    guard !path.hasPrefix("/") else { return path }
    let directory = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/cwd"))
    return directory.map { absolute(path, in: $0) }
  }

  private static func absolute(_ path: String, in directory: String) -> String {
    let joined = path.hasPrefix("/") ? path : directory + "/" + path
    return PathText.normalized(joined)
  }

  /// A `/proc` file of NUL-separated strings.
  private static func strings(_ path: String) -> [String]? {
    guard let data = ProcFile.bytes(path) else { return nil }
    return data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
  }
}
