import AudioSessionSystem
import Testing

/// The delays between reconnection attempts that the client library and `sessionctl watch`
/// share (clients reconnect by themselves: docs/protocol.md "Sessions, owners and lifetime").
@Suite struct ReconnectBackoffTests {
  @Test("reconnection waits 50 ms, then doubles up to once a second (docs/protocol.md Sessions)")
  func nextDelay_doublesUpToOneSecond() {
    var backoff = ReconnectBackoff()
    let delays = (0..<8).map { _ in backoff.nextDelay() }
    #expect(
      delays == [
        .milliseconds(50), .milliseconds(100), .milliseconds(200), .milliseconds(400),
        .milliseconds(800), .seconds(1), .seconds(1), .seconds(1),
      ])
  }

  @Test(
    "the PulseAudio backend's own delays double the same way, up to its longest (docs/pulseaudio-layer.md Loss and reconnection)"
  )
  func nextDelay_customDelays_doubleUpToTheirLongest() {
    var backoff = ReconnectBackoff(first: .milliseconds(100), longest: .seconds(2))
    let delays = (0..<7).map { _ in backoff.nextDelay() }
    #expect(
      delays == [
        .milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(800),
        .milliseconds(1600), .seconds(2), .seconds(2),
      ])
  }
}
