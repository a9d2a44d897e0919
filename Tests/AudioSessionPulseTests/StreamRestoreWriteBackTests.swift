import AudioSession
import AudioSessionArbiter
import AudioSessionPulseTestSupport
import AudioSessionSystem
import Testing

@testable import AudioSessionPulse

extension PulseAudioTests {
  /// What the backend writes into PulseAudio's stream database for another program's stream it
  /// had muted, when the stream went before the server saved the undo (docs/apps.md "On the
  /// server"): on a real PulseAudio with module-stream-restore, as a desktop's default.pa loads it.
  @Suite struct StreamRestoreWriteBackTests {
    static let entryName = "sink-input-by-media-role:music"

    /// The database's entry for music-role streams, once `condition` holds for it (nil after
    /// five seconds).
    static func musicEntry(
      _ client: PulseContext, where condition: (PulseStreamRestoreEntry) -> Bool
    ) async throws -> PulseStreamRestoreEntry? {
      let deadline = ContinuousClock.now + .seconds(5)
      var entry: PulseStreamRestoreEntry?
      repeat {
        entry = try await client.streamRestoreEntries().first { $0.name == entryName }
        if let entry, condition(entry) { return entry }
        try await Task.sleep(for: .milliseconds(20))
      } while ContinuousClock.now < deadline
      return nil
    }

    @Test(
      "the first program of a role, muted by the backend and gone before the server saved the unmute, leaves an entry with a mute and no volume; the backend writes it back unmuted, so the role's next stream is heard (docs/apps.md \"On the server\")"
    )
    func muteOnlyEntryWrittenBack() async throws {
      let server = try PulsePrivateServer.start(modules: [
        PulseTestDevices.speaker(), .init("module-stream-restore", arguments: ""),
      ])
      defer { server.stop() }
      let (backend, coordinator) = try await PulseBackendHarness.onServer(server)
      let client = try PulseContext(name: "another-program")
      try await client.connect(to: server.serverString, cookieFile: server.cookiePath)
      defer { client.disconnect() }

      // Another program's music stream, muted (as the backend mutes it: saved by the server);
      // nobody ever set the role's volume.
      let music = try PulsePlaybackStream(
        context: client, name: "music", properties: ["media.role": "music"])
      try await music.connect()
      let input = try #require(
        try await client.sinkInputs().first { $0.properties["media.role"] == "music" })
      try await client.setSinkInputMute(input.index, muted: true)
      let saved = try #require(try await Self.musicEntry(client) { $0.isMuted })
      #expect(saved.volumes.isEmpty, "the premise: PulseAudio kept no volume, \(saved.volumes)")

      // It goes with the mute saved (its program was killed before the server saved the undo).
      music.disconnect()
      var state = PulseAudioBackend.OtherStreamState()
      state.mutedByUs = true
      await backend.forgetChanges(
        state,
        of: ServerStream(
          key: .init(.playback, input.index), properties: input.properties,
          clientIndex: input.clientIndex))
      let entry = try #require(
        try await client.streamRestoreEntries().first { $0.name == Self.entryName })
      #expect(!entry.isMuted)
      #expect(entry.volumes.isEmpty)

      // The role's next stream starts unmuted.
      let next = try PulsePlaybackStream(
        context: client, name: "next", properties: ["media.role": "music"])
      try await next.connect()
      defer { next.disconnect() }
      let shown = try #require(
        try await client.sinkInputs().first { $0.properties["media.name"] == "next" })
      #expect(!shown.isMuted)
      await coordinator.shutdown()
    }
  }
}
