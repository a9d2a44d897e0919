import AudioSession
import AudioSessionDaemon
import AudioSessionDaemonTestSupport
import AudioSessionSystem
import AudioSessionTestSupport
import AudioSessionWire
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Load the daemon must survive, and honest outcomes (docs/protocol.md "Limits"): a client that
/// half-closes is answered, a request past its client's deadline is not run, clients that never
/// read are disconnected at their outbox limit and all together at the daemon's, and a
/// connection past the limit is told why (docs/protocol.md "Framing", "Limits", "Request
/// timeout").
@Suite struct DaemonLoadTests {
  /// The error code of a reply line, if it is an error.
  static func errorCode(_ reply: JSONObject) -> String? {
    guard case .object(let error)? = reply["error"], case .string(let code)? = error["code"] else {
      return nil
    }
    return code
  }

  static func errorMessage(_ reply: JSONObject) -> String? {
    guard case .object(let error)? = reply["error"], case .string(let text)? = error["message"]
    else { return nil }
    return text
  }

  @Test(
    "requests followed by a half-close are answered, then the daemon closes (docs/protocol.md Framing)"
  )
  func halfClose_afterRequests_repliesThenEnd() async throws {
    let daemon = try await DaemonHarness.start()
    // Given clients that send requests and close their sending side (as `nc -N` does), the last
    // line without its newline
    for round in 0..<20 {
      let client = try RawSocketClient(path: daemon.socketPath)
      try client.write(
        line: #"{"v":1,"id":1,"op":"set","session":"half\#(round)","category":"playback"}"#)
      try client.write(Array(#"{"v":1,"id":2,"op":"status"}"#.utf8))
      client.shutdownWriting()
      // Then every request is answered, and the connection ends after the replies
      let lines = client.readToEnd()
      #expect(lines?.count == 2, "round \(round): \(lines ?? [])")
      #expect(lines?.first == #"{"v":1,"id":1,"result":"ok"}"#)
      #expect(lines?.last?.contains(#""half\#(round)":{"category":"playback""#) == true)
    }
    await daemon.stop()
  }

  @Test(
    "a request the daemon reaches after its client's deadline is refused and not run (docs/protocol.md Request timeout)"
  )
  func deadline_passed_requestIsNotRun() async throws {
    let daemon = try await DaemonHarness.start()
    let client = try RawSocketClient(path: daemon.socketPath)
    // When a request arrives a second after the deadline its client sent
    let past = WallClock.milliseconds() - 1000
    let late = try client.exchange(
      #"{"v":1,"id":1,"deadline":\#(past),"op":"set","session":"late","category":"playback"}"#)
    // Then it is refused, saying it was not run, and nothing changed
    #expect(late["id"] == .int(1))
    #expect(Self.errorCode(late) == "deadlineExceeded")
    #expect(
      Self.errorMessage(late)?.contains("after its client's deadline and was not run") == true)
    let before = try client.exchange(#"{"v":1,"id":2,"op":"status"}"#)
    #expect(!before.serialized.contains(#""late""#))
    // And the same request within its deadline runs
    let future = WallClock.milliseconds() + 60_000
    let inTime = try client.exchange(
      #"{"v":1,"id":3,"deadline":\#(future),"op":"set","session":"late","category":"playback"}"#)
    #expect(inTime["result"] == "ok")
    let after = try client.exchange(#"{"v":1,"id":4,"op":"status"}"#)
    #expect(after.serialized.contains(#""late":{"category":"playback""#))
    await daemon.stop()
  }

  @Test(
    "a deadline at either end of the numbers is answered, never a crash: the lowest is late, the highest in time (docs/protocol.md Request timeout)"
  )
  func deadline_extremes_answered() async throws {
    let daemon = try await DaemonHarness.start()
    let client = try RawSocketClient(path: daemon.socketPath)
    // When a request carries the lowest deadline a JSON integer can say (now minus it overflows)
    let lowest = try client.exchange(
      #"{"v":1,"id":1,"op":"status","deadline":-9223372036854775808}"#)
    // Then it is refused as late, and the daemon carries on
    #expect(Self.errorCode(lowest) == "deadlineExceeded")
    #expect(Self.errorMessage(lowest)?.contains("long after its client's deadline") == true)
    // And the highest deadline is in time
    let highest = try client.exchange(
      #"{"v":1,"id":2,"op":"status","deadline":9223372036854775807}"#)
    #expect(highest["status"] != nil, "\(highest.serialized)")
    await daemon.stop()
  }

  @Test(
    "the client library sends each request's deadline: now plus its request timeout (docs/protocol.md Request timeout)"
  )
  func request_sendsItsDeadline() throws {
    let server = try SilentSocketServer()
    defer { server.stop() }
    let client = try DaemonConnection(socketPath: server.path, requestTimeout: .milliseconds(300))
    let before = WallClock.milliseconds()
    _ = try? client.request(.command(.status))
    let after = WallClock.milliseconds()
    let line = try #require(server.waitForLines(1).first)
    guard case .object(let request) = try JSONParser.parse(line),
      case .int(let deadline)? = request["deadline"]
    else {
      Issue.record("no deadline in \(line)")
      return
    }
    #expect(deadline >= before + 300 && deadline <= after + 300, "\(line)")
  }

  /// Sessions every plug and unplug re-routes, so that each one is a notification per session
  /// to every watcher.
  static func makeRoutedSessions(_ driver: RawSocketClient) throws {
    for index in 0..<5 {
      let set = try driver.exchange(
        #"{"v":1,"op":"set","session":"s\#(index)","category":"playback","options":["mixWithOthers"]}"#
      )
      #expect(set["result"] == "ok")
      #expect(
        try driver.exchange(#"{"v":1,"op":"activate","session":"s\#(index)"}"#)["result"] == "ok")
    }
  }

  /// Plugs and unplugs headphones (reading each reply) until `done` or `rounds` are over.
  static func flood(_ driver: RawSocketClient, rounds: Int, until done: () -> Bool) throws {
    for round in 0..<rounds {
      if round % 20 == 0, done() { return }
      _ = try driver.exchange(#"{"v":1,"op":"simulate","action":"plug","preset":"headphones"}"#)
      _ = try driver.exchange(#"{"v":1,"op":"simulate","action":"unplug","device":"headphones"}"#)
    }
  }

  /// Waits (at most 10 s) until `condition` holds.
  /// Clients that watch everything and never read.
  static func watchersThatNeverRead(_ socket: String, count: Int) throws -> [RawSocketClient] {
    try (0..<count).map { _ in
      let watcher = try RawSocketClient(path: socket)
      try watcher.write(line: #"{"v":1,"op":"watch","events":"all"}"#)
      return watcher
    }
  }

  static func eventually(_ condition: () -> Bool) -> Bool {
    let deadline = Date(timeIntervalSinceNow: 10)
    while Date() < deadline {
      if condition() { return true }
      usleep(20_000)
    }
    return condition()
  }

  @Test(
    "clients that never read are disconnected at their own outbox limit; the others are served and nothing stays queued (docs/protocol.md Limits)"
  )
  func outbox_clientsThatNeverRead_areDisconnectedAtTheirLimit() async throws {
    let limits = DaemonLimits(
      maxConnections: 100, clientOutboxBytes: 64 << 10, totalOutboxBytes: 64 << 20)
    let daemon = try await DaemonHarness.start(limits: limits)
    let driver = try RawSocketClient(path: daemon.socketPath)
    try Self.makeRoutedSessions(driver)
    // Given 10 clients that watch everything and never read
    let watchers = try Self.watchersThatNeverRead(daemon.socketPath, count: 10)
    // When notifications flood
    try Self.flood(driver, rounds: 5000) {
      daemon.server.loadStatistics.closedOverClientLimit == watchers.count
    }
    // Then each was disconnected once its own limit was reached, none for the total
    let statistics = daemon.server.loadStatistics
    #expect(statistics.closedOverClientLimit == watchers.count)
    #expect(statistics.closedOverTotalLimit == 0)
    // and what was sent before reaches it, then the end
    for watcher in watchers { #expect(watcher.readToEnd() != nil) }
    // and the client that reads is still served, and nothing stays queued
    #expect(try driver.exchange(#"{"v":1,"op":"status"}"#)["result"] == "ok")
    #expect(Self.eventually { daemon.server.loadStatistics.waitingBytes == 0 })
    await daemon.stop()
  }

  @Test(
    "past the daemon's total outbox limit the connection with the most queued is closed (docs/protocol.md Limits)"
  )
  func outbox_totalOverLimit_closesTheLargest() async throws {
    let limits = DaemonLimits(
      maxConnections: 100, clientOutboxBytes: 16 << 20, totalOutboxBytes: 256 << 10)
    let daemon = try await DaemonHarness.start(limits: limits)
    let driver = try RawSocketClient(path: daemon.socketPath)
    try Self.makeRoutedSessions(driver)
    let watchers = try Self.watchersThatNeverRead(daemon.socketPath, count: 10)
    try Self.flood(driver, rounds: 5000) {
      daemon.server.loadStatistics.closedOverTotalLimit == watchers.count
    }
    let statistics = daemon.server.loadStatistics
    #expect(statistics.closedOverTotalLimit == watchers.count)
    #expect(statistics.closedOverClientLimit == 0)
    #expect(try driver.exchange(#"{"v":1,"op":"status"}"#)["result"] == "ok")
    #expect(Self.eventually { daemon.server.loadStatistics.waitingBytes == 0 })
    await daemon.stop()
  }

  /// Makes `count` held sessions in one burst of pipelined `set` requests (what a status of
  /// many sessions needs, without one round trip each).
  static func makeSessions(_ driver: RawSocketClient, count: Int) throws {
    var burst = ""
    for index in 0..<count {
      burst += #"{"v":1,"op":"set","session":"bulk\#(index)","category":"playback"}"# + "\n"
    }
    try driver.write(Array(burst.utf8))
    for _ in 0..<count { #expect(driver.readLine() == #"{"v":1,"id":null,"result":"ok"}"#) }
  }

  @Test(
    "a status larger than the daemon's whole outbox limit goes out whole, even with notifications behind it (docs/protocol.md Limits)"
  )
  func outbox_replyOverTotal_deliveredWhole() async throws {
    // Given a daemon that holds 64 KiB for one client and 256 KiB for all, and 1,000 sessions:
    // a status of about 0.9 MB (as a status of 200,000 sessions, 220 MB, is over the 64 MiB
    // the daemon holds by default)
    let limits = DaemonLimits(
      maxConnections: 100, clientOutboxBytes: 64 << 10, totalOutboxBytes: 256 << 10)
    let daemon = try await DaemonHarness.start(limits: limits)
    let driver = try RawSocketClient(path: daemon.socketPath)
    try Self.makeSessions(driver, count: 1000)
    // When a client asks for the status
    let status = try driver.exchange(#"{"v":1,"id":1,"op":"status"}"#)
    // Then it gets it whole
    #expect(status["result"] == "ok")
    guard case .object(let all)? = status["status"], case .object(let sessions)? = all["sessions"]
    else {
      Issue.record("no sessions in \(status)")
      return
    }
    #expect(sessions.members.count == 1000)
    // When a client that watches everything asks for it and reads nothing until notifications
    // came behind it
    let watcher = try RawSocketClient(path: daemon.socketPath)
    #expect(try watcher.exchange(#"{"v":1,"op":"watch","events":"all"}"#)["result"] == "ok")
    try watcher.write(line: #"{"v":1,"id":2,"op":"status"}"#)
    #expect(try driver.exchange(#"{"v":1,"op":"activate","session":"bulk0"}"#)["result"] == "ok")
    #expect(
      try driver.exchange(
        #"{"v":1,"op":"set","session":"nav","category":"playback","options":["duckOthers"]}"#)[
          "result"] == "ok")
    #expect(try driver.exchange(#"{"v":1,"op":"activate","session":"nav"}"#)["result"] == "ok")
    // Then it gets the status whole, then the notification: its connection was not closed
    let reply = try #require(watcher.readLine())
    #expect(reply.hasPrefix(#"{"v":1,"id":2,"result":"ok","status":{"#), "\(reply.prefix(200))")
    #expect(reply.contains(#""bulk999":{"#))
    let duck = try #require(watcher.readLine())
    #expect(duck.contains(#""session":"bulk0","event":"duck""#), "\(duck)")
    let statistics = daemon.server.loadStatistics
    #expect(statistics.closedOverTotalLimit == 0)
    #expect(statistics.closedOverClientLimit == 0)
    #expect(Self.eventually { daemon.server.loadStatistics.waitingBytes == 0 })
    await daemon.stop()
  }

  @Test(
    "a large reply that does not fit beside another client's is refused with busy, and the connection carries on (docs/protocol.md Limits)"
  )
  func outbox_secondLargeReply_busyNotClosed() async throws {
    // Given a daemon that holds 512 KiB for all its clients, and a status of about 0.9 MB
    let limits = DaemonLimits(
      maxConnections: 100, clientOutboxBytes: 64 << 10, totalOutboxBytes: 512 << 10)
    let daemon = try await DaemonHarness.start(limits: limits)
    let driver = try RawSocketClient(path: daemon.socketPath)
    try Self.makeSessions(driver, count: 1000)
    // and a client whose status waits, unread
    let slow = try RawSocketClient(path: daemon.socketPath)
    try slow.write(line: #"{"v":1,"id":1,"op":"status"}"#)
    #expect(Self.eventually { daemon.server.loadStatistics.waitingBytes > 512 << 10 })
    // When another client asks for it
    let refused = try driver.exchange(#"{"v":1,"id":2,"op":"status"}"#)
    // Then it is told why, with its request's id
    #expect(refused["id"] == .int(2))
    #expect(Self.errorCode(refused) == "busy")
    let message = try #require(Self.errorMessage(refused))
    #expect(message.hasPrefix("the reply is "), "\(message)")
    #expect(
      message.hasSuffix(
        """
        beside the largest reply waiting it holds at most 524288 bytes for them all, so this \
        one was not sent; ask again once the others have gone out (docs/protocol.md "Limits")
        """), "\(message)")
    // and no connection was closed
    #expect(daemon.server.loadStatistics.closedOverTotalLimit == 0)
    // When the slow client reads its status
    let first = try #require(slow.readLine())
    #expect(first.hasPrefix(#"{"v":1,"id":1,"result":"ok","status":{"#))
    #expect(Self.eventually { daemon.server.loadStatistics.waitingBytes == 0 })
    // Then the other one's next ask is answered
    #expect(try driver.exchange(#"{"v":1,"id":3,"op":"status"}"#)["result"] == "ok")
    await daemon.stop()
  }

  @Test(
    "a connection past the limit is told why and closed; one that leaves makes room (docs/protocol.md Limits)"
  )
  func maxConnections_pastLimit_refusedWithReason() async throws {
    let daemon = try await DaemonHarness.start(limits: DaemonLimits(maxConnections: 3))
    // Given as many clients as the daemon serves
    var held = try (0..<3).map { _ in try RawSocketClient(path: daemon.socketPath) }
    for client in held {
      #expect(try client.exchange(#"{"v":1,"op":"status"}"#)["result"] == "ok")
    }
    // When one more connects
    let extra = try daemon.connect()
    let error = #expect(throws: ConnectionFailure.self) { try extra.request(.command(.status)) }
    // Then it is told why, and what to do
    #expect(
      error?.description == """
        the audio session daemon on '\(daemon.socketPath)' refused this connection: \
        tooManyConnections: this daemon already serves 3 connections, the most it takes; close \
        clients you no longer need (apps, 'sessionctl watch'), or restart the daemon with a \
        larger --max-connections (and open-file limit, ulimit -n)
        """)
    #expect(daemon.server.loadStatistics.refusedConnections == 1)
    // And once a client leaves, a new one is served
    held.removeFirst()
    var served = false
    for _ in 0..<100 where !served {
      let next = try RawSocketClient(path: daemon.socketPath)
      served = (try? next.exchange(#"{"v":1,"op":"status"}"#)["result"]) == "ok"
      if !served { usleep(20_000) }
    }
    #expect(served)
    await daemon.stop()
  }
}
