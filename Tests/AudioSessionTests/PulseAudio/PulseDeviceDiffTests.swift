import AudioSession
import AudioSessionPulse
import AudioSessionSystem
import AudioSessionWire
import Testing

extension PulseAudioTests {
  /// Device-set diffs, including jack (port availability) changes that a private server without
  /// hardware cannot produce (docs/pulseaudio.md §1.4: tested with synthetic snapshots).
  @Suite struct PulseDeviceDiffTests {
    /// An ALSA-like analog sink with a speaker and a headphone jack.
    static func analogSink(
      headphones: PulsePortAvailability, active: String, index: UInt32 = 0
    ) -> PulseDeviceSnapshot {
      PulseDeviceSnapshot(
        direction: .output, index: index, name: "alsa_output.pci.analog-stereo",
        deviceDescription: "Built-in Audio",
        ports: [
          PulsePort(name: "analog-output-speaker", type: .speaker, availability: .unknown),
          PulsePort(name: "analog-output-headphones", type: .headphones, availability: headphones),
        ],
        activePortName: active)
    }

    // docs/pulseaudio.md §1.4 (events would arrive as change card + change sink)
    @Test("a jack plug: port availability no→yes and the active port switches")
    func diff_jackPlugged_reportsAvailabilityAndActivePort() {
      let before = Self.analogSink(headphones: .no, active: "analog-output-speaker")
      let after = Self.analogSink(headphones: .yes, active: "analog-output-headphones")

      let diff = PulseDeviceDiff(from: [before], to: [after])

      #expect(diff.added.isEmpty && diff.removed.isEmpty)
      #expect(
        diff.availabilityChanged == [
          .init(
            before: before, after: after,
            ports: [.init(name: "analog-output-headphones", before: .no, after: .yes)])
        ])
      #expect(diff.activePortChanged.map(\.after.activePortName) == ["analog-output-headphones"])
    }

    // docs/pulseaudio.md §1.4 (available: 0 unknown / 1 no / 2 yes)
    @Test("a port whose availability becomes unknown, and ports that appear or vanish, are changes")
    func diff_portsUnknownAddedOrRemoved_reported() {
      var before = Self.analogSink(headphones: .yes, active: "analog-output-headphones")
      before.ports.append(PulsePort(name: "analog-output-lineout", type: .line, availability: .no))
      var after = Self.analogSink(headphones: .unknown, active: "analog-output-headphones")
      after.ports.append(PulsePort(name: "hdmi-output-0", type: .hdmi, availability: .yes))

      let diff = PulseDeviceDiff(from: [before], to: [after])

      #expect(diff.activePortChanged.isEmpty)
      #expect(
        diff.availabilityChanged.first?.ports == [
          .init(name: "analog-output-headphones", before: .yes, after: .unknown),
          .init(name: "analog-output-lineout", before: .no, after: nil),
          .init(name: "hdmi-output-0", before: nil, after: .yes),
        ])
    }

    // docs/pulseaudio.md §1.3 (plug = new sink, unplug = remove sink)
    @Test("a loaded sink is added and an unloaded one removed, with its old snapshot")
    func diff_sinkLoadedAndUnloaded_reportsAddedAndRemoved() {
      let speaker = PulseDeviceSnapshot.sink(["device.form_factor": "internal"])
      var headphones = PulseDeviceSnapshot.sink(["device.form_factor": "headphone"])
      headphones.name = "hp"
      headphones.index = 2

      let plugged = PulseDeviceDiff(from: [speaker], to: [speaker, headphones])
      let unplugged = PulseDeviceDiff(from: [speaker, headphones], to: [speaker])

      #expect(plugged.added == [headphones] && plugged.removed.isEmpty)
      #expect(unplugged.removed == [headphones] && unplugged.added.isEmpty)
      #expect(!plugged.isEmpty && !unplugged.isEmpty)
    }

    // docs/pulseaudio.md §5 (after a restart all indices restart at 0)
    @Test("the same devices under new indices after a server restart are no change")
    func diff_sameNamesNewIndices_isEmpty() {
      let before = Self.analogSink(headphones: .no, active: "analog-output-speaker", index: 7)
      let after = Self.analogSink(headphones: .no, active: "analog-output-speaker", index: 0)

      #expect(PulseDeviceDiff(from: [before], to: [after]).isEmpty)
    }

    // docs/pulseaudio.md §1.2 (sinks and sources are separate name spaces)
    @Test("a sink and a source with the same name are different devices")
    func diff_sinkAndSourceSameName_areDistinct() {
      let sink = PulseDeviceSnapshot.sink()
      let source = PulseDeviceSnapshot.source()

      let diff = PulseDeviceDiff(from: [sink], to: [source])

      #expect(diff.added == [source] && diff.removed == [sink])
    }
  }
}
