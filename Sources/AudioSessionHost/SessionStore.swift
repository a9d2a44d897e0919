import AudioSession
public import AudioSessionArbiter
import AudioSessionSystem
import AudioSessionWire

#if canImport(Glibc)
  import Glibc
#endif

/// The daemon's state file: the configuration of the sessions it holds for the command line, so
/// that they survive a restart of the daemon (docs/protocol.md "The state file").
///
/// Two files, in a folder only this user can write to (``PrivateFolder``):
///
/// - the snapshot, `sessions.json`:
///   `{"v":1,"sessions":[{"name":"music","category":"playback","mode":"default","options":[…],"policy":"default"}]}`,
///   sessions in creation order, options as set (not the implied ones), replaced whole (a new
///   file beside it, flushed, renamed over it, the folder flushed);
/// - the journal, `sessions.json.journal`: a header, `{"v":1,"journal":G,"lines":N}` (the
///   snapshot's generation G, and how many changes follow, padded with spaces and rewritten in
///   place after each), then one line per change since the snapshot, numbered from 1,
///   `{"v":1,"n":1,"set":{"name":…,"category":…,…}}` or `{"v":1,"n":2,"remove":"music"}`, appended before
///   the change is answered (so a killed daemon loses nothing), flushed to disk within a second
///   (``DeferredSync``). Once it outgrows the snapshot (and at start-up) the two are folded into a
///   new snapshot and the journal emptied. Replaying a journal over the snapshot it was folded
///   into gives that snapshot again, so a crash between the two steps loses nothing.
///
/// The snapshot names its journal's generation (`"journal":G`), so that a journal that lost
/// lines — cut at a line boundary, a line missing, emptied or removed — is found and reported
/// (docs/protocol.md "The state file"). Files of an earlier version, with neither, are read as
/// they were.
///
/// Nothing is ever lost silently: a file that cannot be read, or of which an entry or a line
/// cannot be, is moved aside to `<file>.bad-<UTC time>` before anything is written, and what
/// could be read is kept; a file written by a newer version is left as it is, and then nothing is
/// written at all (``problems`` says why, and every change is answered with that).
public final class SessionStore {
  /// One saved session.
  public typealias Entry = SavedSession

  /// Why the state file could not be read or written.
  public struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
    public var description: String

