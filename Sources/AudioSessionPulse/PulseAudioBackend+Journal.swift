import AudioSession
import AudioSessionSystem
import FoundationEssentials
import Logging

#if canImport(Glibc)
  import Glibc
#endif

/// What the backend changed on other programs' streams, kept in a file
/// (``PulseBackendConfiguration/changesFile``), so that a daemon that is killed (SIGKILL, a
/// crash) leaves nothing muted or ducked for good: the next daemon on the same server undoes
/// it when it first connects (docs/apps.md "A daemon that was killed").
///
/// The file lists each stream the backend has muted or ducked: its direction and index, the
/// program's process id (so that another stream that got the index is left alone), whether
/// it was muted, the volumes it had before and the ducked ones it was given, and its entry in
/// the server's stream database. It is rewritten after each decision that changes that list
/// and removed when the list is empty (a clean stop undoes everything first).
extension PulseAudioBackend {
  /// The file's format version.
  static let journalVersion = 1

  /// One stream the changes file lists.
  struct JournalEntry: Equatable {
    var key: ServerStream.Key
    var pid: String?
    var muted: Bool
    /// Its volumes before the ducking, if the backend ducked it.
    var saved: [PulseVolume]?
    /// The volumes the server last showed (a database entry written anew gets them).
    var shown: [PulseVolume]?
    var restoreName: String?
  }

  /// Writes the changes file if what it would hold changed. Called after every decision: the
  /// list is compared first, and only a changed one is written out as JSON.
  func writeJournal() {
    guard let path = configuration.changesFile else { return }
    var entries: [JournalEntry] = []
    for (key, state) in otherStreamStates.sorted(by: { $0.key < $1.key })
    where state.mutedByUs || state.savedVolumes != nil {
      entries.append(journalEntry(key, state))
    }
    guard entries != journalEntries else { return }
    journalEntries = entries
    // Nothing left to undo: the intents listed before are void.
    if entries.isEmpty { emptyIntents() }
    journalWriter.write(journalText(entries), to: path)
  }

  /// One stream's line of the changes file.
  private func journalEntry(_ key: ServerStream.Key, _ state: OtherStreamState) -> JournalEntry {
    let properties = reported[key]?.properties ?? [:]
    return JournalEntry(
      key: key, pid: properties["application.process.id"], muted: state.mutedByUs,
      saved: state.savedVolumes,
      shown: state.savedVolumes == nil ? state.lastVolumes : nil,
      restoreName: state.restoreName
        ?? PulseStreamRestoreEntry.name(of: properties, direction: key.direction))
  }

  /// The intent file: `<changes file>.intent`.
  static func intentPath(_ changes: String) -> String { changes + ".intent" }

  /// Lists a mute or a ducking before its request is sent (write-ahead, issue 25 item 6): one
  /// line appended to the intent file beside the changes file, the stream as the changes file
  /// lists it, with the server. A daemon killed at any moment after the request leaves it
  /// listed, and the next daemon undoes it. One `write` of a short line, no file made or
  /// renamed, so the mute waits for no more than that (the whole changes file, written beside
  /// and renamed, cost the mute about 0.5 ms at p50 in pulse-bench section 3).
  func appendIntent(_ key: ServerStream.Key) {
    guard let state = otherStreamStates[key], openIntentFile() else { return }
    _ = SafeFile.writeAll(intentFile, intentLine(key, state))
  }

  /// Opens the intent file if it is not open; false when there is none (no changes file, or it
  /// cannot be opened: said once per attempt).
  private func openIntentFile() -> Bool {
    guard intentFile < 0 else { return true }
    guard let path = configuration.changesFile else { return false }
    do {
      intentFile = try SafeFile.openAppending(Self.intentPath(path))
      return true
    } catch {
      configuration.logger.warning(
        "\(error); a daemon killed now would leave other programs' streams as they are")
      return false
    }
  }

  /// A stream's line of the intent file: as the changes file lists it, with the server.
  private func intentLine(_ key: ServerStream.Key, _ state: OtherStreamState) -> [UInt8] {
    var object = journalObject(journalEntry(key, state))
    object.append("server", .string(serverDescription))
    return Array((JSONValue.object(object).serialized + "\n").utf8)
  }

