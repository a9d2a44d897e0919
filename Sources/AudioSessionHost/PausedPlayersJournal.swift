import AudioSession
package import AudioSessionArbiter
package import AudioSessionSystem

#if canImport(Glibc)
  import Glibc
#endif

/// The media players the daemon paused for an interruption, kept in a file beside the state
/// file (docs/mpris.md "A daemon that stops"): a daemon that stops or is killed while a call
/// goes on leaves them paused, and the next daemon plays them again once nothing that would
/// interrupt them plays. Read once at start-up, rewritten whenever the list changes, removed
/// when it is empty.
///
/// `{"v":1,"players":[{"bus":"org.mpris.MediaPlayer2.mpv","pid":4711}]}`
package struct PausedPlayersJournal: Sendable {
  /// A player by its bus name and the process that owned it (a name taken over by another
  /// process is not the same player).
  package typealias Entry = PausedPlayer

  let path: String
  /// What the file holds now.
  private(set) var written: Set<Entry> = []

  /// `sessions.json` → `paused-players.json`, `pw.sessions.json` → `pw.paused-players.json`;
  /// any other state file name gets `.paused-players` appended.
  static func path(besideStateFile state: String) -> String {
    let suffix = "sessions.json"
    guard state.hasSuffix(suffix) else { return state + ".paused-players" }
    return String(state.dropLast(suffix.count)) + "paused-players.json"
  }

  package init(path: String) {
    self.path = path
  }

  /// The players a previous daemon left paused; nothing when there is no file or it cannot be
  /// read (it is then left for the operator, and logged by the caller).
  package mutating func load() throws(SafeFile.Failure) -> Set<Entry> {
    guard let bytes = try SafeFile.read(path),
      case .object(let top)? = try? JSONParser.parse(bytes),
      case .array(let players)? = top["players"]
    else { return [] }
    var entries: Set<Entry> = []
    for case .object(let player) in players {
      guard case .string(let bus)? = player["bus"] else { continue }
      var pid: Int32?
      if case .int(let value)? = player["pid"] { pid = Int32(exactly: value) }
      var order = 0
      if case .int(let value)? = player["order"], let read = Int(exactly: value), read > 0 {
        order = read
      }
      entries.insert(Entry(bus: bus, pid: pid, order: order))
    }
    written = entries
    return entries
  }

  /// Writes the list (or removes the file when it is empty), if it changed.
  mutating func store(_ entries: Set<Entry>) throws(SafeFile.Failure) {
    guard entries != written else { return }
    if entries.isEmpty {
      if unlink(path) != 0, errno != ENOENT {
        throw SafeFile.Failure("cannot remove \(path): \(String(cString: strerror(errno)))")
      }
    } else {
      let players = entries.sorted().map { entry -> String in
        let pid = entry.pid.map { "\($0)" } ?? "null"
        let bus = JSONValue.string(entry.bus).serialized
        return #"{"bus":\#(bus),"pid":\#(pid),"order":\#(entry.order)}"#
      }
      let text = #"{"v":1,"players":[\#(players.joined(separator: ","))]}"# + "\n"
      try SafeFile.replace(path, with: Array(text.utf8), durable: false)
    }
    written = entries
  }
}
