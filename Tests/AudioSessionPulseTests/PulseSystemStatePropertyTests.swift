import AudioSession
import AudioSessionPulse
import AudioSessionPulseTestSupport
import AudioSessionSystem
import AudioSessionTestSupport
import PropertyBased
import Testing

extension PulseAudioTests {
  /// Properties of grouping and of the state transitions over arbitrary synthetic servers (odd
  /// and missing properties, colliding names, any port availability): what the engine is told
  /// always takes it exactly to the server's devices, and nothing crashes (docs/pulseaudio.md
  /// §4 "never a crash"; §1.3 c bursts become one change).
  @Suite struct PulseSystemStatePropertyTests {
    /// A server's objects: distinct indices per direction, as a server gives them.
    static var server: Generator<[PulseDeviceSnapshot], some SendableSequenceType> {
      Gen.snapshot.array(of: 0...6).map { objects in
        objects.enumerated().map { position, object in
          var object = object
          object.index = UInt32(position)
          return object
        }
      }
    }

    /// Applies inputs as the engine applies them to its device list (connect appends, disconnect
    /// removes).
    static func replay(_ inputs: [EngineInput], on devices: [Device]) -> [Device] {
      var devices = devices
      for input in inputs {
        switch input {
        case .deviceConnected(let device): devices.append(device)
        case .deviceDisconnected(let uid): devices.removeAll { $0.uid == uid }
        default: break
        }
      }
      return devices
    }

    // docs/pulseaudio.md §4 (row 0: monitors are never routes; rows 16: fallback, no crash)
    @Test(
      "assembled devices have unique UIDs, at least one port, unique port UIDs per direction, and no monitor"
    )
    func assemble_anyServer_wellFormedDevices() async throws {
      let assembler = PulseDeviceAssembler(
        rules: try PulseTestPolicies.rules(), catalog: try TestPolicies.table().devices, owner: nil)
      await propertyCheck(input: Self.server) { objects in
        let devices = assembler.assemble(objects)
        #expect(Set(devices.map(\.device.uid)).count == devices.count)
        for entry in devices {
          #expect(!entry.device.ports.isEmpty)
          let keys = entry.device.ports.map { "\($0.direction.rawValue) \($0.uid)" }
          #expect(Set(keys).count == keys.count)
          for port in entry.device.ports {
            let object = entry.objects[.init(uid: port.uid, direction: port.direction)]
            #expect(objects.contains { $0.name == object && !$0.isMonitor })
          }
        }
      }
    }

    // docs/pulseaudio.md §1.3 c (diff old vs new after a burst), §5 (full resync)
    @Test("the inputs of a transition take the engine's devices exactly to the new ones")
    func transition_anyTwoServers_replayReachesNewDevices() async throws {
      let assembler = PulseDeviceAssembler(
        rules: try PulseTestPolicies.rules(), catalog: try TestPolicies.table().devices, owner: nil)
      await propertyCheck(input: Self.server, Self.server) { before, after in
        let old = PulseSystemState(
          connected: true, connection: 1, devices: assembler.assemble(before).map(\.device))
        let new = PulseSystemState(
          connected: true, connection: 1, devices: assembler.assemble(after).map(\.device))
        let (inputs, state) = PulseSystemState.transition(from: old, to: new)
        #expect(Self.replay(inputs, on: old.devices) == state.devices)
        #expect(Set(state.devices.map(\.uid)) == Set(new.devices.map(\.uid)))
        #expect(PulseSystemState.transition(from: state, to: new).inputs.isEmpty)
      }
    }