  /// Arms the unplug guard with the playback streams assigned to sessions, each with its intent
  /// line as a muted stream (``PulseUnplugGuard``); the intent file is opened if it is not.
  func armUnplugGuard() {
    var armed: [UInt32: [UInt8]] = [:]
    for key in otherAssignment.sessions.keys where key.direction == .playback {
      var state = otherStreamStates[key] ?? OtherStreamState()
      state.mutedByUs = true
      armed[key.index] = intentLine(key, state)
    }
    if !armed.isEmpty { _ = openIntentFile() }
    unplugGuard.arm(armed, intentFile: intentFile)
  }

  /// Takes in what the unplug guard muted before a snapshot of `sequence` settled (`shown`: the
  /// latest snapshot): a stream the model did not mute as a rescued one
  /// (``silenceRescuedStreams(from:to:)`` runs first) and that is still there is unmuted again,
  /// so that no mute stays that the model does not know of. The backend's stop takes all.
  func reconcileUnplugGuard(_ shown: PulseServerSnapshot, before sequence: Int, _ link: Link) {
    for index in unplugGuard.takeFired(before: sequence) {
      let key = ServerStream.Key(.playback, index)
      guard otherStreamStates[key]?.mutedByUs != true,
        shown.sinkInputs.contains(where: { $0.index == index })
      else { continue }
      configuration.logger.debug(
        "another program's stream \(key), muted as its sink went, is not one the model silences; unmuted",
        metadata: ["server": "\(serverDescription)"])
      link.context.setSinkInputMute(index, muted: false) { _ in }
    }
  }

  /// Empties the intent file when nothing is left to undo, and keeps it open: the next mute's
  /// line is then one `write` into a file that exists. Closed and removed each time instead, the
  /// file was made anew before the first mute of each call or unplug, which cost that mute 0.14
  /// ms at p50 and 1.2 ms at p99 on a loaded 2-core machine (pulse-bench sections 3 and 4,
  /// docs/apps.md "Speed"). A clean stop removes it (``removeIntents(_:)``).
  func emptyIntents() {
    guard intentFile >= 0 else { return }
    // Not while the unplug guard's intent lines are the only ones listing a stream it muted.
    let file = intentFile
    unplugGuard.unlessFired { _ = ftruncate(file, 0) }
  }

  /// Closes and removes the intent file (nothing is left to undo, or this daemon undid it).
  func removeIntents(_ path: String) {
    unplugGuard.disarm()
    if intentFile >= 0 {
      close(intentFile)
      intentFile = -1
    }
    unlink(Self.intentPath(path))
  }

  /// The streams the intent file lists for this server.
  private func intents(_ path: String) -> [JSONObject] {
    guard let data = try? SafeFile.read(Self.intentPath(path)) else { return [] }
    return data.split(separator: UInt8(ascii: "\n")).compactMap { line in
      guard case .object(let object)? = try? JSONParser.parse(Array(line)),
        object["server"] == .string(serverDescription)
      else { return nil }
      // As the changes file lists the stream (no server of its own), so that a stream in both
      // is undone once.
      return JSONObject(object.members.filter { $0.key != "server" }.map { ($0.key, $0.value) })
    }
  }

  /// The file's text for `entries`; empty (the file removed) for none.
  private func journalText(_ entries: [JournalEntry]) -> String {
    guard !entries.isEmpty else { return "" }
    let object: JSONObject = [
      "v": .int(Self.journalVersion), "server": .string(serverDescription),
      "streams": .array(entries.map { .object(journalObject($0)) }),
    ]
    return object.serialized + "\n"
  }

  /// One stream as the changes file and the intent file list it.
  private func journalObject(_ entry: JournalEntry) -> JSONObject {
    func numbers(_ volumes: [PulseVolume]) -> JSONValue {
      .array(volumes.map { .int(Int($0.rawValue)) })
    }
    do {
      var object: JSONObject = [
        "direction": .string(entry.key.direction == .playback ? "playback" : "record"),
        "index": .int(Int(entry.key.index)),
        "pid": entry.pid.map(JSONValue.string) ?? .null,
        "muted": .bool(entry.muted),
      ]
      if let saved = entry.saved {
        object.append("volumes", numbers(saved))
        object.append("ducked", numbers(duckedVolumes(saved)))
      } else if let shown = entry.shown {
        object.append("shown", numbers(shown))
      }
      object.append("restoreEntry", entry.restoreName.map(JSONValue.string) ?? .null)
      return object
    }
  }

