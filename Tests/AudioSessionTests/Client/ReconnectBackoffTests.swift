import AudioSession
import Testing

/// The delays between reconnection attempts that the client library and `sessionctl watch`
/// share (issue 4 item 5: clients reconnect by themselves).
@Suite struct ReconnectBackoffTests {
  @Test("reconnection waits 50 ms, then doubles up to once a second (issue 4 item 5)")
  func nextDelay_doublesUpToOneSecond() {
    var backoff = ReconnectBackoff()
    let delays = (0..<8).map { _ in backoff.nextDelay() }
    #expect(
      delays == [
        .milliseconds(50), .milliseconds(100), .milliseconds(200), .milliseconds(400),
        .milliseconds(800), .seconds(1), .seconds(1), .seconds(1),
      ])
  }
}