    public init(description: String) { self.description = description }
  }

  /// One change, as the journal records it.
  public typealias Change = SavedChange

  /// What ``read()`` found.
  public struct Reading: Sendable {
    /// The sessions, snapshot and journal replayed, in creation order.
    public var entries: [Entry] = []
    /// What could not be read, one sentence each.
    public var problems: [String] = []
    /// The files of which something could not be read, to move aside: `problems[i]` is about
    /// `spoiled[i]`; the problems after these are about a file that is not there (a journal
    /// removed).
    public var spoiled: [String] = []
    /// Why the files are left alone: a newer version wrote them.
    public var newer: String?
    /// Lines in the journal (a fold is due when there are any).
    public var journalLines = 0
    /// The snapshot's journal generation (0: none, a file of an earlier version or no file).
    public var generation = 0
  }

  /// The format version this daemon writes and reads.
  public static let version = 1
  /// The journal's size, at least, before it is folded into the snapshot (else: the snapshot's).
  static let minimumFoldBytes = 64 * 1024
  /// At most this many problems are listed; the rest are counted.
  static let listedProblems = 10

  public let path: String
  public var journalPath: String { path + ".journal" }

  /// What went wrong at start-up (kept until the daemon stops).
  private var loadProblems: [String] = []
  /// Why nothing may be written (a newer version's files, an unsafe folder).
  private var frozen: String?
  /// Why the last change could not be saved, until one is.
  private var lastFailure: String?
  /// The journal, open for appending; -1 when it is not open.
  private var journal: Int32 = -1
  /// The journal again, not for appending, to rewrite its header's count in place; -1 when the
  /// journal has no header of this daemon's.
  private var journalHeader: Int32 = -1
  /// The generation of the snapshot last written or read; the next fold writes the one after.
  private var generation = 0
  /// The changes appended since the header was written.
  private var journalChanges = 0
  private var journalBytes = 0
  private var snapshotBytes = 0
  /// The journal is not a record of the changes since the snapshot: fold before appending.
  private var mustFold = true
  private var foldAt = minimumFoldBytes
  private let sync = DeferredSync()

  public init(path: String) { self.path = path }

  deinit {
    if journal >= 0 { Glibc.close(journal) }
    if journalHeader >= 0 { Glibc.close(journalHeader) }
  }

  // MARK: Reading

  /// The saved sessions (snapshot and journal), read without changing anything; none when there
  /// is no file.
  ///
  /// - Throws: When a file cannot be read at all, or was written by a newer version (what
  ///   ``read()`` reports as problems; a bad entry alone is skipped).
  public func load() throws(Failure) -> [Entry] {
    let reading = read()
    if let newer = reading.newer { throw Failure(description: newer) }
    if reading.entries.isEmpty, let problem = reading.problems.first {
      throw Failure(description: problem)
    }
    return reading.entries
  }

  /// Reads the snapshot and replays the journal over it, changing nothing on disk.
  public func read() -> Reading {
    var reading = Reading()
    var sessions = OrderedEntries()
    if let bytes = readFile(path, into: &reading) {
      readSnapshot(bytes, into: &sessions, &reading)
    }
    if reading.newer == nil {
      if let bytes = readFile(journalPath, into: &reading) {
        replayJournal(bytes, into: &sessions, &reading)
      } else if reading.generation > 0, !reading.spoiled.contains(journalPath) {
        reading.problems.append(
          "'\(journalPath)' is missing, but the snapshot has a journal (generation "
            + "\(reading.generation)): the changes made since the snapshot may be lost")
      }
    }
    if reading.newer != nil {
      reading.entries = []
    } else {
      reading.entries = sessions.entries
    }
    return reading
  }

  private func readFile(_ file: String, into reading: inout Reading) -> [UInt8]? {
    do {
      return try SafeFile.read(file)
    } catch {
      reading.problems.append("\(error.description)")
      reading.spoiled.append(file)
      return nil
    }
  }

  private func readSnapshot(
    _ bytes: [UInt8], into sessions: inout OrderedEntries, _ reading: inout Reading
  ) {
    guard case .object(let root)? = try? JSONParser.parse(bytes) else {
      let reason: String
      do {
        _ = try JSONParser.parse(bytes)
        reason = "it is not a JSON object"
      } catch {
        reason = "it is not valid JSON (\(error))"
      }
      reading.problems.append("'\(path)' cannot be read: \(reason)")
      reading.spoiled.append(path)
      return
    }
    guard case .int(let version)? = root["v"] else {
      reading.problems.append("'\(path)' cannot be read: it has no version (\"v\")")
      reading.spoiled.append(path)
      return
    }
    guard version <= Self.version else {
      reading.newer = Self.newerText(path, version)
      return
    }
    if case .int(let generation)? = root["journal"], generation > 0 {
      reading.generation = generation
    }
    guard version == Self.version, case .array(let items)? = root["sessions"] else {
      reading.problems.append(
        "'\(path)' cannot be read: "
          + (version == Self.version ? "it has no list of sessions" : "unknown version \(version)"))
      reading.spoiled.append(path)
      return
    }
    var dropped: [String] = []
    for (number, item) in items.enumerated() {
      switch Self.entry(item) {
      case .success(let entry):
        if sessions.contains(entry.name) {
          dropped.append("session \(number + 1) ('\(entry.name)'): the name is listed twice")
        } else {
          sessions.set(entry)
        }
      case .failure(let reason): dropped.append("session \(number + 1): \(reason.message)")
      }
    }
    if !dropped.isEmpty {
      reading.problems.append(Self.droppedText(dropped, in: path, unit: "session"))
      reading.spoiled.append(path)
    }
  }

  private func replayJournal(
    _ bytes: [UInt8], into sessions: inout OrderedEntries, _ reading: inout Reading
  ) {
    var dropped: [String] = []
    var start = 0
    var number = 0
    /// The header's generation and count, when the first line is one.
    var header: (generation: Int, lines: Int)?
    /// The number of the last numbered change read.
    var lastChange = 0
    var changes = 0
    while start < bytes.count {
      // A last line without its newline is a write the daemon died in: never answered, dropped.
      guard let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) else { break }
      number += 1
      let line = bytes[start..<end]
      start = end + 1
      if line.isEmpty { continue }
      reading.journalLines += 1
      guard case .object(let object)? = try? JSONParser.parse(Array(line)) else {
        dropped.append("line \(number): not a JSON object")
        continue
      }
      guard case .int(let version)? = object["v"] else {
        dropped.append("line \(number): no version (\"v\")")
        continue
      }
      if version > Self.version {
        reading.newer = Self.newerText(journalPath, version)
        return
      }
      if number == 1, case .int(let generation)? = object["journal"],
        case .int(let lines)? = object["lines"]
      {
        header = (generation, lines)
        continue
      }
      if case .int(let change)? = object["n"] {
        if change != lastChange + 1 {
          dropped.append(Self.gapText(line: number, change: change, after: lastChange))
        }
        lastChange = change
      }
      changes += 1
      switch (object["set"], object["remove"]) {
      case (let value?, nil):
        switch Self.entry(value) {
        case .success(let entry): sessions.set(entry)
        case .failure(let reason): dropped.append("line \(number): \(reason.message)")
        }
      case (nil, .string(let name)?):
        sessions.remove(name)
      default:
        dropped.append("line \(number): neither a \"set\" nor a \"remove\"")
      }
    }
    if let lost = lostLines(header: header, changes: changes, last: lastChange, reading) {
      dropped.append(lost)
    }
    if !dropped.isEmpty {
      reading.problems.append(Self.droppedText(dropped, in: journalPath, unit: "change"))
      reading.spoiled.append(journalPath)
    }
  }

  /// Why the journal holds fewer changes than it had, if it does: the snapshot names a journal
  /// and this one has no header (emptied, or cut before its first line), or the header counts
  /// more changes than are left (cut at a line boundary). A journal of an earlier generation is
  /// one folded into this snapshot already (a daemon stopped between the two steps); one of a
  /// later generation belongs to a newer snapshot than this one.
  private func lostLines(
    header: (generation: Int, lines: Int)?, changes: Int, last: Int, _ reading: Reading
  ) -> String? {
    guard reading.generation > 0 else { return nil }
    guard let header else {
      return changes == 0
        ? "the journal is empty, but the snapshot has a journal (generation "
          + "\(reading.generation)): the changes made since the snapshot may be lost"
        : "the journal has no header, but the snapshot has a journal (generation "
          + "\(reading.generation)): changes may be lost"
    }
    if header.generation > reading.generation {
      return "the journal is of generation \(header.generation), the snapshot of the earlier "
        + "\(reading.generation): the snapshot is not the one this journal follows"
    }
    guard header.generation == reading.generation, last < header.lines else { return nil }
    let missing = header.lines - last
    return "the journal's header counts \(header.lines) change\(header.lines == 1 ? "" : "s"), "
      + "the last one left is change \(last): \(missing) change\(missing == 1 ? " was" : "s were") "
      + "lost at its end"
  }

  static func gapText(line: Int, change: Int, after last: Int) -> String {
    guard change > last + 1 else {
      return
        "line \(line): change \(change) comes after change \(last): the journal's lines are out of order"
    }
    let missing =
      last + 1 == change - 1 ? "change \(last + 1) is" : "changes \(last + 1)–\(change - 1) are"
    return "line \(line): change \(change) comes after change \(last): \(missing) missing"
  }

  /// The members of a saved session: `status`'s configuration members after its name.
  private enum EntryKey {
    static let name = "name"
  }

  /// `{"name":"music","category":"playback","mode":"default","options":[…],"policy":"default"}`.
  static func entryJSON(_ entry: Entry) -> JSONValue {
    .object([
      EntryKey.name: .string(entry.name),
      JSONKey.Session.category: .string(entry.configuration.category.name),
      JSONKey.Session.mode: .string(entry.configuration.mode.name),
      JSONKey.Session.options: .strings(entry.configuration.options.names),
      JSONKey.Session.policy: .string(entry.configuration.policy.name),
    ])
  }

  /// ``entryJSON(_:)`` read back: one saved session, or why it cannot be one: its name obeys the
  /// protocol's rules (``Command/sessionNameProblem(_:)``), and its category, mode, options and
  /// policy exist.
  static func entry(_ value: JSONValue) -> Result<Entry, WireDecodingError> {
    do throws(WireDecodingError) {
      guard case .object(let item) = value else { throw WireDecodingError("not an object") }
      let name = try WireReader(object: item, path: "session").string(EntryKey.name)
      if let problem = Command.sessionNameProblem(name) { throw WireDecodingError(problem) }
      let session = WireReader(object: item, path: "'\(name)'")
      let options = try session.categoryOptions(JSONKey.Session.options)
      return .success(
        Entry(
          name: name,
          configuration: SessionConfiguration(
            category: try session.named(JSONKey.Session.category, Category.self),
            mode: try session.named(JSONKey.Session.mode, Mode.self), options: options,
            // Written since the route-sharing policy exists; older files have none.
            policy: session.has(JSONKey.Session.policy)
              ? try session.named(JSONKey.Session.policy, RouteSharingPolicy.self) : .default)))
    } catch {
      return .failure(error)
    }
  }

  static func newerText(_ file: String, _ version: Int) -> String {
    """
    '\(file)' was written by a newer version of sessionctl (state version \(version); this one \
    reads \(Self.version)): it is left as it is, and this daemon restores and saves no sessions. \
    Run the newer sessionctl daemon, or move the file away to start afresh with this one
    """
  }

  static func droppedText(_ dropped: [String], in file: String, unit: String) -> String {
    let listed = dropped.prefix(listedProblems).joined(separator: "; ")
    let more = dropped.count > listedProblems ? "; and \(dropped.count - listedProblems) more" : ""
    let count = "\(dropped.count) \(unit)\(dropped.count == 1 ? "" : "s")"
    return "\(count) in '\(file)' could not be read and \(dropped.count == 1 ? "was" : "were") "
      + "left out: \(listed)\(more)"
  }

  // MARK: Starting

  /// What ``open()`` found: the sessions to restore, and what went wrong, one sentence each (for
  /// the log, and `status` until the daemon stops).
  public struct Opened: Sendable {
    public var entries: [Entry]
    public var problems: [String]
  }

  /// Starts using the files: checks their folder (creating it, 0700, when missing), reads them,
  /// moves aside what could not be read, and opens the journal. After it, ``fold(_:)`` the
  /// sessions restored (``needsFold``), then ``record(_:all:)`` each change.
  public func open() -> Opened {
    let folder = SafeFile.folder(of: path)
    do {
      try PrivateFolder.prepare(folder, fixMode: false)
    } catch {
      let reason =
        "the state file's folder cannot be used, so no session is restored or saved: \(error)"
      frozen = reason
      loadProblems = [reason]
      return Opened(entries: [], problems: loadProblems)
    }
    SafeFile.removeTemporaries(of: path)
    var reading = read()
    if let newer = reading.newer {
      frozen = newer
      loadProblems = [newer]
      return Opened(entries: [], problems: loadProblems)
    }
    for (index, file) in reading.spoiled.enumerated() {
      do {
        let aside = try SafeFile.moveAside(file)
        reading.problems[index] += "; the file was moved aside, as it was, to '\(aside)'"
      } catch {
        // Never written over: what it holds stays there for a person to look at.
        let reason = """
          '\(file)' could not be read and cannot be moved aside (\(error)), so that it is not \
          written over, no change is saved; move it away yourself and restart the daemon
          """
        frozen = reason
        reading.problems.append(reason)
      }
    }
    loadProblems = reading.problems
    generation = reading.generation
    mustFold = true
    return Opened(entries: reading.entries, problems: reading.problems)
  }

  /// Whether nothing may be written (a newer version's files, an unsafe folder): every change
  /// is answered with why, and nothing more is logged.
  public var isFrozen: Bool { frozen != nil }

  /// Whether the files should be folded into a new snapshot before the next change (at
  /// start-up, after a failure).
  public var needsFold: Bool { mustFold && frozen == nil }

  // MARK: Writing

  /// Saves one change: appended to the journal (then folded into the snapshot when the journal
  /// has grown), or, when the journal is not usable, the whole of `all` written as a new
  /// snapshot. Returns nil when it is saved, else why not (the change is kept in memory, and
  /// saved with the next change that can be).
  public func record(_ change: Change, all: () -> [Entry]) -> String? {
    if let frozen { return frozen }
    if mustFold || journal < 0 { return fold(all()) }
    let line = Array((Self.journalLine(change, number: journalChanges + 1) + "\n").utf8)
    guard SafeFile.writeAll(journal, line) else {
      let failure = "cannot write '\(journalPath)': \(String(cString: strerror(errno)))"
      // No half line is left for the next one to join.
      _ = ftruncate(journal, off_t(journalBytes))
      mustFold = true
      lastFailure = failure
      return failure
    }
    journalBytes += line.count
    journalChanges += 1
    writeHeaderCount()
    lastFailure = nil
    sync.schedule(journal)
    if journalBytes >= foldAt {
      // The change is saved in the journal already; a fold that fails is tried again later.
      if fold(all()) != nil { foldAt = journalBytes * 2 }
    }
    return nil
  }

  /// Writes `entries` as the new snapshot and empties the journal; nil, or why it could not.
  @discardableResult
  public func fold(_ entries: [Entry]) -> String? {
    if let frozen { return frozen }
    let next = generation + 1
    let bytes = Self.snapshot(entries, generation: next)
    do {
      try SafeFile.replace(path, with: bytes, durable: true)
    } catch {
      lastFailure = error.description
      mustFold = true
      return error.description
    }
    generation = next
    snapshotBytes = bytes.count
    // The new journal, its header only, replaces the old one whole: a daemon killed in between
    // leaves the old journal, of an earlier generation, which replayed over the snapshot it was
    // folded into gives that snapshot.
    closeJournal()
    let header = Self.journalHeader(generation: next)
    do {
      try SafeFile.replace(journalPath, with: header, durable: true)
      journal = try SafeFile.openAppending(journalPath)
    } catch {
      // The snapshot holds everything; the next change tries again.
      closeJournal()
      lastFailure = nil
      mustFold = true
      return nil
    }
    journalHeader = Glibc.open(journalPath, O_WRONLY | O_NOFOLLOW | O_CLOEXEC)
    journalChanges = 0
    journalBytes = header.count
    foldAt = max(Self.minimumFoldBytes, snapshotBytes)
    mustFold = false
    lastFailure = nil
    return nil
  }

  /// Replaces the files with these sessions (a new snapshot and an empty journal).
  public func save(_ entries: [Entry]) throws(Failure) {
    if let failure = fold(entries) { throw Failure(description: failure) }
  }

  /// Flushes what was written to disk and closes the journal (a later change opens it again).
  public func close() {
    sync.stop()
    if journal >= 0 { _ = fdatasync(journal) }
    closeJournal()
  }

  private func closeJournal() {
    if journal >= 0 { Glibc.close(journal) }
    if journalHeader >= 0 { Glibc.close(journalHeader) }
    journal = -1
    journalHeader = -1
  }

  /// Rewrites the header's count of changes in place (the same number of bytes: the count is
  /// padded with spaces). A daemon killed before it leaves the count one short, which reads as
  /// nothing lost; only a count larger than the changes left does.
  private func writeHeaderCount() {
    guard journalHeader >= 0 else { return }
    let count = Self.paddedCount(journalChanges)
    let written = count.withUnsafeBytes { buffer -> Int in
      guard let base = buffer.baseAddress else { return -1 }
      return pwrite(journalHeader, base, buffer.count, off_t(headerCountOffset))
    }
    if written != count.count {
      // The lines are there all the same; a count left lower than them loses nothing.
      Glibc.close(journalHeader)
      journalHeader = -1
    }
  }

  /// What `status` says about the files: what went wrong at start-up, and why the last change
  /// could not be saved.
  public var problems: [String] {
    var problems = loadProblems
    if let lastFailure {
      problems.append(
        "the last change could not be saved (\(lastFailure)); the daemon's sessions as they are "
          + "now will not survive a restart until a change is saved")
    }
    return problems
  }

  // MARK: Formats

  static func snapshot(_ entries: [Entry], generation: Int) -> [UInt8] {
    let object: JSONObject = [
      "v": .int(version), "journal": .int(generation),
      "sessions": .array(entries.map(entryJSON)),
    ]
    return Array((object.serialized + "\n").utf8)
  }

  /// The journal's first line: `{"v":1,"journal":G,"lines":N}`, N padded with spaces to 20
  /// characters so that it is rewritten in place.
  static func journalHeader(generation: Int) -> [UInt8] {
    headerPrefix(generation) + paddedCount(0) + Array("}\n".utf8)
  }

  private static func headerPrefix(_ generation: Int) -> [UInt8] {
    Array(#"{"v":\#(version),"journal":\#(generation),"lines":"#.utf8)
  }

  /// Where the header's count starts: the prefix's length, which varies with the generation.
  private var headerCountOffset: Int { Self.headerPrefix(generation).count }

  static func paddedCount(_ count: Int) -> [UInt8] {
    let digits = Array(String(count).utf8)
    return digits + Array(repeating: UInt8(ascii: " "), count: max(0, 20 - digits.count))
  }

  static func journalLine(_ change: Change, number: Int) -> String {
    let object: JSONObject =
      switch change {
      case .set(let entry): ["v": .int(version), "n": .int(number), "set": entryJSON(entry)]
      case .remove(let name): ["v": .int(version), "n": .int(number), "remove": .string(name)]
      }
    return object.serialized
  }
}

/// Entries by name in creation order, for reading: a removal leaves a gap.
private struct OrderedEntries {
  private var order: [String?] = []
  private var slots: [String: (position: Int, entry: SessionStore.Entry)] = [:]

  func contains(_ name: String) -> Bool { slots[name] != nil }

  mutating func set(_ entry: SessionStore.Entry) {
    if let slot = slots[entry.name] {
      slots[entry.name] = (slot.position, entry)
    } else {
      slots[entry.name] = (order.count, entry)
      order.append(entry.name)
    }
  }

  mutating func remove(_ name: String) {
    guard let slot = slots.removeValue(forKey: name) else { return }
    order[slot.position] = nil
  }

  var entries: [SessionStore.Entry] {
    order.compactMap { name in name.flatMap { slots[$0]?.entry } }
  }
}