  /// On the first connection: undoes what a daemon before this one left in the changes file,
  /// on the streams still there that have exactly what it gave them, and in the stream database
  /// for those that are gone; the file is removed first (this daemon writes its own).
  func undoJournal(_ snapshot: PulseServerSnapshot) async {
    guard let path = configuration.changesFile, let link else { return }
    // What a daemon killed in the middle of a write left beside it.
    SafeFile.removeTemporaries(of: path)
    // The mutes and duckings it listed before sending them, then removed: this daemon lists
    // its own.
    var streams: [JSONValue] = intents(path).map(JSONValue.object)
    removeIntents(path)
    // This user's own regular file only: a link or another user's file is not read.
    var data: [UInt8]?
    do {
      data = try SafeFile.read(path)
    } catch {
      configuration.logger.warning(
        "\(error); nothing a previous daemon left on other programs' streams is undone",
        metadata: ["server": "\(serverDescription)"])
      return
    }
    if let data {
      unlink(path)
      journalEntries = nil
      guard case .object(let object)? = try? JSONParser.parse(data),
        object["v"] == .int(Self.journalVersion), case .array(let listed)? = object["streams"]
      else {
        configuration.logger.warning(
          "'\(path)' is not a changes file of this version; removed without undoing anything",
          metadata: ["server": "\(serverDescription)"])
        return
      }
      // Another server (or a restarted one): its streams are not these.
      if object["server"] == .string(serverDescription) { streams += listed }
    }
    guard !streams.isEmpty else { return }
    var undone = 0
    var gone: [Gone] = []
    var seen: Set<String> = []
    for case .object(let stream) in streams {
      // A stream listed twice (an intent, then the changes file) is undone once.
      guard seen.insert(JSONValue.object(stream).serialized).inserted else { continue }
      guard case .int(let number)? = stream["index"], let index = UInt32(exactly: number),
        case .string(let direction)? = stream["direction"]
      else { continue }
      let muted = stream["muted"] == .bool(true)
      let volumes = Self.volumes(stream["volumes"])
      let ducked = Self.volumes(stream["ducked"])
      let pid: String? = if case .string(let pid)? = stream["pid"] { pid } else { nil }
      if direction == "playback",
        let input = snapshot.sinkInputs.first(where: { $0.index == index }),
        input.properties["application.process.id"] == pid
      {
        if muted, input.isMuted {
          sendMute(ServerStream.Key(.playback, index), false, on: link)
          undone += 1
        }
        if let volumes, let ducked, input.channelVolumes == ducked {
          link.context.setSinkInputVolume(index, to: volumes) { _ in }
          undone += 1
        }
      } else if direction == "record",
        let output = snapshot.sourceOutputs.first(where: { $0.index == index }),
        output.properties["application.process.id"] == pid
      {
        if muted, output.isMuted {
          sendMute(ServerStream.Key(.record, index), false, on: link)
          undone += 1
        }
      } else if case .string(let name)? = stream["restoreEntry"] {
        // Gone: its entry in the server's stream database may hold what it was given.
        gone.append(
          Gone(
            name: name, muted: muted, volumes: volumes, ducked: ducked,
            shown: Self.volumes(stream["shown"])))
      }
    }
    if undone > 0 {
      configuration.logger.notice(
        "undid \(undone) change(s) a previous daemon left on other programs' streams",
        metadata: ["server": "\(serverDescription)", "file": "\(path)"])
    }
    guard !gone.isEmpty else { return }
    // As for a stream that goes while this daemon runs: on pipewire-pulse WirePlumber may give
    // the program's next stream the old entry before it has taken the written one, and the
    // inheritance watch undoes that.
    for left in gone {
      inheritances.wentChanged(
        LeftBehind(muted: left.muted, ducked: left.ducked, original: left.volumes),
        entry: left.name)
    }
    await undoInDatabase(gone, on: link.context)
    // WirePlumber 0.5 takes nothing written: its saved state is repaired through a stream.
    guard flavor == .pipewire else { return }
    for left in gone where left.muted || left.volumes != nil {
      track {
        await self.repairSavedState(entry: left.name, muted: left.muted, original: left.volumes)
      }
    }
  }

  /// A stream the killed daemon had changed and that went meanwhile.
  struct Gone {
    var name: String
    var muted: Bool
    var volumes: [PulseVolume]?
    var ducked: [PulseVolume]?
    var shown: [PulseVolume]?
  }

