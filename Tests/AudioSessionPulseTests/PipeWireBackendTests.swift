import AudioSession
import AudioSessionArbiter
import AudioSessionPulse
import AudioSessionPulseTestSupport
import AudioSessionSystem
import Testing

extension PulseAudioTests {
  /// The backend on pipewire-pulse, which has no module-role-cork and sends no stream events:
  /// the backend applies interruptions itself by corking its own streams
  /// (docs/pulseaudio.md §2.1). Each test starts a private D-Bus bus, pipewire, wireplumber and
  /// pipewire-pulse; one at a time.
  @Suite(.serialized) struct PipeWireBackendTests {
    static let music: [Command] = [
      .input(.setCategory(session: "music", category: .playback, mode: nil, options: [])),
      .input(.setActive(session: "music", active: true, options: [])),
      .input(.startIO(session: "music")),
    ]

    // docs/pulseaudio.md §2.1 (no role modules, no stream events); docs/avaudiosession.md §5.1 A4
    @Test("another application's phone stream interrupts music, whose stream the backend corks")
    func foreignPhoneStream_pipewire_backendCorksItself() async throws {
      try await withPulseBackend(.pipewire) { backend, coordinator in
        #expect(await backend.connectedServerName?.contains("PipeWire") == true)
        _ = try await PulseBackendHarness.foreignCallInterruptsMusic(backend, coordinator)
        #expect(await backend.problems == [])
      }
    }

    // docs/pulseaudio.md §2.1 (restarting pipewire-pulse: FAILED, modules gone), §5
    @Test("pipewire-pulse killed and started again: lost, then reset with the devices re-created")
    func killAndRestart_pipewire_lostThenReset() async throws {
      try await withPulseBackend(.pipewire) { backend, coordinator in
        let server = try #require(await backend.privateServer)
        let devices = await coordinator.status().devices
        let observed = await coordinator.recordObserved()
        server.kill()
        try await observed.next("lost") { $0 == .mediaServicesLost }
        try server.restart()
        // A loaded machine (the whole suite at once on two cores) may take pipewire-pulse and
        // WirePlumber many seconds to make the devices again.
        try await observed.next("reset", timeout: .seconds(40)) { $0 == .mediaServicesReset }
        #expect(await coordinator.status().devices == devices)
        let again = await PulseBackendHarness.run(Self.music, on: coordinator)
        #expect(again.allSatisfy { $0.error == nil })
        let observer = try await PulseBackendObserver(backend)
        #expect(try await observer.stream(of: "music") != nil)
      }
    }

