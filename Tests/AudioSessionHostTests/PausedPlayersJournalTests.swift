import AudioSessionArbiter
import Foundation
import Testing

@testable import AudioSessionHost

/// The journal of the players the daemon paused keeps when each was paused, so that the next
/// daemon plays the latest first (docs/mpris.md "A daemon that stops").
@Suite struct PausedPlayersJournalTests {
  static func folder() throws -> String {
    let path = NSTemporaryDirectory() + "journal-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    return path
  }

  @Test("the order of the pauses is written and read back (docs/mpris.md \"A daemon that stops\")")
  func order_roundTrips() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/paused-players.json"
    var journal = PausedPlayersJournal(path: path)
    let entries: Set<PausedPlayer> = [
      PausedPlayer(bus: "org.mpris.MediaPlayer2.mpv", pid: 4711, order: 3),
      PausedPlayer(bus: "org.mpris.MediaPlayer2.firefox.instance1", pid: nil, order: 7),
    ]
    try journal.store(entries)
    var next = PausedPlayersJournal(path: path)
    let read = try next.load()
    #expect(read == entries)
    #expect(
      Dictionary(uniqueKeysWithValues: read.map { ($0.bus, $0.order) }) == [
        "org.mpris.MediaPlayer2.mpv": 3, "org.mpris.MediaPlayer2.firefox.instance1": 7,
      ])
  }

  @Test(
    "an older daemon's journal, without order, and a wrong order read as no known order (docs/mpris.md \"A daemon that stops\")"
  )
  func missingOrWrongOrder_readsAsZero() throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/paused-players.json"
    let text =
      #"{"v":1,"players":[{"bus":"a.mpv","pid":1},{"bus":"b.vlc","pid":2,"order":-4},{"bus":"c.x","pid":3,"order":"9"}]}"#
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    var journal = PausedPlayersJournal(path: path)
    let read = try journal.load()
    #expect(read.count == 3)
    #expect(read.allSatisfy { $0.order == 0 })
  }
}