    // docs/engine.md, chosen device: a default the user chose is a choice (reason override), not a
    // device change
    @Test(
      "a default that moves between present devices, with no device coming or going, is deviceChosen; otherwise nothing"
    )
    func transition_defaultChosen_isDeviceChosen() {
      let devices = ["a", "b", "m"].map { uid in
        Device(
          uid: uid, name: uid,
          ports: [
            DevicePort(
              type: .usbAudio, direction: uid == "m" ? .input : .output, name: uid, uid: uid)
          ])
      }
      let state = PulseSystemState(
        connected: true, connection: 1, devices: devices, defaults: [.output: "a", .input: "m"])
      var chosen = state
      chosen.defaults = [.output: "b", .input: "m"]
      let choice = PulseSystemState.transition(from: state, to: chosen)
      #expect(choice.inputs == [.deviceChosen(uid: "b", direction: .output, session: nil)])
      #expect(choice.state.devices == devices && choice.state.defaults[.output] == "b")
      #expect(PulseSystemState.transition(from: choice.state, to: chosen).inputs.isEmpty)
      // A default of none of the devices is ignored, and the known one kept.
      var unknown = chosen
      unknown.defaults = [:]
      let ignored = PulseSystemState.transition(from: choice.state, to: unknown)
      #expect(ignored.inputs.isEmpty && ignored.state.defaults[.output] == "b")
      // The default moves because the old default device went: the device covers it.
      var gone = chosen
      gone.devices = [devices[0], devices[2]]
      gone.defaults = [.output: "a", .input: "m"]
      #expect(
        PulseSystemState.transition(from: choice.state, to: gone).inputs == [
          .deviceDisconnected(uid: "b")
        ])
      // A device came in the same burst: the device covers it.
      let extra = Device(
        uid: "c", name: "c",
        ports: [DevicePort(type: .headphones, direction: .output, name: "c", uid: "c")])
      var plugged = chosen
      plugged.devices.append(extra)
      plugged.defaults = [.output: "c", .input: "m"]
      #expect(
        PulseSystemState.transition(from: state, to: plugged).inputs == [.deviceConnected(extra)])
    }

    // docs/pulseaudio.md §5; docs/avaudiosession.md §6.4 (lost, then reset)
    @Test(
      "losing the server says mediaServicesLost once and keeps the devices; reconnecting says reset, then what changed"
    )
    func transition_lossAndReconnect_lostThenReset() {
      let speaker = Device(
        uid: "s", name: "Speaker",
        ports: [DevicePort(type: .builtInSpeaker, direction: .output, name: "Speaker", uid: "s")])
      let headphones = Device(
        uid: "h", name: "Headphones",
        ports: [DevicePort(type: .headphones, direction: .output, name: "Headphones", uid: "h")])
      let known = PulseSystemState(connected: true, connection: 1, devices: [speaker, headphones])
      let lost = PulseSystemState.transition(from: known, to: PulseSystemState(connection: 1))
      #expect(lost.inputs == [.mediaServicesLost])
      #expect(lost.state.devices == known.devices && !lost.state.connected)
      #expect(PulseSystemState.transition(from: lost.state, to: PulseSystemState()).inputs == [])
      let back = PulseSystemState(
        connected: true, connection: 2, devices: [speaker], callActive: true)
      #expect(
        PulseSystemState.transition(from: lost.state, to: back).inputs == [
          .mediaServicesReset, .deviceDisconnected(uid: "h"), .call(active: true),
        ])
      #expect(
        PulseSystemState.transition(from: known, to: back).inputs.prefix(2) == [
          .mediaServicesLost, .mediaServicesReset,
        ])
    }

    // docs/api-coverage.md (outputVolume: the default sink's volume)
    @Test(
      "a system volume of up to four decimals, set on every channel, reads back as itself; the loudest channel counts, and above 100 % is full volume"
    )
    func systemVolumeRoundTrip() async {
      await propertyCheck(
        input: Gen<Int>.int(in: 0...10_000), Gen<Int>.int(in: 1...8),
        Gen<UInt32>.value(in: 0...0x30000)
      ) { tenThousandths, channels, other in
        let volume = Double(tenThousandths) / 10_000
        let channel = PulseSystemState.channelVolume(volume)
        #expect(
          PulseSystemState.systemVolume(Array(repeating: channel, count: channels)) == volume)
        let mixed = [channel, PulseVolume(rawValue: other)]
        let loudest = max(channel.rawValue, other)
        #expect(
          PulseSystemState.systemVolume(mixed)
            == PulseSystemState.systemVolume([PulseVolume(rawValue: loudest)]))
        #expect(PulseSystemState.systemVolume(mixed).map { (0...1).contains($0) } == true)
      }
      #expect(PulseSystemState.systemVolume([]) == nil)
    }

    @Test(
      "a transition tells the engine the system volume exactly when the known one changes; an unknown one keeps the last"
    )
    func transitionVolume() async {
      // -1: unknown.
      let volumes = Gen<Int?>.element(of: [-1, 0, 2500, 4000, 10_000]).map { value -> Double? in
        guard let value, value >= 0 else { return nil }
        return Double(value) / 10_000
      }
      await propertyCheck(input: volumes, volumes, Gen<Bool>.bool) { old, new, known in
        let before = PulseSystemState(connected: true, connection: 1, outputVolume: old)
        let after = PulseSystemState(
          connected: true, connection: 1, outputVolume: known ? new : nil)
        let (inputs, state) = PulseSystemState.transition(from: before, to: after)
        let told = inputs.compactMap { input -> Double? in
          if case .systemVolume(let volume) = input { volume } else { nil }
        }
        if known, let new, new != old {
          #expect(told == [new])
        } else {
          #expect(told.isEmpty)
        }
        #expect(state.outputVolume == (known ? new ?? old : old))
      }
    }
  }
}
