import AudioSession
import AudioSessionPulse
import AudioSessionPulseTestSupport
import AudioSessionSystem
import Foundation
import Testing

extension PulseAudioTests {
  /// The libpulse client against a real private server (no mock of libpulse). Each test starts its
  /// own server and stops it when it returns.
  @Suite struct PulseContextTests {
    // docs/pulseaudio.md §1.1, §1.2
    @Test("a fresh private server lists the speaker sink and its monitor")
    func connect_privateServer_listsSpeakerSinkAndMonitor() async throws {
      try await withPulseServer { _, client, _ in
        // Given a server started with one null sink "speaker"
        // When the client lists the server and its devices
        let info = try await client.serverInfo()
        let sinks = try await client.sinks()
        let sources = try await client.sources()

        // Then the server is PulseAudio with "speaker" as its default sink
        #expect(info.serverName == "pulseaudio")
        #expect(!info.isPipeWire)
        #expect(info.defaultSinkName == "speaker")
        let speaker = try #require(sinks.first { $0.name == "speaker" })
        #expect(speaker.direction == .output)
        #expect(speaker.deviceDescription == "Speaker")
        #expect(speaker.driver == "module-null-sink.c")
        #expect(speaker.properties["device.form_factor"] == "internal")
        #expect(speaker.ports.isEmpty && speaker.activePortName == nil)
        #expect(!speaker.isMonitor)
        // and its monitor source points back at it
        let monitor = try #require(sources.first { $0.name == "speaker.monitor" })
        #expect(monitor.direction == .input)
        #expect(monitor.monitorOfSink == speaker.index)
        #expect(monitor.isMonitor)
      }
    }

    // docs/pulseaudio.md §1.2, §1.3 (event order, removed-object cache), §4 row 8
    @Test("plugging headphones: events, default follows, maps to headphones; unplug reverts")
    func loadHeadphoneSink_noConfiguredDefault_followsDefaultAndMapsToHeadphones() async throws {
      let rules = try PulseTestPolicies.rules()
      try await withPulseServer { _, client, recorder in
        // Given a server with only the speaker, no configured default, and the last snapshot of
        // each sink kept by index (a removed sink cannot be queried: §1.3 b)
        var known = Dictionary(
          try await client.sinks().map { ($0.index, $0) }, uniquingKeysWith: { $1 })
        let speaker = try #require(known.values.first { $0.name == "speaker" })
        #expect(PulsePortMapper.portType(for: speaker, rules: rules) == .builtInSpeaker)

        // When headphones are plugged (a headphone null sink is loaded)
        let plugged = await recorder.mark()
        let module = try await client.loadModule(
          "module-null-sink",
          arguments: try PulseTestDevices.nullSink("hp", PulseTestDevices.headphoneProperties))

        // Then the server announces the new sink and a server change (the default moved), in
        // either order
        let added = try await recorder.next(.new, .sink, since: plugged)
        let sinkIndex = try #require(added.index)
        try await recorder.next(.change, .server, since: plugged)
        let headphones = try #require(try await client.sink(at: sinkIndex))
        known[headphones.index] = headphones
        #expect(headphones.name == "hp")
        #expect(headphones.deviceDescription == "Wired Headphones")
        #expect(headphones.properties["device.bus"] == "pci")
        #expect(PulsePortMapper.portType(for: headphones, rules: rules) == .headphones)
        #expect(PulsePortMapper.match(headphones, rules: rules).rule == "headphones")
        #expect(try await client.serverInfo().defaultSinkName == "hp")

        // When they are unplugged (the module is unloaded)
        let unplugged = await recorder.mark()
        try await client.unloadModule(module)

        // Then the default change comes before the remove, and the default is the speaker again
        try await recorder.next(.change, .server, since: unplugged)
        let removed = try await recorder.next(.remove, .sink, index: sinkIndex)
        #expect(try await client.sink(at: sinkIndex) == nil)
        #expect(try await client.serverInfo().defaultSinkName == "speaker")
        // and the snapshot kept still describes what was removed
        #expect(removed.facility == .sink)
        let kept = known.removeValue(forKey: sinkIndex)
        let forgotten = try #require(kept)
        #expect(forgotten == headphones)
        #expect(PulsePortMapper.portType(for: forgotten, rules: rules) == .headphones)
        #expect(!known.values.contains { $0.name == "hp" })
      }
    }

