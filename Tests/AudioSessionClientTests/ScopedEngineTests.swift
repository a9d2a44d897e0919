import AudioSession
import AudioSessionClient
import AudioSessionDaemonTestSupport
import AudioSessionHost
import AudioSessionTestSupport
import Foundation
import Testing

/// `AVAudioSession.withInProcessEngine(_:_:)`: a task-local binding of `sharedInstance()`, so
/// that tests run in parallel, each with an engine of its own (docs/ios-compat.md "Scoped
/// engines for parallel tests"). Not serialized: the point is that they run at once.
@Suite struct ScopedEngineTests {
  /// What an observer saw: the object of each notification, and the shared session its block
  /// read.
  final class Sightings: @unchecked Sendable {
    private let lock = NSLock()
    private var objects: [ObjectIdentifier] = []
    private var shared: [String] = []

    func record(object: AnyObject?, shared name: String) {
      lock.withLock {
        objects.append(object.map(ObjectIdentifier.init) ?? ObjectIdentifier(Sightings.self))
        shared.append(name)
      }
    }

    var count: Int { lock.withLock { objects.count } }
    var objectsSeen: [ObjectIdentifier] { lock.withLock { objects } }
    var sharedSeen: [String] { lock.withLock { shared } }
  }

  /// Waits (up to 10 s) for `condition`: the engine posts on its own thread.
  static func eventually(_ condition: () -> Bool) -> Bool {
    let deadline = Date(timeIntervalSinceNow: 10)
    while !condition() {
      if Date() > deadline { return false }
      Thread.sleep(forTimeInterval: 0.005)
    }
    return true
  }

  static let categories: [AVAudioSession.Category] = [
    .playback, .playAndRecord, .record, .soloAmbient, .playback, .playAndRecord,
  ]

  @Test(
    "tests in parallel, each with its own scoped engine, see only their own session, category and interruption, and the observer's block reads the scope's sharedInstance() (docs/ios-compat.md Scoped engines for parallel tests)",
    arguments: categories.indices)
  func scopedEngine_parallelTests_doNotSeeEachOther(index: Int) throws {
    let category = Self.categories[index]
    let system = try EmbeddedAudioSystem(policyDirectory: Repository.policies)
    try AVAudioSession.withInProcessEngine(system) {
      let session = AVAudioSession.sharedInstance()
      #expect(AVAudioSession.sharedInstance() === session)
      let mine = Sightings()
      let token = NotificationCenter.default.addObserver(
        forName: AVAudioSession.interruptionNotification, object: session, queue: nil
      ) { notification in
        // Posted on the engine's thread, inside the scope: the block's sharedInstance() is the
        // scope's, as an iOS handler that reactivates `AVAudioSession.sharedInstance()` needs.
        mine.record(
          object: notification.object as AnyObject?,
          shared: AVAudioSession.sharedInstance().name)
      }
      defer { NotificationCenter.default.removeObserver(token) }
      try session.setCategory(category)
      try session.setActive(true)
      // The engine holds this test's session only, with this test's category.
      let sessions = system.status().sessions
      #expect(sessions.map(\.name) == [session.name])
      #expect(session.category == category)
      try system.simulate(.call(active: true))
      #expect(Self.eventually { mine.count >= 1 })
      // Other tests' calls interrupt their own sessions only: one notification here, this
      // session's.
      #expect(mine.count == 1)
      #expect(mine.objectsSeen == [ObjectIdentifier(session)])
      #expect(mine.sharedSeen == [session.name])
      #expect(system.status().sessions.first?.interrupted == true)
    }
  }

  @Test(
    "a scope's session is not the process's, and goes when the scope ends (docs/ios-compat.md Scoped engines for parallel tests)"
  )
  func scopedEngine_scopeEnds_sessionIsInvalidated() async throws {
    let system = try EmbeddedAudioSystem(policyDirectory: Repository.policies)
    let name = try await AVAudioSession.withInProcessEngine(system) {
      let session = AVAudioSession.sharedInstance()
      try session.setCategory(.playback)
      try session.setActive(true)
      // A task started inside the scope inherits the binding.
      let inner = await Task { AVAudioSession.sharedInstance().name }.value
      #expect(inner == session.name)
      #expect(system.status().sessions.map(\.name) == [session.name])
      return session.name
    }
    #expect(name.contains("-scope"))
    #expect(Self.eventually { system.status().sessions.isEmpty })
  }

  @Test(
    "the synchronous form binds the same way (docs/ios-compat.md Scoped engines for parallel tests)"
  )
  func scopedEngine_synchronousBody_bindsTheScope() throws {
    let system = try EmbeddedAudioSystem(policyDirectory: Repository.policies)
    try AVAudioSession.withInProcessEngine(system) {
      let session = AVAudioSession.sharedInstance()
      try session.setCategory(.ambient)
      #expect(system.status().sessions.map(\.configuration.category) == [.ambient])
    }
  }

  @Test(
    "withDaemon binds sharedInstance() to a session of the scope's own in that daemon (docs/ios-compat.md Scoped engines for parallel tests)"
  )
  func scopedDaemon_bindsTheScopeToItsDaemon() async throws {
    let harness = try await DaemonHarness.start()
    let name = try await AVAudioSession.withDaemon(socketPath: harness.socketPath) {
      let session = AVAudioSession.sharedInstance()
      try session.setCategory(.playAndRecord)
      let sessions = await harness.core.status().sessions
      #expect(sessions.map(\.name) == [session.name])
      #expect(sessions.first?.configuration.category == .playAndRecord)
      return session.name
    }
    #expect(name.contains("-scope"))
    #expect(await Self.eventually(harness))
    await harness.stop()
  }

  /// Waits (up to 60 s: the whole suite runs beside it, and the connection's close reaches the
  /// daemon through the cooperative pool) until the daemon holds no session.
  static func eventually(_ harness: DaemonHarness) async -> Bool {
    let deadline = Date(timeIntervalSinceNow: 60)
    while await !harness.core.status().sessions.isEmpty {
      if Date() > deadline { return false }
      try? await Task.sleep(for: .milliseconds(5))
    }
    return true
  }
}
