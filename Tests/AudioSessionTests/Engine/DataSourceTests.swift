import AudioSessionTestSupport
import Testing

@testable import AudioSession

/// The built-in mic's data sources and their polar patterns (docs/avaudiosession.md §7.1;
/// policies/devices.json `hardware.dataSources`, `hardware.polarPatternChannels`).
@Suite("Data sources and polar patterns")
struct DataSourceTests {
  @Test(
    "the built-in mic offers Bottom, Front and Back, with iOS's locations, orientations and patterns; stereo on Bottom only (docs/avaudiosession.md §7.1)"
  )
  func builtInMic_offersIOSDataSources() throws {
    var h = try EngineHarness()
    h.set("memo", .record)
    let status = h.status("memo")
    #expect(status.inputDataSources == ["Bottom", "Front", "Back"])
    #expect(status.inputDataSource == "Bottom" && status.inputPolarPattern == .omnidirectional)
    let details = status.inputDataSourceDetails
    #expect(details.map(\.location) == [.lower, .upper, .upper])
    #expect(details.map(\.orientation) == [.bottom, .front, .back])
    #expect(details[0].supportedPolarPatterns == [.omnidirectional, .stereo])
    #expect(details[1].supportedPolarPatterns == [.omnidirectional, .cardioid, .subcardioid])
    #expect(details.map(\.selectedPolarPattern) == [.omnidirectional, .cardioid, .cardioid])
    #expect(details.allSatisfy { $0.preferredPolarPattern == nil })
    #expect(details.map(\.selected) == [true, false, false])
    #expect(status.hardware.inputNumberOfChannels == 1)
  }

  @Test(
    "stereo on the selected Bottom source is a routeConfigurationChange and gives the input two channels; a preference on an unselected source waits for it (docs/avaudiosession.md §7.1)"
  )
  func stereo_onSelectedSource_reconfiguresWithTwoChannels() throws {
    var h = try EngineHarness()
    h.set("memo", .record)
    h.activate("memo")
    let stereo = h.run(.setPolarPattern(session: "memo", dataSource: "Bottom", .stereo))
    #expect(stereo.error == nil)
    #expect(stereo.lines.count == 1 && stereo.lines[0].contains("routeConfigurationChange"))
    #expect(h.status("memo").inputPolarPattern == .stereo)
    #expect(h.status("memo").hardware.inputNumberOfChannels == 2)
    #expect(h.engine.maximumChannels(try h.engine.id("memo"), .input) == 2)
    // The same pattern again changes nothing.
    #expect(h.run(.setPolarPattern(session: "memo", dataSource: "Bottom", .stereo)).lines.isEmpty)
    // Back is not selected: its preference is kept, silently.
    let back = h.run(.setPolarPattern(session: "memo", dataSource: "Back", .subcardioid))
    #expect(back.error == nil && back.lines.isEmpty)
    h.run(.setDataSource(session: "memo", "Back"))
    #expect(h.status("memo").inputPolarPattern == .subcardioid)
    #expect(h.status("memo").hardware.inputNumberOfChannels == 1)
    // Back to Bottom: its stereo preference holds; nil clears it.
    h.run(.setDataSource(session: "memo", "Bottom"))
    #expect(h.status("memo").hardware.inputNumberOfChannels == 2)
    h.run(.setPolarPattern(session: "memo", dataSource: "Bottom", nil))
    #expect(h.status("memo").inputPolarPattern == .omnidirectional)
    #expect(h.status("memo").hardware.inputNumberOfChannels == 1)
  }

  @Test(
    "a pattern a source does not take, an unknown source and a session without input are badParam, saying what is valid, and change nothing (docs/avaudiosession.md §7.1)"
  )
  func badPatterns_areBadParam() throws {
    var h = try EngineHarness()
    h.set("memo", .record)
    let before = h.engine.status()
    let front = h.run(.setPolarPattern(session: "memo", dataSource: "Front", .stereo))
    #expect(front.error?.code == .badParam)
    #expect(
      front.error?.message
        == "the data source 'Front' of builtInMic cannot take the polar pattern stereo: it "
        + "supports omnidirectional, cardioid, subcardioid")
    let unknown = h.run(.setPolarPattern(session: "memo", dataSource: "Top", .cardioid))
    #expect(
      unknown.error?.message
        == "unknown data source 'Top' of builtInMic; valid: Bottom, Front, Back")
    #expect(h.engine.status() == before)
    h.set("music", .playback)
    #expect(
      h.run(.setPolarPattern(session: "music", dataSource: "Bottom", .stereo)).error?.code
        == .badParam)
  }

  @Test(
    "on a mono built-in mic stereo is not offered, and asking for it says how many channels it needs (policies/README.md devices.json)"
  )
  func monoMic_offersNoStereo() throws {
    var table = try TestPolicies.table()
    table.devices.hardware.channels[.builtInMic] = 1
    let policy = try Policy(table: table, profile: table.defaultProfile)
    var h = try EngineHarness()
    h.engine = Engine(
      policy: policy,
      devices: ["builtInSpeaker", "builtInReceiver", "builtInMic"].compactMap { name in
        table.devices.presets[name].map { Device(preset: $0, uid: $0.uid ?? name) }
      })
    h.set("memo", .record)
    #expect(h.status("memo").inputDataSourceDetails[0].supportedPolarPatterns == [.omnidirectional])
    let refused = h.run(.setPolarPattern(session: "memo", dataSource: "Bottom", .stereo))
    #expect(
      refused.error?.message
        == "the data source 'Bottom' of builtInMic cannot take the polar pattern stereo: it "
        + "supports omnidirectional (stereo needs 2 channels; builtInMic has 1)")
  }
}
