import AudioSession
import AudioSessionSystem
import PropertyBased
import Testing

@testable import AudioSessionPulse

#if canImport(Glibc)
  import Glibc
#endif

extension PulseAudioTests {
  /// The names of the server's memory of streams, read back into the property a stream needs
  /// to be remembered under them: what the backend opens to repair WirePlumber 0.5's saved
  /// state of a stream that went muted or ducked (docs/apps.md "WirePlumber 0.5 keeps a mute").
  @Suite struct PulseStreamRestoreEntryTests {
    static let characters = Array("abcXYZ019_.-: /")
    static let values = Gen<Character?>.element(of: characters).map { $0 ?? "a" }
      .string(of: 1...12)
    static let keys = Gen<String?>.element(of: ["media.role", "application.id", "application.name"])
      .map { $0 ?? "media.role" }
    static let directions = Gen<ServerStream.Direction?>.element(of: [.playback, .record])
      .map { $0 ?? .playback }

    @Test(
      "a stream given the properties read from an entry's name is remembered under that name, by role, application id or application name (docs/apps.md \"WirePlumber 0.5 keeps a mute\")"
    )
    func propertiesRoundTrip() async {
      await propertyCheck(input: Self.keys, Self.values, Self.directions) { key, value, direction in
        let name = PulseStreamRestoreEntry.name(of: [key: value], direction: direction)
        let read = name.flatMap { PulseStreamRestoreEntry.properties(ofEntry: $0) }
        #expect(read?.direction == direction)
        #expect(read?.properties == [key: value])
        #expect(
          read.flatMap {
            PulseStreamRestoreEntry.name(of: $0.properties, direction: $0.direction)
          } == name)
      }
    }

    @Test(
      "an entry by media name, or a name of another form, gives no properties: no stream a PulseAudio client opens is remembered under it"
    )
    func otherNames() {
      for name in [
        "sink-input-by-media-name:Music", "source-output-by-media-name:x",
        "sink-input-by-role:music",
        "sink-input-by-media-role:", "sink-input-by-media-role", "card:alsa", "",
        "sink-by-media-role:music",
      ] {
        #expect(PulseStreamRestoreEntry.properties(ofEntry: name) == nil, "\(name)")
      }
      // A value may hold the separator itself.
      #expect(
        PulseStreamRestoreEntry.properties(ofEntry: "sink-input-by-application-id:org.a:b")?
          .properties == ["application.id": "org.a:b"])
    }

    @Test(
      "restored volumes count as the ducked ones within 1 % of the full volume, channel by channel (WirePlumber keeps volumes as floats)"
    )
    func nearlyTheDuckedVolumes() async {
      let tolerance = PulseVolume.normal.rawValue / 100
      await propertyCheck(
        input: Gen<UInt32>.value(in: 0...0x10000).array(of: 1...4),
        Gen<UInt32>.value(in: 0...(2 * tolerance))
      ) { raw, offset in
        let target = raw.map { PulseVolume(rawValue: $0 + tolerance) }
        let shifted = raw.map { PulseVolume(rawValue: $0 + offset) }
        #expect(PulseAudioBackend.nearly(shifted, target))
        let beyond = raw.map { PulseVolume(rawValue: $0 + 2 * tolerance + 1 + offset) }
        #expect(!PulseAudioBackend.nearly(beyond, target))
        #expect(!PulseAudioBackend.nearly(Array(shifted.dropLast()), target))
      }
    }

    @Test(
      "a program killed and not yet reaped (a zombie) has ended, as one reaped; a running one has not (docs/apps.md \"WirePlumber 0.5 keeps a mute\")"
    )
    func zombieHasEnded() throws {
      let child = try ChildProcess.spawn("/bin/sleep", arguments: ["30"])
      #expect(!PulseAudioBackend.processEnded(child.pid))
      kill(child.pid, SIGKILL)
      // Not reaped yet: still answers kill(pid, 0); /proc shows Z once the kill has landed.
      var ended = false
      for _ in 0..<200 where !ended {
        ended = PulseAudioBackend.processEnded(child.pid)
        if !ended { usleep(5_000) }
      }
      #expect(ended)
      #expect(kill(child.pid, 0) == 0, "the test meant a zombie, but the child was reaped")
      _ = child.waitForExit(seconds: 5)
      #expect(PulseAudioBackend.processEnded(child.pid))
    }
  }
}
