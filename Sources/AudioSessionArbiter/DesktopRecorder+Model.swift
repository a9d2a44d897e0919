// The recorder's parts: its steps, the desktop a replay starts from, the replay's clock, and
// other programs as the replay's desktop will have them.
import AudioSession

extension DesktopRecorder {
  /// One step as kept: a program's start and a device are named by number, written out only
  /// when the record is asked for (a program's start learns later whether it never corks, and
  /// which player it has; a device's replayed UID depends on the devices before it).
  struct Entry: Sendable {
    enum Kind: Sendable {
      case command(session: String?, words: [String])
      case start(incarnation: Int)
      case plug(preset: String, device: Int)
      case unplug(device: Int)
      /// A comment alone (a command that was refused, and changed nothing).
      case comment
    }

    var kind: Kind
    var comment: String?
    var at: Int
    var decided: [String] = []
    var decidedLeftOut = 0
    /// What it changed of the desktop a replay would start from (``Baseline``).
    var changes: [Baseline.Change] = []

    init(kind: Kind, comment: String? = nil, at: Int) {
      self.kind = kind
      self.comment = comment
      self.at = at
    }

    mutating func addDecided(_ lines: [String], more: Int) {
      Baseline.add(lines, more: more, to: &decided, leftOut: &decidedLeftOut)
    }

    var isStart: Bool {
      if case .start = kind { true } else { false }
    }
  }

  /// The desktop the replay starts from: what the daemon found when it started, or, once the
  /// record was cut, the desktop after the steps cut: the devices, the sessions set up (the
  /// state file's, the clients'), the programs that run and whether each is paused.
  struct Baseline: Sendable {
    enum Change: Sendable {
      case device(Int, String?)
      case session(String, SessionConfiguration?)
      /// A program's state (nil: it quit).
      case program(incarnation: Int, ProgramState?)
    }

    /// What a program does, as the replay's setup starts it.
    struct ProgramState: Sendable, Hashable {
      var paused: Bool
      /// Its streams are closed, its player there.
      var closed = false
    }

    var devices: [Int] = []
    var presets: [Int: String] = [:]
    var sessions: [(name: String, configuration: SessionConfiguration)] = []
    var programs: [(incarnation: Int, state: ProgramState)] = []
    /// Whether the daemon heard the session bus before the server as it started.
    var busFirst = false
    /// What the daemon decided as it started.
    var decided: [String] = []
    var decidedLeftOut = 0

    mutating func fold(_ changes: [Change]) {
      for change in changes {
        switch change {
        case .device(let id, let preset?):
          if !devices.contains(id) { devices.append(id) }
          presets[id] = preset
        case .device(let id, nil):
          devices.removeAll { $0 == id }
          presets[id] = nil
        case .session(let name, let configuration?):
          if let index = sessions.firstIndex(where: { $0.name == name }) {
            sessions[index].configuration = configuration
          } else {
            sessions.append((name, configuration))
          }
        case .session(let name, nil):
          sessions.removeAll { $0.name == name }
        case .program(let incarnation, let state?):
          if let index = programs.firstIndex(where: { $0.incarnation == incarnation }) {
            programs[index].state = state
          } else {
            programs.append((incarnation, state))
          }
        case .program(let incarnation, nil):
          programs.removeAll { $0.incarnation == incarnation }
        }
      }
    }

    mutating func addDecided(_ lines: [String], more: Int) {
      Self.add(lines, more: more, to: &decided, leftOut: &decidedLeftOut)
    }

    static func add(
      _ lines: [String], more: Int, to decided: inout [String], leftOut: inout Int
    ) {
      let room = max(0, DesktopRecorder.decisionsPerStep - decided.count)
      decided += lines.prefix(room)
      let (sum, overflow) = leftOut.addingReportingOverflow(lines.count - min(room, lines.count))
      let (total, again) = sum.addingReportingOverflow(more)
      leftOut = overflow || again ? Int.max : total
    }
  }

