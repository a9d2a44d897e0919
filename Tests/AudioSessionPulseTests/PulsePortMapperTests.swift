import AudioSession
import AudioSessionPulse
import AudioSessionPulseTestSupport
import AudioSessionSystem
import Testing

/// One synthetic device and the rule of docs/pulseaudio.md §4 that must decide it.
struct PulseMappingCase: Sendable, CustomTestStringConvertible {
  var label: String
  var device: PulseDeviceSnapshot
  /// The deciding rule's name in policies/pulse.json; nil for the fallback.
  var rule: String?
  var outcome: PulsePortRules.Outcome

  var testDescription: String { "\(label) → \(outcome) (\(rule ?? "fallback"))" }
}

extension PulseAudioTests {
  /// Every row of docs/pulseaudio.md §4 against the shipped policies/pulse.json.
  @Suite struct PulsePortMapperTests {
    static let bluetooth = "bluetooth"

    static let rows: [PulseMappingCase] = [
      // Row 0: monitors and our own devices are not routes.
      .init(
        label: "row 0: monitor source", device: .source(monitorOf: 3), rule: "ignoreMonitor",
        outcome: .ignore),
      .init(
        label: "row 0: device.class=monitor", device: .source(["device.class": "monitor"]),
        rule: "ignoreMonitor", outcome: .ignore),
      .init(
        label: "row 0: our internal sink", device: .sink(["audiosession.internal": "1"]),
        rule: "ignoreInternal", outcome: .ignore),
      // Row 0: a sink that loops its audio on to a device is a route, not a
      // device (docs/pulseaudio.md §2.2; the properties as WirePlumber 0.5.8 gives them).
      .init(
        label: "row 0: WirePlumber 0.5's role sink",
        device: .sink([
          "policy.role-based.target": "true", "policy.role-based.priority": "10",
          "device.intended_roles": #"[ "Music", "Movie", "Game", "Multimedia" ]"#,
          "node.link-group": "loopback-6003-15", "node.virtual": "true",
          "media.class": "Audio/Sink",
        ]),
        rule: "ignoreLoopbacks", outcome: .ignore),
      .init(
        label: "row 0: a loopback's virtual sink",
        device: .sink(["node.virtual": "true", "node.link-group": "loopback-7-1"]),
        rule: "ignoreLoopbacks", outcome: .ignore),
      // Row 0: WirePlumber's placeholder output stands for the built-in speaker.
      .init(
        label: "row 0: pipewire's auto_null",
        device: .sink([
          "node.name": "auto_null", "factory.name": "support.null-audio-sink",
          "node.virtual": "true",
        ]),
        rule: "placeholder", outcome: .placeholder),
      .init(
        label: "row 0: a null sink someone loads on pipewire-pulse is a device",
        device: .sink(["node.name": "usercans", "factory.name": "support.null-audio-sink"]),
        rule: nil, outcome: .port(.builtInSpeaker)),
      // Row 1: AirPlay (RAOP).
      .init(
        label: "row 1: raop driver", device: .sink(driver: "module-raop-sink.c"),
        rule: "airPlay", outcome: .port(.airPlay)),
      .init(
        label: "row 1: raop card", device: .sink(card: "raop_client.127.0.0.1"),
        rule: "airPlay", outcome: .port(.airPlay)),
      .init(
        label: "row 1: network port", device: .sink(port: .network, portName: "network-output"),
        rule: "airPlay", outcome: .port(.airPlay)),
      .init(
        label: "row 1: network flag", device: .sink(flags: [.network, .hardwareMute]),
        rule: "airPlay", outcome: .port(.airPlay)),
      .init(
        label: "row 1: PipeWire raop.* props", device: .sink(["raop.ip": "10.0.0.2"]),
        rule: "airPlay", outcome: .port(.airPlay)),
      // Row 2: Bluetooth LE Audio.
      .init(
        label: "row 2: bap profile",
        device: .sink(["device.bus": bluetooth, "bluetooth.protocol": "bap_sink"]),
        rule: "bluetoothLE", outcome: .port(.bluetoothLE)),
      .init(
        label: "row 2: PipeWire bap-duplex",
        device: .source(["device.bus": bluetooth, "api.bluez5.profile": "bap-duplex"]),
        rule: "bluetoothLE", outcome: .port(.bluetoothLE)),
      // Row 3: HFP, sink and mic.
      .init(
        label: "row 3: HFP sink",
        device: .sink(["device.bus": bluetooth, "bluetooth.protocol": "headset_head_unit"]),
        rule: "bluetoothHFP", outcome: .port(.bluetoothHFP)),
      .init(
        label: "row 3: HFP mic (audio gateway)",
        device: .source(["device.bus": bluetooth, "bluetooth.protocol": "handsfree_audio_gateway"]),
        rule: "bluetoothHFP", outcome: .port(.bluetoothHFP)),
      .init(
        label: "row 3: PipeWire headset-head-unit",
        device: .sink(["device.bus": bluetooth, "api.bluez5.profile": "headset-head-unit-msbc"]),
        rule: "bluetoothHFP", outcome: .port(.bluetoothHFP)),
      // Row 4: any other Bluetooth, whatever its form factor or port type.
      .init(
        label: "row 4: A2DP sink",
        device: .sink(["device.bus": bluetooth, "bluetooth.protocol": "a2dp_sink"]),
        rule: "bluetoothA2DP", outcome: .port(.bluetoothA2DP)),
      .init(
        label: "row 4: BT car kit, no profile",
        device: .sink(["device.bus": bluetooth, "device.form_factor": "car"], port: .car),
        rule: "bluetoothA2DP", outcome: .port(.bluetoothA2DP)),
      .init(
        label: "row 4: BT port typed headphones by class of device",
        device: .sink(["device.bus": bluetooth], port: .headphones),
        rule: "bluetoothA2DP", outcome: .port(.bluetoothA2DP)),
      // Row 5: car audio off Bluetooth.
      .init(
        label: "row 5: car port", device: .sink(port: .car), rule: "carAudio",
        outcome: .port(.carAudio)),
      .init(
        label: "row 5: car form factor on usb",
        device: .sink(["device.form_factor": "car", "device.bus": "usb"]),
        rule: "carAudio", outcome: .port(.carAudio)),
      // Row 6: HDMI and relatives.
      .init(
        label: "row 6: hdmi port", device: .sink(port: .hdmi), rule: "HDMI",
        outcome: .port(.HDMI)),
      .init(
        label: "row 6: hdmi-output name, unknown type",
        device: .sink(port: .unknown, portName: "hdmi-output-1"), rule: "HDMI",
        outcome: .port(.HDMI)),
      .init(label: "row 6: tv port", device: .sink(port: .tv), rule: "HDMI", outcome: .port(.HDMI)),
      .init(
        label: "row 6: video port", device: .sink(port: .video), rule: "HDMI",
        outcome: .port(.HDMI)),
      .init(
        label: "row 6: simulated HDMI (audiosession.port_name)",
        device: .sink([
          "device.form_factor": "tv", "device.bus": "pci",
          "audiosession.port_name": "hdmi-output-0",
        ]), rule: "HDMI", outcome: .port(.HDMI)),
      // Row 7: USB.
      .init(
        label: "row 7: usb bus", device: .sink(["device.bus": "usb"]), rule: "usbAudio",
        outcome: .port(.usbAudio)),
      .init(
        label: "row 7: usb headset mic",
        device: .source(["device.bus": "usb", "device.form_factor": "headset"]),
        rule: "usbAudio", outcome: .port(.usbAudio)),
      .init(
        label: "row 7: usb port", device: .source(port: .usb), rule: "usbAudio",
        outcome: .port(.usbAudio)),
      // Rows 8-9: wired headphones and headset output.
      .init(
        label: "row 8: headphones port",
        device: .sink(
          ["device.bus": "pci"], port: .headphones,
          portName: "analog-output-headphones"),
        rule: "headphones", outcome: .port(.headphones)),
      .init(
        label: "row 8: headphone form factor",
        device: .sink(["device.form_factor": "headphone", "device.bus": "pci"]),
        rule: "headphones", outcome: .port(.headphones)),
      .init(
        label: "row 9: headset port, output", device: .sink(port: .headset),
        rule: "headsetOutput", outcome: .port(.headphones)),
      .init(
        label: "row 9: headset form factor, output",
        device: .sink(["device.form_factor": "headset"]), rule: "headsetOutput",
        outcome: .port(.headphones)),
      // Row 10: headset mic.
      .init(
        label: "row 10: headset port, input",
        device: .source(port: .headset, portName: "analog-input-microphone-headset"),
        rule: "headsetMic", outcome: .port(.headsetMic)),
      .init(
        label: "row 10: headset form factor, input",
        device: .source(["device.form_factor": "headset", "device.bus": "pci"]),
        rule: "headsetMic", outcome: .port(.headsetMic)),
      // Row 11: receiver.
      .init(
        label: "row 11: earpiece port", device: .sink(port: .earpiece), rule: "builtInReceiver",
        outcome: .port(.builtInReceiver)),
      .init(
        label: "row 11: handset port", device: .sink(port: .handset), rule: "builtInReceiver",
        outcome: .port(.builtInReceiver)),
      .init(
        label: "row 11: handset form factor", device: .sink(["device.form_factor": "handset"]),
        rule: "builtInReceiver", outcome: .port(.builtInReceiver)),
      // Row 12: speaker.
      .init(
        label: "row 12: speaker port", device: .sink(port: .speaker), rule: "builtInSpeaker",
        outcome: .port(.builtInSpeaker)),
      .init(
        label: "row 12: internal form factor",
        device: .sink(["device.form_factor": "internal"]), rule: "builtInSpeaker",
        outcome: .port(.builtInSpeaker)),
      .init(
        label: "row 12: speaker form factor, pci",
        device: .sink(["device.form_factor": "speaker", "device.bus": "pci"]),
        rule: "builtInSpeaker", outcome: .port(.builtInSpeaker)),
      // Row 13: built-in mic.
      .init(
        label: "row 13: mic port, internal",
        device: .source(["device.form_factor": "internal"], port: .mic), rule: "builtInMic",
        outcome: .port(.builtInMic)),
      .init(
        label: "row 13: *-microphone-internal port name",
        device: .source(port: .unknown, portName: "analog-input-microphone-internal"),
        rule: "builtInMic", outcome: .port(.builtInMic)),
      .init(
        label: "row 13: microphone form factor",
        device: .source(["device.form_factor": "microphone"]), rule: "builtInMic",
        outcome: .port(.builtInMic)),
      // Rows 14-15: line.
      .init(
        label: "row 14: line out", device: .sink(port: .line, portName: "analog-output-lineout"),
        rule: "lineOut", outcome: .port(.lineOut)),
      .init(
        label: "row 14: S/PDIF out", device: .sink(port: .spdif), rule: "lineOut",
        outcome: .port(.lineOut)),
      .init(
        label: "row 14: aux out", device: .sink(port: .aux), rule: "lineOut",
        outcome: .port(.lineOut)),
      .init(
        label: "row 14: simulated line out (audiosession.port_name)",
        device: .sink(["device.bus": "pci", "audiosession.port_name": "analog-output-lineout"]),
        rule: "lineOut", outcome: .port(.lineOut)),
      .init(
        label: "row 15: line in", device: .source(port: .line, portName: "analog-input-linein"),
        rule: "lineIn", outcome: .port(.lineIn)),
      .init(
        label: "row 15: radio in", device: .source(port: .radio), rule: "lineIn",
        outcome: .port(.lineIn)),
      .init(
        label: "row 15: simulated line in (audiosession.port_name)",
        device: .source(["device.bus": "pci", "audiosession.port_name": "analog-input-linein"]),
        rule: "lineIn", outcome: .port(.lineIn)),
      // Row 16: fallback, including odd and missing properties.
      .init(
        label: "row 16: bare sink", device: .sink(), rule: nil, outcome: .port(.builtInSpeaker)),
      .init(
        label: "row 16: bare source", device: .source(), rule: nil, outcome: .port(.builtInMic)),
      .init(
        label: "row 16: odd form factor and empty bus",
        device: .sink(["device.form_factor": "webcam", "device.bus": ""]), rule: nil,
        outcome: .port(.builtInSpeaker)),
      .init(
        label: "row 16: headphones port on a source",
        device: .source(port: .headphones), rule: nil, outcome: .port(.builtInMic)),
      .init(
        label: "row 16: class monitor spelled differently",
        device: .source(["device.class": "Monitor"]), rule: nil, outcome: .port(.builtInMic)),
      .init(
        label: "row 16: mic port without internal form factor", device: .source(port: .mic),
        rule: nil, outcome: .port(.builtInMic)),
    ]