  /// Gives the server's stream database entries of streams that went what they had before the
  /// killed daemon changed them, as ``forgetChanges(_:of:)`` does for a stream that goes while
  /// the daemon runs: a listed entry that holds what it gave them is written back; a server
  /// that lists none (pipewire-pulse) gets the entry written anew. Returns once the server has
  /// taken the writes (the next stream of the program must find them).
  private func undoInDatabase(_ gone: [Gone], on context: PulseContext) async {
    let entries = (try? await context.streamRestoreEntries()) ?? []
    for left in gone {
      var entry: PulseStreamRestoreEntry
      if let listed = entries.first(where: { $0.name == left.name }) {
        entry = listed
        var changed = false
        if left.muted, entry.isMuted {
          entry.isMuted = false
          changed = true
        }
        if let volumes = left.volumes, let ducked = left.ducked, entry.volumes == ducked {
          entry.volumes = volumes
          changed = true
        }
        guard changed else { continue }
      } else {
        // A new entry needs volumes: the ones before the ducking, else the ones shown.
        guard let volumes = left.volumes ?? left.shown else { continue }
        entry = PulseStreamRestoreEntry(
          name: left.name,
          channelPositions: PulseStreamRestoreEntry.defaultPositions(count: volumes.count),
          volumes: volumes, device: nil, isMuted: false)
      }
      context.writeStreamRestore(entry) { _ in }
    }
    // A reply comes after every request sent before it on the connection.
    _ = try? await context.serverInfo()
  }

  private static func volumes(_ value: JSONValue?) -> [PulseVolume]? {
    guard case .array(let values)? = value else { return nil }
    let volumes = values.compactMap { value -> PulseVolume? in
      guard case .int(let raw) = value, let volume = UInt32(exactly: raw) else { return nil }
      return PulseVolume(rawValue: volume)
    }
    return volumes.count == values.count && !volumes.isEmpty ? volumes : nil
  }
}

/// Writes the changes file on a thread of its own, at a lower priority and ``delay`` after it
/// is handed a text: the file is for a daemon killed later, and its writing (a file beside,
/// then a rename) must not take the CPU from the decision whose requests have just left (two
/// cores, the server busy with the change: measured in pulse-bench section 4, p99 +150–280 µs
/// when written at once). The last text given in the meantime is the one written; an empty
/// text removes the file. The thread sleeps while there is nothing to write (no wakeups when
/// idle).
final class PulseJournalWriter: @unchecked Sendable {
  /// How long after a decision its changes are written: a daemon killed within it leaves that
  /// decision's changes as they are.
  static let delay = 0.05
  private let condition = Condition()
  private var pending: (text: String, path: String)?
  private var writing = false
  private var started = false
  private let logger: Logger

  init(logger: Logger) {
    self.logger = logger
  }

  /// Hands `text` to the writer thread (started the first time).
  func write(_ text: String, to path: String) {
    condition.lock()
    pending = (text, path)
    let start = !started
    started = true
    condition.broadcast()
    condition.unlock()
    if start { SystemThread.detach(name: "audiosession-journal") { [self] in run() } }
  }

  /// Waits until what was handed over has been written (the backend stops: the process may
  /// exit next).
  func flush() {
    condition.lock()
    while pending != nil || writing { condition.wait() }
    condition.unlock()
  }

  private func run() {
    // Lower than the daemon's other threads: on Linux the nice value is a thread's, and `0`
    // names the calling thread (setpriority(2), "Bugs"); raising it needs no privilege.
    _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
    while true {
      condition.lock()
      while pending == nil { condition.wait() }
      // Later texts replace this one meanwhile; the last is written.
      let deadline = MonotonicInstant.now().adding(seconds: Self.delay)
      while condition.wait(until: deadline) {}
      guard let (text, path) = pending else {
        condition.unlock()
        continue
      }
      pending = nil
      writing = true
      condition.unlock()
      Self.store(text, at: path, logger: logger)
      condition.lock()
      writing = false
      condition.broadcast()
      condition.unlock()
    }
  }

  private static func store(_ text: String, at path: String, logger: Logger) {
    guard !text.isEmpty else {
      unlink(path)
      return
    }
    // Written to a new file beside (O_EXCL, O_NOFOLLOW, mode 0600: nothing planted there is
    // followed), then renamed: a reader never sees half a file (issue 25 item 1). Not flushed
    // to disk: it is for a daemon killed, not for a power cut, after which the server's streams
    // are gone too.
    do {
      try SafeFile.replace(path, with: Array(text.utf8), durable: false)
    } catch {
      logger.warning(
        "\(error); a daemon killed now would leave other programs' streams as they are")
    }
  }
}