  /// The replay's clock: every step takes no time there, so the time that passes between the
  /// facts matters only while an app session's hold is timed (docs/apps.md "Speech"), and is
  /// then owed to the replay as `simulate wait` before its next step, never so much that a hold
  /// ends there before it ended here.
  struct ReplayClock: Sendable {
    /// The replay's time at its last step, in milliseconds.
    var now = 0
    /// The time passed since then.
    var owed = 0
    /// The live time of the last fact.
    var last: Int?
    /// The holds timed, with when each ends on the replay's clock.
    var holds: [AppHold: Int] = [:]

    mutating func pass(to time: Int) {
      defer { last = time }
      guard let last, !holds.isEmpty else {
        owed = 0
        return
      }
      let (gap, overflow) = time.subtractingReportingOverflow(last)
      guard !overflow, gap > 0 else { return }
      let (sum, over) = owed.addingReportingOverflow(gap)
      let first = holds.values.min() ?? Int.max
      let (room, under) = first.subtractingReportingOverflow(now)
      let cap = under ? Int.max : max(0, room - 1)
      owed = min(over ? Int.max : sum, cap)
    }

    /// A hold begins: on the replay's clock, with the step that caused it.
    mutating func started(_ hold: AppHold) {
      let (end, overflow) = now.addingReportingOverflow(max(0, hold.milliseconds))
      holds[hold] = overflow ? Int.max : end
    }

    /// A hold ended here: the replay waits until its end; false when nothing is owed for it.
    mutating func ending(_ hold: AppHold) -> Bool {
      guard let end = holds[hold] else { return false }
      let (wait, overflow) = end.subtractingReportingOverflow(now)
      guard !overflow, wait > 0 else {
        holds[hold] = nil
        return false
      }
      owed = wait
      return true
    }

    /// The waits owed (`simulate wait` takes at most an hour each), now taken.
    mutating func flush() -> [Int] {
      guard owed > 0 else { return [] }
      var waits: [Int] = []
      var left = owed
      while left > 0 {
        let part = min(left, 3_600_000)
        waits.append(part)
        left -= part
      }
      let (sum, overflow) = now.addingReportingOverflow(owed)
      now = overflow ? Int.max : sum
      owed = 0
      holds = holds.filter { $0.value > now }
      return waits
    }
  }

  /// Which program a stream is of: its process, or its server client when it names no process.
  enum ProgramKey: Sendable, Hashable, Comparable {
    case process(Int32)
    case client(UInt32)
  }

  /// One run of a program, as its start step describes it: what a later fact teaches (it never
  /// corks, its player) is written into the start.
  struct Incarnation: Sendable {
    var name: String
    var binary: String
    var role: String?
    var appName: String?
    var pid: Int32
    var group: Int32?
    var records: Bool
    var neverCorks: Bool
    var player: String?
    var paused: Bool
    var properties: [String: String]
  }

  /// A program as the replay's desktop will have it, beside how the server shows it.
  struct Program: Sendable {
    var incarnation: Int
    /// Whether its streams are corked on the server (none of them plays).
    var liveCorked: Bool
    /// Whether it plays, in the replay (its own state: paused, it plays nothing).
    var playing: Bool
    /// Its player's status in the replay (nil: it has no player).
    var status: PlaybackStatus?
    /// Its streams went while its player stayed (`simulate program NAME close`).
    var closed = false
    /// Its player went while its streams stayed.
    var playerGone = false
    /// Its player was told to play or pause (by the daemon, or the user) and has not said it
    /// does yet: what its streams and player show meanwhile is its lag, not its own act.
    var obeying = false
    /// Its stream corked while its player says Playing (`simulate program NAME stall`), until it
    /// acts again.
    var stalled = false
    var noted = false
    /// The fact that started it (``DesktopRecorder/facts`` then).
    var startedAt = 0
  }
}
