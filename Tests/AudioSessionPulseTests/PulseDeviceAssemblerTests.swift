import AudioSession
import AudioSessionPulse
import AudioSessionPulseTestSupport
import AudioSessionSystem
import AudioSessionTestSupport
import Testing

extension PulseAudioTests {
  /// How sinks and sources become the engine's devices, and jack plugs route changes: recorded
  /// and synthetic snapshots, since port availability cannot be produced without sound hardware
  /// (docs/pulseaudio.md §1.4, §4).
  @Suite struct PulseDeviceAssemblerTests {
    static func assembler(owner: String? = nil) throws -> PulseDeviceAssembler {
      PulseDeviceAssembler(
        rules: try PulseTestPolicies.rules(), catalog: try TestPolicies.table().devices,
        owner: owner)
    }

    /// A laptop's analog card as PulseAudio 16 reports it: speaker and headphone jack on the
    /// sink, internal mic and headset-mic jack on the source.
    static func laptop(headphones: PulsePortAvailability) -> [PulseDeviceSnapshot] {
      let card = "alsa_card.pci-0000_00_1f.3"
      return [
        PulseDeviceSnapshot(
          direction: .output, index: 0, name: "alsa_output.pci-0000_00_1f.3.analog-stereo",
          deviceDescription: "Built-in Audio Analog Stereo", driver: "module-alsa-card.c",
          cardIndex: 0, cardName: card, flags: [.hardware],
          properties: [
            "device.bus": "pci", "device.form_factor": "internal", "device.class": "sound",
          ],
          ports: [
            PulsePort(name: "analog-output-speaker", type: .speaker, availability: .unknown),
            PulsePort(
              name: "analog-output-headphones", type: .headphones, availability: headphones),
          ],
          activePortName: headphones == .yes
            ? "analog-output-headphones" : "analog-output-speaker"),
        PulseDeviceSnapshot(
          direction: .input, index: 0, name: "alsa_output.pci-0000_00_1f.3.analog-stereo.monitor",
          driver: "module-alsa-card.c", properties: ["device.class": "monitor"], monitorOfSink: 0),
        PulseDeviceSnapshot(
          direction: .input, index: 1, name: "alsa_input.pci-0000_00_1f.3.analog-stereo",
          deviceDescription: "Built-in Audio Analog Stereo", driver: "module-alsa-card.c",
          cardIndex: 0, cardName: card, flags: [.hardware],
          properties: [
            "device.bus": "pci", "device.form_factor": "internal", "device.class": "sound",
          ],
          ports: [
            PulsePort(name: "analog-input-internal-mic", type: .mic, availability: .unknown),
            PulsePort(
              name: "analog-input-headset-mic", type: .headset, availability: headphones),
          ],
          activePortName: "analog-input-internal-mic"),
      ]
    }

    static func state(_ devices: [Device]) -> PulseSystemState {
      PulseSystemState(connected: true, connection: 1, devices: devices)
    }

