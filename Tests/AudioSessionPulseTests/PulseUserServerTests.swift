import AudioSession
import AudioSessionArbiter
import AudioSessionPulse
import AudioSessionPulseTestSupport
import AudioSessionSystem
import Foundation
import Testing

extension PulseAudioTests {
  /// `simulate plug` on a server the daemon did not start (a user's server;
  /// docs/pulseaudio-layer.md "Simulation"): it still works, and says that it loaded a virtual
  /// device there, which may become the default output, and how to remove it. The "user's server"
  /// here is a private server the test starts, never the real one.
  @Suite struct PulseUserServerTests {
    static func note(_ uid: String, _ modules: String) -> String {
      """
      '\(uid)' is a virtual device (\(modules)) loaded on the PulseAudio server you use; it may \
      become that server's default output, so that other applications play into it and are not \
      heard. 'sessionctl simulate unplug \(uid)' removes it (so does stopping the daemon); a \
      daemon started with --spawn-server simulates on a private server instead
      """
    }

    @Test(
      "simulate plug on a user's server plugs, and warns that it loaded a virtual device there and how to remove it (docs/pulseaudio-layer.md Simulation)"
    )
    func plug_usersServer_warnsAndUnplugRemoves() async throws {
      let server = try PulsePrivateServer.start()
      defer { server.stop() }
      let (_, coordinator) = try await PulseBackendHarness.onServer(server)
      let plug = await coordinator.run(.simulate(.plug(preset: "headphones")))
      #expect(plug.error == nil)
      #expect(plug.warnings == [Self.note("headphones-1", "module-null-sink")])
      let headset = await coordinator.run(.simulate(.plug(preset: "headset")))
      #expect(
        headset.warnings == [Self.note("headset-1", "module-null-sink, module-sine-source")])
      #expect(await coordinator.status().devices.map(\.uid).contains("headphones-1"))
      // Unplugging removes it, with nothing to warn about.
      let unplug = await coordinator.run(.simulate(.unplug("headphones-1")))
      #expect(unplug.error == nil)
      #expect(unplug.warnings.isEmpty)
      #expect(!(await coordinator.status().devices.map(\.uid).contains("headphones-1")))
      await coordinator.shutdown()
    }

    @Test(
      "simulate plug on the daemon's own private server has nothing to warn about (docs/pulseaudio-layer.md Simulation)"
    )
    func plug_spawnedServer_noWarning() async throws {
      try await withPulseBackend(scope: .system) { _, coordinator in
        let plug = await coordinator.run(.simulate(.plug(preset: "headphones")))
        #expect(plug.error == nil)
        #expect(plug.warnings.isEmpty)
      }
    }
  }
}
