import AudioSession
import AudioSessionPulse
import AudioSessionSystem
import AudioSessionWire
import Testing

extension PulseAudioTests {
  /// The index → snapshot cache that keeps removed devices describable (docs/pulseaudio.md §1.3
  /// consequences (a) and (b)).
  @Suite struct PulseDeviceCacheTests {
    // docs/pulseaudio.md §1.3 (a): a change can precede the new for the same index
    @Test("upsert replaces the snapshot of the same direction and index")
    func upsert_changeThenNew_keepsLatestSnapshot() {
      var cache = PulseDeviceCache()
      var first = PulseDeviceSnapshot.sink(["device.form_factor": "headphone"])
      first.index = 4
      var second = first
      second.isMuted = true

      cache.upsert(first)
      cache.upsert(second)

      #expect(cache.devices == [second])
      #expect(cache[.output, 4] == second)
      #expect(cache[.input, 4] == nil)
    }

    // docs/pulseaudio.md §1.3 (b): removed objects cannot be introspected
    @Test("remove returns the last snapshot and forgets it; an unknown index returns nil")
    func remove_cachedSink_returnsLastSnapshot() {
      var sink = PulseDeviceSnapshot.sink()
      sink.index = 2
      var source = PulseDeviceSnapshot.source()
      source.index = 2
      var cache = PulseDeviceCache([sink, source])

      #expect(cache.remove(.output, index: 2) == sink)
      #expect(cache.remove(.output, index: 2) == nil)
      #expect(cache.devices == [source])
    }

    // docs/pulseaudio.md §5 (reconnect = full resync)
    @Test("replaceAll drops what the new listing does not contain")
    func replaceAll_afterRestart_holdsOnlyNewListing() {
      var old = PulseDeviceSnapshot.sink()
      old.index = 9
      var cache = PulseDeviceCache([old])
      let fresh = PulseDeviceSnapshot.source()

      cache.replaceAll([fresh])

      #expect(cache.devices == [fresh])
      #expect(cache[.output, 9] == nil)
    }
  }
}