    // docs/pulseaudio.md §1.4, §4 rows 8, 10, 12, 13: one device per port not known unplugged
    @Test("a laptop card: each usable jack is a device of its own, mapped by its port type")
    func assemble_laptopCard_onePortPerDevice() throws {
      let unplugged = try Self.assembler().assemble(Self.laptop(headphones: .no)).map(\.device)
      #expect(unplugged.flatMap(\.ports).map(\.type) == [.builtInSpeaker, .builtInMic])
      let plugged = try Self.assembler().assemble(Self.laptop(headphones: .yes)).map(\.device)
      #expect(
        Set(plugged.flatMap(\.ports).map(\.type))
          == [.builtInSpeaker, .headphones, .builtInMic, .headsetMic])
      #expect(
        plugged.map(\.uid).contains(
          "alsa_output.pci-0000_00_1f.3.analog-stereo:analog-output-headphones"))
    }

    // docs/pulseaudio.md §1.4 (jack plug = availability no→yes: `change card` + `change sink`);
    // docs/avaudiosession.md §6.2, §7.7 (newDeviceAvailable; oldDeviceUnavailable pauses playback)
    @Test(
      "a jack plug and unplug become newDeviceAvailable, then oldDeviceUnavailable with the previous route and a pause"
    )
    func transition_jackPlugAndUnplug_routeChangesWithPreviousRoute() throws {
      // Given an engine that knows the laptop with nothing plugged, and music playing
      let assembler = try Self.assembler()
      let unplugged = Self.state(assembler.assemble(Self.laptop(headphones: .no)).map(\.device))
      let plugged = Self.state(assembler.assemble(Self.laptop(headphones: .yes)).map(\.device))
      var engine = Engine(policy: try TestPolicies.policy(), devices: unplugged.devices)
      for input: EngineInput in [
        .createSession("music"),
        .setCategory(session: "music", category: .playback, mode: nil, options: []),
        .setActive(session: "music", active: true, options: []), .startIO(session: "music"),
      ] {
        #expect(engine.handle(input).error == nil)
      }

      // When the headphone jack reports a plug
      let plug = PulseSystemState.transition(from: unplugged, to: plugged)
      #expect(plug.inputs.count == 2)  // the headphone jack and the headset-mic jack
      let afterPlug = plug.inputs.flatMap { engine.handle($0).notifications }

      // Then music's route moves to the headphones (newDeviceAvailable)
      let headphones = "alsa_output.pci-0000_00_1f.3.analog-stereo:analog-output-headphones"
      guard case .routeChange(.newDeviceAvailable, _, let current)? = afterPlug.first?.event else {
        Issue.record("expected newDeviceAvailable: \(afterPlug)")
        return
      }
      #expect(current.outputs.map(\.uid) == [headphones])

      // When the jack reports the unplug (the device cannot be asked any more)
      let unplug = PulseSystemState.transition(from: plug.state, to: unplugged)
      #expect(unplug.inputs.contains(.deviceDisconnected(uid: headphones)))
      let afterUnplug = unplug.inputs.flatMap { engine.handle($0).notifications }

      // Then the route change carries the headphones as previous route, and music is paused
      let events = afterUnplug.map(\.event)
      guard
        case .routeChange(.oldDeviceUnavailable, let previous, let now)? = events.first(where: {
          if case .routeChange = $0 { true } else { false }
        })
      else {
        Issue.record("expected oldDeviceUnavailable: \(afterUnplug)")
        return
      }
      #expect(previous.outputs.map(\.uid) == [headphones])
      #expect(now.outputs.map(\.portType) == [.builtInSpeaker])
      #expect(events.contains(.pause(reason: .oldDeviceUnavailable)))
    }

    // docs/pulseaudio.md §4 rows 3-4; docs/avaudiosession.md §7.3 (HFP input and output couple)
    @Test(
      "a Bluetooth card's sink and source make one device; a profile switch is a disconnect and a connect"
    )
    func assemble_bluetoothCard_oneDeviceProfileSwitchReconnects() throws {
      func object(
        _ direction: PortDirection, _ index: UInt32, _ name: String, _ profile: String
      ) -> PulseDeviceSnapshot {
        PulseDeviceSnapshot(
          direction: direction, index: index, name: name, deviceDescription: "WH-1000XM4",
          driver: "module-bluez5-device.c", cardIndex: 3, cardName: "bluez_card.AA_BB",
          properties: [
            "device.bus": "bluetooth", "bluetooth.protocol": profile,
            "device.form_factor": "headset",
          ])
      }
      let assembler = try Self.assembler()
      let a2dp = assembler.assemble([object(.output, 5, "bluez_sink.AA_BB.a2dp_sink", "a2dp_sink")])
      let hfp = assembler.assemble([
        object(.output, 6, "bluez_sink.AA_BB.handsfree_head_unit", "headset_head_unit"),
        object(.input, 4, "bluez_source.AA_BB.handsfree_head_unit", "headset_head_unit"),
      ])
      #expect(a2dp.map(\.device.uid) == ["bluez_card.AA_BB"])
      #expect(a2dp.first?.device.ports.map(\.type) == [.bluetoothA2DP])
      let headset = try #require(hfp.first?.device)
      #expect(hfp.count == 1 && headset.uid == "bluez_card.AA_BB")
      #expect(headset.ports.map(\.direction) == [.output, .input])
      #expect(Set(headset.ports.map(\.uid)) == ["bluez_card.AA_BB:bluetoothHFP"])
      let change = PulseSystemState.transition(
        from: Self.state(a2dp.map(\.device)), to: Self.state(hfp.map(\.device)))
      #expect(
        change.inputs == [.deviceDisconnected(uid: "bluez_card.AA_BB"), .deviceConnected(headset)])
    }

    // docs/pulseaudio-layer.md "Simulation" (simulated devices carry audiosession.device; owner
    // keeps backends apart)
    @Test("a simulated device counts only with all its parts, only for its owner, in port order")
    func assemble_simulatedDevice_completeOwnedOrdered() throws {
      let preset = try #require(try TestPolicies.table().devices.presets["headset"])
      let simulated = PulseSimulatedDevice(preset: preset, uid: "headset-1", owner: "a1")
      func part(_ position: Int, _ index: UInt32) -> PulseDeviceSnapshot {
        let port = preset.ports[position]
        return PulseDeviceSnapshot(
          direction: port.direction, index: index, name: "part\(position)",
          deviceDescription: "Wired Headset",
          properties: simulated.properties(for: port, at: position))
      }
      let mine = try Self.assembler(owner: "a1")
      #expect(mine.assemble([part(1, 7)]).isEmpty)
      let whole = try #require(mine.assemble([part(1, 7), part(0, 9)]).first)
      #expect(whole.device == Device(preset: preset, uid: "headset-1"))
      #expect(whole.objects[.init(uid: "headset-1:headsetMic", direction: .input)] == "part1")
      #expect(try Self.assembler(owner: "b2").assemble([part(0, 9), part(1, 7)]).isEmpty)
      #expect(try Self.assembler(owner: nil).assemble([part(0, 9), part(1, 7)]).count == 1)
    }

    // docs/pulseaudio.md §4 ("Bad input": odd or missing properties map by the fallback rule)
    @Test("a sink and a source with no properties at all map by the fallback")
    func assemble_noProperties_fallback() throws {
      let bare = [
        PulseDeviceSnapshot(direction: .output, index: 0, name: "x"),
        PulseDeviceSnapshot(direction: .input, index: 0, name: "y"),
      ]
      let devices = try Self.assembler().assemble(bare).map(\.device)
      #expect(devices.map(\.uid) == ["x", "y"])
      #expect(devices.flatMap(\.ports).map(\.type) == [.builtInSpeaker, .builtInMic])
      #expect(devices.map(\.name) == ["x", "y"])
    }
  }
}
