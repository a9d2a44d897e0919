import AudioSession
import AudioSessionArbiter
import AudioSessionPulseTestSupport
import AudioSessionSystem
import AudioSessionTestSupport
import Foundation
import Testing

@testable import AudioSessionPulse

extension PulseAudioTests {
  /// Faults: a server that cannot be reached, refuses, or dies mid-scenario
  /// (docs/pulseaudio-layer.md "Loss and reconnection"). The test owns the server, kills it and
  /// starts it again.
  @Suite struct PulseFaultTests {
    static let music: [Command] = [
      .input(.setCategory(session: "music", category: .playback, mode: nil, options: [])),
      .input(.setActive(session: "music", active: true, options: [])),
      .input(.startIO(session: "music")),
    ]

    static func backend(at server: String, cookie: String?) throws -> PulseAudioBackend {
      PulseAudioBackend(
        configuration: try PulseBackendHarness.configuration(
          .address(server, cookieFile: cookie), .simulated))
    }

    // docs/pulseaudio.md §5 (FAILED within ms, single-use contexts, indices restart, modules gone);
    // docs/avaudiosession.md §6.4 (mediaServicesWereLost, then …WereReset)
    @Test(
      "a server killed mid-scenario: lost, clear errors meanwhile, reconnection with backoff, reset, devices re-created"
    )
    func killAndRestart_midScenario_lostThenResetAndResynced() async throws {
      let server = try PulsePrivateServer.start(modules: [
        .init("module-role-cork", arguments: "trigger_roles=phone cork_roles=music,video")
      ])
      defer { server.stop() }
      let backend = try Self.backend(at: server.serverString, cookie: server.cookiePath)
      let coordinator = try await ArbiterDriver(
        policy: TestPolicies.policy(), backend: backend, devices: nil)
      _ = await PulseBackendHarness.run(Self.music, on: coordinator)
      let devices = await coordinator.status().devices
      let observed = await coordinator.recordObserved()

      // When the server is killed
      server.kill()

      // Then the session is told its media services were lost
      let lost = try await observed.next("lost") { $0 == .mediaServicesLost }
      #expect(lost.notifications.map(\.event) == [.mediaServicesWereLost])

      // and while the server is down, simulation fails with a sentence, the engine runs on
      let plug = await coordinator.run(.simulate(.plug(preset: "headphones")))
      #expect(plug.error?.code == .mediaServicesFailed)
      #expect(
        plug.error?.message
          == "Cannot simulate plug headphones: the connection to the PulseAudio server is lost; "
          + "the backend is reconnecting and the engine keeps running on what it knew")
      #expect(await coordinator.status().devices == devices)
      try await Task.sleep(for: .milliseconds(600))

      // When the server comes back
      try server.restart()

      // Then the session is told the services were reset, after retries that waited longer
      // each time (20 ms doubling to 200 ms: a few attempts in 600 ms, not thirty)
      // A restart under the whole suite's load may take longer than a quiet one: a wait, not a figure.
      let reset = try await observed.next("reset", timeout: .seconds(40)) {
        $0 == .mediaServicesReset
      }
      #expect(reset.notifications.map(\.event) == [.mediaServicesWereReset])
      let attempts = await backend.history.attempts
      #expect((3...12).contains(attempts), "\(attempts) attempts")

      // and the simulated devices exist again on the new server, with the same UIDs
      #expect(await coordinator.status().devices == devices)
      let observer = try PulseContext(name: "audiosession-tests-observer")
      defer { observer.disconnect() }
      try await observer.connect(to: server.serverString, cookieFile: server.cookiePath)
      let simulated = try await observer.devices().compactMap {
        $0.properties["audiosession.device"]
      }
      #expect(Set(simulated) == Set(devices.map(\.uid)))

      // and the app can configure and play again, on a real stream
      let again = await PulseBackendHarness.run(Self.music, on: coordinator)
      #expect(again.allSatisfy { $0.error == nil })
      await backend.synchronize()
      #expect(
        try await observer.sinkInputs().contains {
          $0.properties["audiosession.session"] == "music"
        })
      await backend.synchronize()
      #expect(await observed.events.count == 2)
      #expect(await backend.problems == [])
      await coordinator.shutdown()
    }

    // docs/contract.md "Bad input": a server that cannot be reached gives a clear message
    @Test("start against a socket nobody listens on fails with a sentence that says what to do")
    func start_unreachableServer_clearMessage() async throws {
      let backend = try Self.backend(at: "unix:/nonexistent/pulse/native", cookie: nil)
      let error = await #expect(throws: SessionError.self) {
        _ = try await ArbiterDriver(
          policy: TestPolicies.policy(), backend: backend, devices: nil)
      }
      #expect(error?.code == .mediaServicesFailed)
      #expect(
        error?.message.hasPrefix(
          "cannot connect to the PulseAudio server at unix:/nonexistent/pulse/native: ") == true)
      #expect(
        error?.message.hasSuffix(
          "Start one, point PULSE_SERVER at one, or let sessionctl start a private server of "
            + "its own (--spawn-server: 'sessionctl daemon --backend pulse --spawn-server', "
            + "'sessionctl scenario run FILE --backend pulse --spawn-server')") == true)
    }

    // docs/pulseaudio.md §1.1 (a killed server leaves a stale socket): the connection is refused
    @Test("start against a dead server's stale socket is refused, and says so")
    func start_staleSocket_refused() async throws {
      let server = try PulsePrivateServer.start()
      defer { server.stop() }
      server.kill()
      #expect(FileManager.default.fileExists(atPath: server.socketPath))
      let backend = try Self.backend(at: server.serverString, cookie: server.cookiePath)
      let error = await #expect(throws: SessionError.self) {
        _ = try await backend.start(
          catalog: TestPolicies.table().devices, initialDevices: ["builtInSpeaker"])
      }
      #expect(
        error?.message.contains(": \(PulseError.connectionRefused). Start one") == true,
        "\(error?.message ?? "no error")")
    }

    // docs/contract.md simulate server-restart ("restarts the private server the backend started")
    @Test("server-restart on a server sessionctl did not start is refused with the reason")
    func serverRestart_foreignServer_refused() async throws {
      let server = try PulsePrivateServer.start()
      defer { server.stop() }
      let backend = try Self.backend(at: server.serverString, cookie: server.cookiePath)
      let coordinator = try await ArbiterDriver(
        policy: TestPolicies.policy(), backend: backend, devices: nil)
      let result = await coordinator.run(.simulate(.serverRestart))
      #expect(result.error?.code == .badParam)
      #expect(
        result.error?.message
          == "server-restart restarts the private server sessionctl started; this backend uses "
          + "the PulseAudio server at \(server.serverString), which it cannot restart (start "
          + "the daemon with 'sessionctl daemon --backend pulse --spawn-server', or run the "
          + "scenario with --spawn-server)")
      #expect(result.notifications.isEmpty)
      await coordinator.shutdown()
    }
  }
}