    @Test(
      "each row of the mapping table decides its synthetic device (docs/pulseaudio.md §4)",
      arguments: rows)
    func match_syntheticDevice_decidedByItsRow(_ row: PulseMappingCase) throws {
      let rules = try PulseTestPolicies.rules()
      let match = PulsePortMapper.match(row.device, rules: rules)
      #expect(match == PulsePortMapper.Match(rule: row.rule, outcome: row.outcome))
    }

    @Test("every rule of policies/pulse.json is exercised by a table row (docs/pulseaudio.md §4)")
    func rows_shippedRules_allExercised() throws {
      let rules = try PulseTestPolicies.rules()
      let exercised = Set(Self.rows.compactMap(\.rule))
      #expect(Set(rules.rules.map(\.name)) == exercised)
    }

    // docs/pulseaudio.md §4 row 16
    @Test("an active port name that is not among the ports counts as no port")
    func match_activePortMissingFromPorts_fallsBack() throws {
      let rules = try PulseTestPolicies.rules()
      var device = PulseDeviceSnapshot.sink(port: .headphones)
      device.activePortName = "not-listed"
      #expect(
        PulsePortMapper.match(device, rules: rules)
          == .init(rule: nil, outcome: .port(.builtInSpeaker)))
    }

    // docs/pulseaudio.md §4 notes (port UID: sink name + port name; name: description)
    @Test("a route port is named by the description, identified by device and port name")
    func port_deviceWithActivePort_usesNamePlusPortAsUID() throws {
      let rules = try PulseTestPolicies.rules()
      var device = PulseDeviceSnapshot.sink(port: .headphones, portName: "analog-output-headphones")
      device.name = "alsa_output.pci-0000_00_1f.3.analog-stereo"
      device.deviceDescription = "Built-in Audio Analog Stereo"
      #expect(
        PulsePortMapper.port(for: device, rules: rules)
          == DevicePort(
            type: .headphones, direction: .output, name: "Built-in Audio Analog Stereo",
            uid: "alsa_output.pci-0000_00_1f.3.analog-stereo:analog-output-headphones"))
    }

    @Test(
      "glob patterns: * spans any run, ? one character, the rest is literal (pulse.json schema)",
      arguments: [
        ("raop_client.*", "raop_client.127.0.0.1", true), ("raop_client.*", "raop_client.", true),
        ("raop_client.*", "raop_client", false),
        ("*-microphone-internal", "analog-input-microphone-internal", true),
        ("*-microphone-internal", "analog-input-microphone-headset", false),
        ("hdmi-output-?", "hdmi-output-1", true),
        ("hdmi-output-?", "hdmi-output-10", false), ("*a*b", "xaxxb", true), ("*a", "*ba", true),
        ("", "", true), ("", "x", false), ("**", "", true), ("a.b", "aXb", false),
      ])
    func glob_pattern_matchesAsDocumented(_ pattern: String, _ text: String, _ expected: Bool) {
      #expect(PulsePortMapper.glob(pattern, matches: text) == expected)
    }
  }
}