    // docs/pulseaudio.md §1.2, §4 row 3
    @Test("a Bluetooth HFP sink and its remapped mic map to bluetoothHFP in both directions")
    func loadBluetoothHFPSinkAndMic_mapsBothDirectionsToBluetoothHFP() async throws {
      let rules = try PulseTestPolicies.rules()
      try await withPulseServer { _, client, recorder in
        // Given an HFP headset: a null sink plus a non-monitor mic remapped from its monitor
        _ = try await client.loadModule(
          "module-null-sink",
          arguments: try PulseTestDevices.nullSink("bt_hfp", PulseTestDevices.hfpSinkProperties))
        _ = try await client.loadModule(
          "module-remap-source",
          arguments: try PulseModuleArguments.make(
            ["source_name": "bt_hfp_mic", "master": "bt_hfp.monitor"],
            propertyLists: ["source_properties": PulseTestDevices.hfpMicProperties]))
        try await recorder.next(.new, .source)

        // When the devices are listed and mapped
        let devices = try await client.devices()
        let sink = try #require(devices.first { $0.name == "bt_hfp" })
        let mic = try #require(devices.first { $0.name == "bt_hfp_mic" })

        // Then both are bluetoothHFP, one output and one input
        #expect(sink.direction == .output && mic.direction == .input)
        #expect(!mic.isMonitor)
        #expect(
          PulsePortMapper.match(sink, rules: rules)
            == .init(rule: "bluetoothHFP", outcome: .port(.bluetoothHFP)))
        #expect(
          PulsePortMapper.match(mic, rules: rules)
            == .init(rule: "bluetoothHFP", outcome: .port(.bluetoothHFP)))
        let port = try #require(PulsePortMapper.port(for: mic, rules: rules))
        #expect(
          port
            == DevicePort(
              type: .bluetoothHFP, direction: .input, name: "Headset Mic", uid: "bt_hfp_mic"))
      }
    }

    // docs/pulseaudio.md §1.2, §4 row 0
    @Test("monitor sources are not routes: the mapper ignores every one")
    func mapDevices_monitorSources_areIgnored() async throws {
      let rules = try PulseTestPolicies.rules()
      try await withPulseServer { _, client, _ in
        // Given the speaker and a headphone sink, each with a monitor source
        _ = try await client.loadModule(
          "module-null-sink",
          arguments: try PulseTestDevices.nullSink("hp", PulseTestDevices.headphoneProperties))

        // When every device is mapped
        let devices = try await client.devices()
        let monitors = devices.filter(\.isMonitor)

        // Then both monitors are ignored by the monitor rule, and the sinks are routes
        #expect(Set(monitors.map(\.name)) == ["speaker.monitor", "hp.monitor"])
        for monitor in monitors {
          #expect(
            PulsePortMapper.match(monitor, rules: rules)
              == .init(rule: "ignoreMonitor", outcome: .ignore))
          #expect(PulsePortMapper.port(for: monitor, rules: rules) == nil)
        }
        let routes = devices.compactMap { PulsePortMapper.portType(for: $0, rules: rules) }
        #expect(routes.sorted { $0.name < $1.name } == [.builtInSpeaker, .headphones])
      }
    }

    // docs/pulseaudio.md §5
    @Test("connecting where no server listens fails with connectionRefused")
    func connect_noServerListening_throwsConnectionRefused() async throws {
      // Given a socket path nothing listens on
      let client = try PulseContext(name: "audiosession-tests")
      defer { client.disconnect() }

      // When the client connects, Then it fails with libpulse's "Connection refused"
      await #expect(throws: PulseError.connectionRefused) {
        try await client.connect(to: "unix:/nonexistent/audiosession-tests/native")
      }
      #expect(client.state == .failed(.connectionRefused))
      #expect(PulseError.connectionRefused.description == "Connection refused")
    }

    // docs/pulseaudio.md §0, §5 (server loss)
    @Test("SIGKILL of the server: client reports failed / connection terminated, no crash")
    func killServer_connectedClient_reportsFailedConnectionTerminated() async throws {
      try await withPulseServer { server, client, recorder in
        // Given a connected client
        #expect(client.state == .ready)

        // When the server is killed
        server.kill()
        #expect(!server.isRunning)

        // Then the client's context fails with "Connection terminated"
        try await recorder.next("state failed") { $0 == .state(.failed(.connectionTerminated)) }
        #expect(client.state == .failed(.connectionTerminated))
        // and a request on the dead context throws instead of hanging or crashing
        await #expect(throws: PulseError.self) { try await client.serverInfo() }
      }
    }

    // docs/pulseaudio.md §1.1
    @Test("loading a module that does not exist fails with moduleInitFailed")
    func loadModule_unknownName_throwsModuleInitFailed() async throws {
      try await withPulseServer { _, client, _ in
        await #expect(throws: PulseError.moduleInitFailed) {
          _ = try await client.loadModule("module-audiosession-does-not-exist")
        }
        // and the connection stays usable
        let info = try await client.serverInfo()
        #expect(info.defaultSinkName == "speaker")
      }
    }

    // docs/pulseaudio.md §2 (acting on PA: mute, set volume of sink inputs)
    @Test("a client mutes and sets the volume of a playback stream by index")
    func setSinkInputMuteAndVolume_playingStream_isVisibleInIntrospection() async throws {
      try await withPulseServer { _, client, recorder in
        // Given a playing music stream
        let music = try PulsePlaybackStream(
          context: client, name: "music", properties: ["media.role": "music"])
        defer { music.disconnect() }
        try await music.connect()
        let index = try #require(music.index)
        try await recorder.next(.new, .sinkInput, index: index)

        // When another party mutes it and halves its volume
        try await client.setSinkInputMute(index, muted: true)
        let input = try #require(try await client.sinkInput(at: index))
        try await client.setSinkInputVolume(
          index, to: PulseVolume(fraction: 0.5), channels: input.channels)

        // Then introspection shows both
        let changed = try #require(try await client.sinkInput(at: index))
        #expect(changed.isMuted)
        #expect(changed.volume == PulseVolume(fraction: 0.5))
        #expect(changed.volume.description == "50%")
      }
    }
  }
}