    // docs/contract.md "Apps on the server" (a user's choice of output is
    // `override`)
    @Test("on pipewire-pulse, choosing the default sink reroutes music with override and no pause")
    func userSetsDefaultSink_pipewire_overrideWithoutPause() async throws {
      try await withPulseBackend(.pipewire, scope: .system) { backend, coordinator in
        let observer = try await PulseBackendObserver(backend)
        let observed = try await PulseObservedChangesTests.musicOnUserHeadphones(
          backend, coordinator, observer)
        let speaker = try #require(try await observer.objects(of: "builtin-speaker").first).name
        // WirePlumber may keep the first sink as the default, or make the headphones the default
        // on its own a moment later: make them the default, wait until the server says so, and
        // start the checks from there (music already plays there: that choice reroutes nothing)
        try await observer.client.setDefaultSink("usercans")
        for _ in 0..<250 {
          if try await observer.client.serverInfo().defaultSinkName == "usercans" { break }
          try await Task.sleep(for: .milliseconds(20))
        }
        await backend.synchronize()
        let settled = await observed.mark()
        #expect(
          await observed.events.allSatisfy { outcome in
            outcome.input != .deviceChosen(uid: "usercans", direction: .output, session: nil)
              || outcome.notifications.isEmpty
          })

        try await observer.client.setDefaultSink(speaker)
        let away = try await observed.next("speaker chosen", since: settled) {
          $0.input == .deviceChosen(uid: "builtin-speaker", direction: .output, session: nil)
        }
        PulseObservedChangesTests.expectOverride(away, to: "builtin-speaker")

        try await observer.client.setDefaultSink("usercans")
        let back = try await observed.next("headphones chosen") {
          $0 == .deviceChosen(uid: "usercans", direction: .output, session: nil)
        }
        PulseObservedChangesTests.expectOverride(back, to: "usercans")
        let status = try #require(await coordinator.status().sessions.first)
        #expect(status.route.outputs.map(\.uid) == ["usercans"] && status.playing)
        #expect(try await observer.stream(of: "music", onSink: "usercans").sink == "usercans")
        await backend.synchronize()
        #expect(
          await observed.events.allSatisfy { outcome in
            outcome.notifications.allSatisfy {
              if case .routeChange(.oldDeviceUnavailable, _, _) = $0.event {
                false
              } else {
                $0.event != .pause(reason: .oldDeviceUnavailable)
              }
            }
          })
      }
    }

    // docs/pulseaudio-layer.md "The server, as the engine sees it" (the placeholder sink);
    // docs/avaudiosession.md §6.2, §7.7 (the headphone pause)
    @Test(
      "with only WirePlumber's placeholder output, plug and unplug headphones give the notifications they give on pulseaudio"
    )
    func placeholderOnly_plugUnplug_sameAsPulseAudio() async throws {
      let steps: [Command] =
        Self.music + [
          .simulate(.plug(preset: "headphones")), .simulate(.unplug("headphones-1")),
        ]
      var pulse: [CommandResult] = []
      try await withPulseBackend(devices: ["builtInSpeaker"], scope: .system) { _, coordinator in
        pulse = await PulseBackendHarness.run(steps, on: coordinator)
      }
      try await withPulseBackend(.pipewire, devices: [], scope: .system) { backend, coordinator in
        // Given a stack whose only sink is the placeholder
        let observer = try await PulseBackendObserver(backend)
        let sinks = try await observer.client.devices().filter { $0.direction == .output }
        #expect(sinks.map(\.name) == ["auto_null"])
        #expect(await coordinator.status().devices.map(\.uid) == ["auto_null"])

        let results = await PulseBackendHarness.run(steps, on: coordinator)
        #expect(results.allSatisfy { $0.error == nil })
        let plug = results[3].notifications.map(\.event)
        guard case .routeChange(.newDeviceAvailable, let before, let after)? = plug.first else {
          Issue.record("expected newDeviceAvailable: \(plug)")
          return
        }
        #expect(plug.count == 1)
        #expect(before.outputs.map(\.portType) == [.builtInSpeaker])
        #expect(after.outputs.map(\.portType) == [.headphones])
        let unplug = results[4].notifications.map(\.event)
        guard case .routeChange(.oldDeviceUnavailable, let previous, let current)? = unplug.first
        else {
          Issue.record("expected oldDeviceUnavailable: \(unplug)")
          return
        }
        #expect(previous.outputs.map(\.portType) == [.headphones])
        #expect(current.outputs.map(\.portType) == [.builtInSpeaker])
        #expect(unplug.last == .pause(reason: .oldDeviceUnavailable))
        // The same notifications, by kind, as on pulseaudio with its speaker sink
        #expect(results.map(Self.kinds) == pulse.map(Self.kinds))
        // The placeholder came back when the headphones went: still one device, no more changes
        let observed = await coordinator.recordObserved()
        await backend.synchronize()
        // (WirePlumber may make the headphones the default a moment after they appeared, which
        // arrives as the user's choice of a device that is gone by now: it changes nothing.)
        let late = await observed.events
        #expect(late.allSatisfy { $0.notifications.isEmpty }, "\(late)")
        #expect(await coordinator.status().devices.map(\.uid) == ["auto_null"])
        #expect(await coordinator.status().sessions.first?.playing == false)
      }
    }

    /// The notifications of a step without device names: reasons and port types.
    static func kinds(_ result: CommandResult) -> [String] {
      result.notifications.map { notification in
        switch notification.event {
        case .routeChange(let reason, let previous, let current):
          "\(notification.session) routeChange \(reason.name) "
            + "\(previous.outputs.map(\.portType.name)) -> \(current.outputs.map(\.portType.name))"
        default: "\(notification.session) \(notification.event)"
        }
      }
    }
  }
}
