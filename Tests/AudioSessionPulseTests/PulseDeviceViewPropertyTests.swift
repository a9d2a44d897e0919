import AudioSession
import AudioSessionPulseTestSupport
import AudioSessionTestSupport
import PropertyBased
import Testing

@testable import AudioSessionPulse

extension PulseAudioTests {
  /// The server's devices as the engine knows them (docs/pulseaudio.md §4,
  /// docs/pulseaudio-layer.md "The backend's parts"): any order of snapshots of a laptop's
  /// card, WirePlumber's placeholder output and a USB headset, with the user's choices of
  /// output, with no server.
  @Suite struct PulseDeviceViewPropertyTests {
    /// One snapshot: which objects the server shows, the default sink, and a user's choice.
    struct Shown: Sendable, CustomStringConvertible {
      var placeholder: Bool
      /// The laptop's card: absent, or present with the headphone jack plugged or not.
      var laptop: PulsePortAvailability?
      var usb: Bool
      /// The default sink, by position among the sinks shown (none when out of range).
      var defaultSink: Int
      /// The user moved a session's stream to this device (by UID) before the snapshot.
      var chosen: String?

      var description: String {
        "placeholder \(placeholder), laptop \(laptop.map { "jack \($0)" } ?? "none"), usb \(usb), default #\(defaultSink), chosen \(chosen ?? "none")"
      }

      var objects: [PulseDeviceSnapshot] {
        var objects: [PulseDeviceSnapshot] = []
        if let laptop { objects += PulseDeviceAssemblerTests.laptop(headphones: laptop) }
        if placeholder {
          objects.append(
            PulseDeviceSnapshot(
              direction: .output, index: 5, name: "auto_null", deviceDescription: "Dummy Output",
              driver: "PipeWire",
              properties: ["node.name": "auto_null", "factory.name": "support.null-audio-sink"]))
        }
        if usb {
          objects.append(
            PulseDeviceSnapshot(
              direction: .output, index: 6, name: "alsa_output.usb-headset",
              deviceDescription: "USB Headset", driver: "module-alsa-card.c", flags: [.hardware],
              properties: [
                "device.bus": "usb", "device.form_factor": "headset", "device.class": "sound",
              ]))
        }
        return objects
      }

      var snapshot: PulseServerSnapshot {
        let objects = objects
        let sinks = objects.filter { $0.direction == .output }.map(\.name)
        return PulseServerSnapshot(
          server: PulseServerInfo(
            serverName: "pulseaudio", serverVersion: "16.1", userName: "u", hostName: "h",
            defaultSinkName: sinks.indices.contains(defaultSink) ? sinks[defaultSink] : nil,
            defaultSourceName: nil, cookie: 1),
          devices: objects)
      }
    }

    static let uids = [
      "auto_null", "alsa_output.usb-headset", "gone",
      "alsa_output.pci-0000_00_1f.3.analog-stereo:analog-output-headphones",
    ]

    static var snapshots: Generator<[Shown], some SendableSequenceType> {
      zip(
        Gen<Bool>.bool, Gen<Int>.int(in: 0...2), Gen<Bool>.bool, Gen<Int>.int(in: 0...3),
        Gen<Int>.int(in: 0...7)
      ).map { placeholder, laptop, usb, defaultSink, chosen in
        Shown(
          placeholder: placeholder, laptop: [nil, .no, .yes][laptop], usb: usb,
          defaultSink: defaultSink, chosen: chosen < uids.count ? uids[chosen] : nil)
      }.array(of: 1...30)
    }

    static func isRealSpeaker(_ entry: PulseDeviceAssembler.Assembled) -> Bool {
      !entry.isPlaceholder
        && entry.device.ports.contains { $0.type == .builtInSpeaker && $0.direction == .output }
    }

    @Test(
      "over any order of snapshots: the placeholder output stands for the built-in speaker while no real one is there, kept without objects while the server has removed it; each port's object is a shown sink or source and maps back to its device; the engine is told each change once, and a user's choice only of a device that is there (docs/pulseaudio.md §4)"
    )
    func viewFollowsTheServer() async throws {
      let rules = try PulseTestPolicies.rules()
      let catalog = try TestPolicies.table().devices
      await propertyCheck(input: Self.snapshots) { steps in
        var view = PulseDeviceView()
        view.catalog = catalog
        view.started(with: PulseSystemState(connected: true, connection: 1))
        var remembered = false
        for (number, shown) in steps.enumerated() {
          let context = "step \(number) \(shown) of \(steps)"
          let snapshot = shown.snapshot
          view.assemble(snapshot.devices, rules: rules, owner: nil)
          let real = view.assembled.contains(where: Self.isRealSpeaker)
          let placeholders = view.assembled.filter(\.isPlaceholder)
          // The placeholder: shown, or kept without objects, or dropped.
          if shown.placeholder {
            remembered = true
            #expect(placeholders.count == 1, "\(context): the shown placeholder is missing")
            #expect(placeholders.first?.objects.isEmpty == false, "\(context)")
          } else if real || !remembered {
            remembered = false
            #expect(placeholders.isEmpty, "\(context): a placeholder beside a real speaker")
          } else {
            #expect(placeholders.count == 1, "\(context): the placeholder was not kept")
            #expect(placeholders.first?.objects.isEmpty == true, "\(context): kept with objects")
            #expect(
              view.assembled.first?.isPlaceholder == true, "\(context): kept, but not first")
          }
          // Each port's object is shown, and maps back to a device that has it.
          for entry in view.assembled {
            for (port, object) in entry.objects {
              #expect(
                snapshot.devices.contains { $0.name == object && $0.direction == port.direction },
                "\(context): \(object) is not shown")
              #expect(view.object(for: port.uid, port.direction) != nil, "\(context)")
              let owner = view.uid(of: object, port.direction, in: snapshot)
              #expect(
                view.assembled.contains {
                  $0.device.uid == owner && $0.objects.values.contains(object)
                }, "\(context): \(object) maps to \(owner ?? "nothing")")
            }
          }
          // The engine is told: each change once, the user's choice of a present device.
          if let chosen = shown.chosen {
            view.userChose([.deviceChosen(uid: chosen, direction: .output, session: "app")])
          }
          let state = view.state(
            of: snapshot, connection: 1, callActive: false, systemDefaults: true)
          #expect(state.devices == view.assembled.map(\.device), "\(context)")
          if let sink = snapshot.server?.defaultSinkName {
            #expect(state.defaults[.output] == view.uid(of: sink, .output, in: snapshot))
          }
          let told = view.takeChanges(to: state)
          // (a default that moved is a choice too, of no session: not the user's move)
          let choices = told.filter {
            if case .deviceChosen(_, _, "app") = $0 { return true }
            return false
          }
          let present = shown.chosen.map { uid in state.devices.contains { $0.uid == uid } }
          #expect(
            choices
              == (present == true
                ? [.deviceChosen(uid: shown.chosen ?? "", direction: .output, session: "app")]
                : []),
            "\(context): told \(choices)")
          // (in the order the engine learnt of them)
          #expect(Set(view.published.devices) == Set(state.devices), "\(context)")
          #expect(view.takeChanges(to: state).isEmpty, "\(context): told twice")
        }
        view.connectionLost()
        #expect(view.assembled.isEmpty && view.targets.isEmpty)
        #expect(!view.lostState.connected)
      }
    }
  }
}
