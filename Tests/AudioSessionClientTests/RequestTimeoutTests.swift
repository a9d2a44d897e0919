import AudioSession
import AudioSessionClient
import AudioSessionSystem
import AudioSessionTestSupport
import AudioSessionWire
import Foundation
import Testing

/// A daemon that accepts a connection but never answers (docs/protocol.md "Request timeout":
/// the client library and the live commands): each request waits at most its timeout, then fails
/// with a sentence that says so and what to do.
@Suite struct RequestTimeoutTests {
  @Test(
    "a request the daemon never answers fails after the timeout, saying so (docs/protocol.md Request timeout)"
  )
  func request_daemonNeverAnswers_failsAfterTimeout() throws {
    let server = try SilentSocketServer()
    defer { server.stop() }
    // Given a connection with a 200 ms request timeout to a daemon that never answers
    let client = try DaemonConnection(
      socketPath: server.path, requestTimeout: .milliseconds(200))
    #expect(client.requestTimeout == .milliseconds(200))
    // When a request is sent
    let clock = ContinuousClock()
    let started = clock.now
    let error = #expect(throws: ConnectionFailure.self) {
      try client.request(.command(.status))
    }
    let waited = clock.now - started
    // Then it fails once the timeout has passed (not long after), with a sentence
    #expect(waited >= .milliseconds(200) && waited < .seconds(3), "waited \(waited)")
    #expect(error?.isTimeout == true)
    #expect(
      error?.description
        == "the audio session daemon on '\(server.path)' did not answer 'status' within "
        + "0.2 s; it may be stuck or overloaded: restart it, or allow a longer request "
        + "timeout. The daemon does not run a request it reaches after that, but if it had "
        + "started this one it may still take effect: check before you repeat a change")
    // and the request did reach the daemon, and the connection is still open
    #expect(server.waitForLines(1).first?.contains(#""op":"status""#) == true)
    #expect(client.isConnected)
  }

  @Test(
    "a reply that comes after the timeout is dropped; the next request gets its own (docs/protocol.md Request timeout)"
  )
  func request_lateReply_isDroppedAndNextRequestGetsItsOwn() throws {
    let server = try SilentSocketServer()
    defer { server.stop() }
    let client = try DaemonConnection(
      socketPath: server.path, requestTimeout: .milliseconds(200))
    // Given a request that timed out
    #expect(throws: ConnectionFailure.self) { try client.request(.command(.devices)) }
    // When the daemon answers it late, then answers the next request
    let answered = Thread {
      let lines = server.waitForLines(2)
      guard lines.count == 2 else { return }
      server.reply(#"{"v":1,"id":1,"result":"ok","devices":[]}"#)
      server.reply(
        #"{"v":1,"id":2,"result":"error","error":{"code":"badParam","rawValue":-50,"message":"second"}}"#
      )
    }
    answered.start()
    let reply = try client.request(.command(.status))
    // Then the next request got its own reply, not the late one
    #expect(reply.id == 2)
    guard case .session(let error)? = reply.error else {
      Issue.record("not the second reply: \(reply)")
      return
    }
    #expect(error.message == "second")
  }

  @Test(
    "the library session fails to open with the timeout's sentence (docs/protocol.md Request timeout)"
  )
  func init_daemonNeverAnswers_throwsTimeout() throws {
    let server = try SilentSocketServer()
    defer { server.stop() }
    let error = #expect(throws: ConnectionFailure.self) {
      _ = try AVAudioSession(
        name: "app",
        connection: .daemon(socketPath: server.path, requestTimeout: .milliseconds(200)))
    }
    #expect(error?.isTimeout == true, "\(String(describing: error))")
    #expect(error?.description.contains("did not answer 'hello' within 0.2 s") == true)
  }

  @Test(
    "a session whose daemon stops answering: the call fails with mediaServicesFailed and the session starts over (docs/protocol.md Request timeout)"
  )
  func setActive_daemonStopsAnswering_failsAndReconnects() throws {
    let server = try SilentSocketServer()
    defer { server.stop() }
    // Given a session opened on a daemon that answers hello and open, then nothing more
    let opened = Thread {
      for id in 1...2 {
        guard server.waitForLines(id).count == id else { return }
        server.reply(#"{"v":1,"id":\#(id),"result":"ok"}"#)
      }
    }
    opened.start()
    let session = try AVAudioSession(
      name: "app", connection: .daemon(socketPath: server.path, requestTimeout: .milliseconds(200)))
    defer { session.invalidate() }
    let events = EventRecorder(session.events)
    // When a call gets no answer in time
    let error = #expect(throws: NSError.self) { try session.setActive(true) }
    // Then it fails with mediaServicesFailed saying why, and the session is told it lost the
    // media services (it reconnects and registers again, as after a daemon restart)
    #expect(error?.sessionError?.code == .mediaServicesFailed)
    #expect(
      error?.sessionError?.message.hasPrefix(
        "the audio session daemon on '\(server.path)' did not answer 'activate' within 0.2 s")
        == true)
    #expect(events.wait { $0.contains(.mediaServicesWereLost) } == [.mediaServicesWereLost])
    #expect(server.waitForLines(4).dropFirst(3).first?.contains(#""op":"hello""#) == true)
  }

  @Test("timeouts are written in seconds (docs/protocol.md Request timeout)")
  func describe_durations_inSeconds() {
    #expect(DaemonConnection.describe(.seconds(5)) == "5 s")
    #expect(DaemonConnection.describe(.milliseconds(250)) == "0.25 s")
    #expect(DaemonConnection.describe(.milliseconds(1500)) == "1.5 s")
    #expect(DaemonConnection.defaultRequestTimeout == .seconds(5))
  }
}
