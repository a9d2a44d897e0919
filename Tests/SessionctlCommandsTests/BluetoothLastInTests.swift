import AudioSession
import AudioSessionScenario
import AudioSessionTestSupport
import Testing

@testable import SessionctlCommands

/// HFP and A2DP on separate hardware follow "last in wins" (docs/avaudiosession.md §4.4
/// allowBluetoothA2DP, §7.3): an A2DP device connected after an HFP-only
/// headset takes the output, the input stays on the headset; one device with both keeps HFP.
@Suite struct BluetoothLastInTests {
  /// The route `voip route` answers after the steps, as `out …; in …`.
  static func route(after steps: [String]) async throws -> String {
    let yaml =
      "name: t\nsteps:\n"
      + ([
        "voip set playAndRecord --mode voiceChat --options allowBluetoothHFP,allowBluetoothA2DP",
        "voip activate",
      ] + steps + ["voip route"]).map { "  - \($0)\n" }.joined()
    let scenario = try Scenario(yaml: yaml, file: "t.yaml")
    let plan = try StepParser.plan(scenario, catalog: try TestPolicies.table().devices)
    let entries = try await plan.run(
      policy: try TestPolicies.policy(), backend: InMemoryAudioBackend())
    guard case .route(_, let route)? = entries.last?.result.reply else { return "?" }
    return TranscriptText.route(route)
  }

  @Test(
    "an A2DP device plugged after an HFP headset takes the output; the input stays on the headset (§4.4)"
  )
  func a2dpAfterHFP() async throws {
    #expect(
      try await Self.route(after: ["simulate plug bluetoothHFP", "simulate plug bluetoothA2DP"])
        == "out bluetoothA2DP; in bluetoothHFP")
  }

  @Test("an HFP headset plugged after an A2DP device takes both directions (§4.4)")
  func hfpAfterA2DP() async throws {
    #expect(
      try await Self.route(after: ["simulate plug bluetoothA2DP", "simulate plug bluetoothHFP"])
        == "out bluetoothHFP; in bluetoothHFP")
  }

  @Test("the A2DP device goes: the output returns to the headset (§7.3)")
  func a2dpGoes() async throws {
    #expect(
      try await Self.route(after: [
        "simulate plug bluetoothHFP", "simulate plug bluetoothA2DP",
        "simulate unplug bluetoothA2DP",
      ]) == "out bluetoothHFP; in bluetoothHFP")
  }

  @Test(
    "an app that prefers the headset's input keeps its output on the headset too (HFP coupling, §4.4 allowBluetoothHFP)"
  )
  func preferredHFPInputCouplesOutput() throws {
    let policy = try TestPolicies.policy()
    let catalog = policy.table.devices
    var devices = catalog.defaultDevices.compactMap { name in
      catalog.presets[name].map { Device(preset: $0, uid: $0.uid ?? name) }
    }
    let hfp = try #require(catalog.presets["bluetoothHFP"])
    let a2dp = try #require(catalog.presets["bluetoothA2DP"])
    devices += [
      Device(preset: hfp, uid: "bluetoothHFP-1"), Device(preset: a2dp, uid: "bluetoothA2DP-1"),
    ]
    var engine = Engine(policy: policy, devices: devices)
    for input: EngineInput in [
      .createSession("voip"),
      .setCategory(
        session: "voip", category: .playAndRecord, mode: .voiceChat,
        options: [.allowBluetoothHFP, .allowBluetoothA2DP]),
      .setActive(session: "voip", active: true, options: []),
    ] {
      #expect(engine.handle(input).error == nil)
    }
    #expect(
      TranscriptText.route(try #require(engine.session(named: "voip")).route)
        == "out bluetoothA2DP; in bluetoothHFP")
    #expect(
      engine.handle(.setPreferredInput(session: "voip", uid: "bluetoothHFP-1:bluetoothHFP")).error
        == nil)
    #expect(
      TranscriptText.route(try #require(engine.session(named: "voip")).route)
        == "out bluetoothHFP; in bluetoothHFP")
  }

  @Test(
    "preferring an input off the HFP headset takes the output off it too; HFP carries both directions or neither (docs/avaudiosession.md §7.6)"
  )
  func preferredInputOffHFP() async throws {
    #expect(
      try await Self.route(after: [
        "simulate plug headset", "simulate plug bluetoothHFP", "voip prefer input headsetMic",
      ]) == "out headphones; in headsetMic")
    #expect(
      try await Self.route(after: ["simulate plug bluetoothHFP", "voip prefer input builtInMic"])
        == "out builtInReceiver; in builtInMic")
    // Without a preference, HFP keeps both.
    #expect(
      try await Self.route(after: ["simulate plug headset", "simulate plug bluetoothHFP"])
        == "out bluetoothHFP; in bluetoothHFP")
  }
}
