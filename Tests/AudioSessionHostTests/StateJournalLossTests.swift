import AudioSession
import AudioSessionHost
import AudioSessionTestSupport
import AudioSessionWire
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A journal that lost lines is found and reported, never replayed as if whole: cut at a line
/// boundary, a line missing, emptied or removed (docs/protocol.md "The state file").
@Suite struct StateJournalLossTests {
  static func entry(_ name: String) -> SessionStore.Entry {
    SessionStore.Entry(
      name: name,
      configuration: SessionConfiguration(
        category: .playback, mode: .default, options: [], policy: .default))
  }

  /// A state file in a fresh folder with three sessions set and one removed through the
  /// journal: music, nav and voip set, then nav removed (changes 1 to 4).
  static func written() throws -> (folder: String, store: SessionStore) {
    let folder = try TemporaryFolder.make()
    let store = SessionStore(path: folder + "/sessions.json")
    _ = store.open()
    #expect(store.fold([]) == nil)
    var all: [SessionStore.Entry] = []
    for name in ["music", "nav", "voip"] {
      all.append(entry(name))
      #expect(store.record(.set(entry(name)), all: { all }) == nil)
    }
    all.removeAll { $0.name == "nav" }
    #expect(store.record(.remove("nav"), all: { all }) == nil)
    store.close()
    return (folder, store)
  }

  static func lines(_ path: String) throws -> [String] {
    try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
  }

  static func write(_ lines: [String], _ path: String) throws {
    try (lines.map { $0 + "\n" }.joined()).write(toFile: path, atomically: false, encoding: .utf8)
  }

  @Test("a whole journal reads with no problem (docs/protocol.md \"The state file\")")
  func wholeJournal_readsWithNoProblem() throws {
    let (folder, store) = try Self.written()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let reading = SessionStore(path: store.path).read()
    #expect(reading.problems == [])
    #expect(reading.entries.map(\.name) == ["music", "voip"])
    // The header, then four numbered changes.
    let lines = try Self.lines(store.journalPath)
    #expect(lines.count == 5)
    #expect(lines[0].hasPrefix(#"{"v":1,"journal":1,"lines":4 "#))
    #expect(lines[4] == #"{"v":1,"n":4,"remove":"nav"}"#)
  }

  @Test(
    "a journal cut at a line boundary is reported: the removed session does not come back silently (docs/protocol.md \"The state file\")"
  )
  func journalCutAtLineBoundary_isReported() throws {
    let (folder, store) = try Self.written()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try Self.write(Array(try Self.lines(store.journalPath).dropLast()), store.journalPath)
    let reading = SessionStore(path: store.path).read()
    #expect(
      reading.problems == [
        "1 change in '\(store.journalPath)' could not be read and was left out: the journal's "
          + "header counts 4 changes, the last one left is change 3: 1 change was lost at its end"
      ])
    #expect(reading.spoiled == [store.journalPath])
    // What is left is kept.
    #expect(reading.entries.map(\.name) == ["music", "nav", "voip"])
  }

  @Test("a line missing in the middle is reported by number (docs/protocol.md \"The state file\")")
  func journalLineMissing_isReported() throws {
    let (folder, store) = try Self.written()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    var lines = try Self.lines(store.journalPath)
    lines.remove(at: 2)
    try Self.write(lines, store.journalPath)
    let reading = SessionStore(path: store.path).read()
    #expect(
      reading.problems == [
        "1 change in '\(store.journalPath)' could not be read and was left out: line 3: change 3 "
          + "comes after change 1: change 2 is missing"
      ])
    #expect(reading.entries.map(\.name) == ["music", "voip"])
  }

  @Test(
    "an emptied journal, or one removed, is reported (docs/protocol.md \"The state file\")",
    arguments: ["emptied", "removed"])
  func journalEmptiedOrRemoved_isReported(how: String) throws {
    let (folder, store) = try Self.written()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    if how == "emptied" {
      try Self.write([], store.journalPath)
    } else {
      try FileManager.default.removeItem(atPath: store.journalPath)
    }
    let reading = SessionStore(path: store.path).read()
    let expected =
      how == "emptied"
      ? "1 change in '\(store.journalPath)' could not be read and was left out: the journal is "
        + "empty, but the snapshot has a journal (generation 1): the changes made since the "
        + "snapshot may be lost"
      : "'\(store.journalPath)' is missing, but the snapshot has a journal (generation 1): the "
        + "changes made since the snapshot may be lost"
    #expect(reading.problems == [expected])
    #expect(reading.spoiled == (how == "emptied" ? [store.journalPath] : []))
  }

  @Test(
    "a daemon killed between a change and its header's count loses nothing and reports nothing (docs/protocol.md \"The state file\")"
  )
  func headerCountOneShort_isNoProblem() throws {
    let (folder, store) = try Self.written()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    var lines = try Self.lines(store.journalPath)
    lines[0] = lines[0].replacingOccurrences(of: #""lines":4 "#, with: #""lines":3 "#)
    try Self.write(lines, store.journalPath)
    let reading = SessionStore(path: store.path).read()
    #expect(reading.problems == [])
    #expect(reading.entries.map(\.name) == ["music", "voip"])
  }

  @Test(
    "files of the earlier format (no generation, no header, no numbers) read as before (docs/protocol.md \"The state file\")"
  )
  func earlierFormat_readsAsBefore() throws {
    let folder = try TemporaryFolder.make()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/sessions.json"
    let entry =
      #"{"name":"music","category":"playback","mode":"default","options":[],"policy":"default"}"#
    try (#"{"v":1,"sessions":["# + entry + "]}\n").write(
      toFile: path, atomically: false, encoding: .utf8)
    try Self.write(
      [#"{"v":1,"set":"# + entry.replacingOccurrences(of: "music", with: "nav") + "}"],
      path + ".journal")
    let reading = SessionStore(path: path).read()
    #expect(reading.problems == [])
    #expect(reading.entries.map(\.name) == ["music", "nav"])
    // Even with its journal gone: the earlier format names none.
    try FileManager.default.removeItem(atPath: path + ".journal")
    #expect(SessionStore(path: path).read().problems == [])
  }

  @Test(
    "a daemon started on a journal that lost lines says so in status, and moves the journal aside (docs/protocol.md \"The state file\")"
  )
  func daemonOnCutJournal_reportsItInStatus() async throws {
    let (folder, store) = try Self.written()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try Self.write(Array(try Self.lines(store.journalPath).dropLast()), store.journalPath)
    let core = try await DaemonCore(
      policy: TestPolicies.policy(), backend: InMemoryAudioBackend(), stateFile: store.path,
      identity: DaemonCore.Identity(pid: getpid(), profile: "default"))
    let problems = await core.status().stateFile?.problems ?? []
    #expect(problems.count == 1)
    #expect(
      problems.first?.contains("1 change was lost at its end; the file was moved aside") == true)
    await core.shutdown()
    // The next daemon finds the files whole again.
    #expect(SessionStore(path: store.path).read().problems == [])
  }
}
