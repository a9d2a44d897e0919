import AudioSessionSystem
import Foundation
import PropertyBased
import Testing

@testable import AudioSessionPulse

extension PulseAudioTests {
  /// The loop thread's mute of the streams on a sink that goes (docs/apps.md "On the server",
  /// unplug): only armed streams, each once, listed in the intent file before it is muted, and
  /// handed back to the backend only with a snapshot that settled after the mute.
  @Suite struct PulseUnplugGuardTests {
    static func intentFile() throws -> (path: String, descriptor: Int32) {
      let path = NSTemporaryDirectory() + "unplug-guard-\(UUID().uuidString).intent"
      return (path, try SafeFile.openAppending(path))
    }

    @Test(
      "a stream on the sink that goes is listed in the intent file, then muted, once; one not armed is left alone (docs/apps.md \"A daemon that was killed\")"
    )
    func firesArmedStreamsOnce() throws {
      let (path, descriptor) = try Self.intentFile()
      defer {
        close(descriptor)
        unlink(path)
      }
      let guarding = PulseUnplugGuard()
      guarding.arm([4: Array("four\n".utf8), 6: Array("six\n".utf8)], intentFile: descriptor)
      var muted: [UInt32] = []
      var listedWhenMuted: [String] = []
      guarding.fire([3, 4, 6], sequence: 10) { index in
        muted.append(index)
        listedWhenMuted.append(String(decoding: (try? SafeFile.read(path)) ?? [], as: UTF8.self))
      }
      #expect(muted == [4, 6])
      #expect(listedWhenMuted == ["four\n", "four\nsix\n"])
      // The same sink's removal seen twice, or another sink with the stream: no second mute.
      guarding.fire([4], sequence: 11) { muted.append($0) }
      #expect(muted == [4, 6])
    }

    @Test(
      "what was fired is taken by the first snapshot that settled after it, not by one that settled before; the intent file is not emptied meanwhile"
    )
    func takenAfterItsSnapshot() async {
      await propertyCheck(
        input: Gen<Int>.int(in: 0...50), Gen<Int>.int(in: 0...50)
      ) { fireSequence, snapshotSequence in
        let guarding = PulseUnplugGuard()
        guarding.arm([7: Array("x\n".utf8)], intentFile: -1)
        guarding.fire([7], sequence: fireSequence) { _ in }
        var emptied = false
        guarding.unlessFired { emptied = true }
        #expect(!emptied)
        let taken = guarding.takeFired(before: snapshotSequence)
        #expect(taken == (snapshotSequence > fireSequence ? [7] : []))
        emptied = false
        guarding.unlessFired { emptied = true }
        #expect(emptied == (snapshotSequence > fireSequence))
        // Disarmed (a new connection, the backend stops): nothing fires.
        guarding.disarm()
        var muted = false
        guarding.fire([7], sequence: 0) { _ in muted = true }
        #expect(!muted)
      }
    }
  }
}
