import Testing

@testable import AudioSession

/// `availableInputs` in the status and iOS 26's `availableInputsChangeNotification`
/// (docs/avaudiosession.md §6.5, §7.6; docs/engine.md "Rules").
@Suite struct AvailableInputsTests {
  @Test(
    "a session's available inputs are those its category may use, none unless it records (docs/avaudiosession.md §7.6)",
    arguments: [
      (Category.playback, [String]()), (.ambient, []), (.record, ["builtInMic", "headsetMic"]),
      (.playAndRecord, ["builtInMic", "headsetMic"]),
    ])
  func status_availableInputs_followCategory(category: Category, expected: [String]) throws {
    var h = try EngineHarness()
    h.plug("headset")
    h.set("app", category)
    #expect(h.status("app").availableInputs.map(\.portType.name) == expected)
  }

  @Test(
    "plugging and unplugging an input device tells each recording session, after its route change; playback sessions hear nothing (docs/avaudiosession.md §6.5)"
  )
  func plugUnplug_inputDevice_postsAvailableInputsChange() throws {
    var h = try EngineHarness()
    h.set("memo", .record)
    h.set("voip", .playAndRecord)
    h.set("music", .playback)
    let plugged = h.plug("headset")
    #expect(
      plugged.lines.filter { $0.hasSuffix("availableInputsChange") } == [
        "memo: availableInputsChange", "voip: availableInputsChange",
      ])
    // After the session's own route change.
    let memo = plugged.lines.filter { $0.hasPrefix("memo:") }
    #expect(memo.last == "memo: availableInputsChange" && memo.count == 2)
    let unplugged = h.unplug("headset-1")
    #expect(unplugged.lines.filter { $0.hasSuffix("availableInputsChange") }.count == 2)
    #expect(!unplugged.lines.contains { $0.hasPrefix("music: availableInputsChange") })
  }

  @Test(
    "an output-only device changes no session's inputs: no availableInputsChange (docs/avaudiosession.md §6.5)"
  )
  func plug_outputOnly_postsNothing() throws {
    var h = try EngineHarness()
    h.set("memo", .record)
    #expect(!h.plug("headphones").lines.contains { $0.hasSuffix("availableInputsChange") })
    #expect(!h.unplug("headphones-1").lines.contains { $0.hasSuffix("availableInputsChange") })
  }
}
