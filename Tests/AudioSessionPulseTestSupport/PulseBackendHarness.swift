package import AudioSession
package import AudioSessionArbiter
package import AudioSessionPulse
import AudioSessionSystem
import AudioSessionTestSupport
import AudioSessionWire
import Testing

/// A PulseAudio backend on a private server it starts itself, with a coordinator around it, for
/// one test: stopped (server included) when `body` returns or throws.
package func withPulseBackend(
  _ kind: PulseBackendConfiguration.Kind = .pulseaudio,
  devices: [String]? = nil, scope: PulseBackendConfiguration.Devices = .simulated,
  profile: String? = nil, movableStreams: Bool = false,
  _ body: (PulseAudioBackend, ArbiterDriver) async throws -> Void
) async throws {
  var configuration = try PulseBackendHarness.configuration(.spawn(kind), scope)
  configuration.policy.streams.movable = movableStreams
  let backend = PulseAudioBackend(configuration: configuration)
  let coordinator = try await ArbiterDriver(
    policy: TestPolicies.policy(profile), backend: backend, devices: devices)
  do {
    try await body(backend, coordinator)
  } catch {
    await coordinator.shutdown()
    throw error
  }
  await coordinator.shutdown()
}

package enum PulseBackendHarness {
  /// The repository's policies/pulse.json, with a short settle limit for tests.
  package static func configuration(
    _ server: PulseBackendConfiguration.Server, _ scope: PulseBackendConfiguration.Devices
  ) throws -> PulseBackendConfiguration {
    PulseBackendConfiguration(
      server: server, devices: scope, policy: try PulsePolicy.load(directory: Repository.policies),
      reconnectDelays: (.milliseconds(20), .milliseconds(200)), settleLimit: .seconds(10))
  }

  /// A backend with a coordinator around it on a server the test started, used as a user's
  /// server is (by address, with the server's own devices).
  package static func onServer(
    _ server: PulsePrivateServer
  ) async throws -> (backend: PulseAudioBackend, coordinator: ArbiterDriver) {
    let backend = PulseAudioBackend(
      configuration: try configuration(
        .address(server.serverString, cookieFile: server.cookiePath), .system))
    let coordinator = try await ArbiterDriver(
      policy: TestPolicies.policy(), backend: backend, devices: nil)
    return (backend, coordinator)
  }

  /// The same commands on the simulated backend: the transcript the pulse backend must match.
  package static func simulated(
    _ commands: [Command], devices: [String]? = nil, profile: String? = nil
  ) async throws -> [CommandResult] {
    let coordinator = try await ArbiterDriver(
      policy: TestPolicies.policy(profile), backend: InMemoryAudioBackend(), devices: devices)
    var results: [CommandResult] = []
    for command in commands { results.append(await coordinator.run(command)) }
    await coordinator.shutdown()
    return results
  }

  /// Music configured, active and playing.
  package static let music: [Command] = [
    .input(.setCategory(session: "music", category: .playback, mode: nil, options: [])),
    .input(.setActive(session: "music", active: true, options: [])),
    .input(.startIO(session: "music")),
  ]

  /// Music plays; another application's phone-role stream starts and stops. Checks music gets
  /// began by call with its stream corked, then ended with shouldResume
  /// (docs/avaudiosession.md §5.1 A4, §12 D6), and returns what the backend observed meanwhile.
  package static func foreignCallInterruptsMusic(
    _ backend: PulseAudioBackend, _ coordinator: ArbiterDriver
  ) async throws -> PulseEventRecorder<ObservedOutcome> {
    let observer = try await PulseBackendObserver(backend)
    _ = await run(music, on: coordinator)
    let observed = await coordinator.recordObserved()

    // When another application starts a phone call
    let phone = try PulsePlaybackStream(
      context: observer.client, name: "softphone", properties: ["media.role": "phone"])
    try await phone.connect()

    // Then music is interrupted by the call and its stream is corked
    let began = try await observed.next("call began") { $0 == .call(active: true) }
    #expect(
      began.notifications.map(\.event) == [.interruptionBegan(reason: .default, by: .call)])
    #expect(try await observer.stream(of: "music")?.isCorked == true)

    // When the call ends, Then music may resume
    phone.disconnect()
    let ended = try await observed.next("call ended") { $0 == .call(active: false) }
    #expect(
      ended.notifications.map(\.event) == [.interruptionEnded(options: .shouldResume, by: .call)])
    return observed
  }

  /// Runs `commands` in order.
  package static func run(_ commands: [Command], on coordinator: ArbiterDriver) async
    -> [CommandResult]
  {
    var results: [CommandResult] = []
    for command in commands { results.append(await coordinator.run(command)) }
    return results
  }
}

/// A second client on the backend's private server, to look at what the backend did. Each
/// look first waits until the server has carried out the backend's requests.
package struct PulseBackendObserver {
  package let client: PulseContext
  package let backend: PulseAudioBackend

  package init(_ backend: PulseAudioBackend) async throws {
    let server = try #require(await backend.privateServer)
    self.backend = backend
    client = try PulseContext(name: "audiosession-tests-observer")
    try await client.connect(to: server.serverString, cookieFile: server.cookieFile)
  }

  /// The playback stream of a session (`audiosession.session`), if it has one.
  package func stream(of session: String) async throws -> PulseSinkInput? {
    await backend.synchronize()
    return try await client.sinkInputs().first {
      $0.properties["audiosession.session"] == session
    }
  }

  /// The session's stream once it plays to the sink named `expected`, or as it is after
  /// `seconds` (the server carries out a move a moment after the backend asked for it: on
  /// pipewire-pulse WirePlumber relinks the stream asynchronously).
  package func stream(
    of session: String, onSink expected: String, seconds: Double = 5
  ) async throws -> (stream: PulseSinkInput?, sink: String?) {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while true {
      let stream = try await self.stream(of: session)
      let sink = try await stream.asyncMap { try await sinkName(of: $0) } ?? nil
      if sink == expected || ContinuousClock.now >= deadline { return (stream, sink) }
      try await Task.sleep(for: .milliseconds(20))
    }
  }

  /// The name of the sink a sink input plays to.
  package func sinkName(of input: PulseSinkInput) async throws -> String? {
    try await client.sink(at: input.sinkIndex)?.name
  }

  /// The sinks and sources carrying `audiosession.device` = uid.
  package func objects(of uid: String) async throws -> [PulseDeviceSnapshot] {
    try await client.devices().filter { $0.properties["audiosession.device"] == uid }
  }
}

/// What the coordinator did with one input the backend observed on its own.
package struct ObservedOutcome: Sendable, CustomStringConvertible {
  package var input: EngineInput
  package var notifications: [SessionNotification]

  package var description: String {
    "\(input) → [\(notifications.map { "\($0.session): \($0.event)" }.joined(separator: "; "))]"
  }
}

extension ArbiterDriver {
  /// Feeds the backend's observed inputs to the engine from now on, recording each outcome.
  package func recordObserved() async -> PulseEventRecorder<ObservedOutcome> {
    let (stream, continuation) = AsyncStream.makeStream(of: ObservedOutcome.self)
    Task {
      await self.followBackend { input, outcome in
        continuation.yield(ObservedOutcome(input: input, notifications: outcome.notifications))
      }
      continuation.finish()
    }
    return await PulseEventRecorder.recording(stream)
  }
}

extension PulseEventRecorder where Event == ObservedOutcome {
  /// Waits for the next observed input that satisfies `matches`.
  @discardableResult
  package func next(
    _ what: String, timeout: Duration = .seconds(30),
    _ matches: @escaping @Sendable (EngineInput) -> Bool
  ) async throws -> ObservedOutcome {
    try await next(what, timeout: timeout) { matches($0.input) }
  }
}

extension PulseBackendObserver {
  /// The recording stream of a session, if it has one.
  package func recording(of session: String) async throws -> PulseSourceOutput? {
    await backend.synchronize()
    return try await client.sourceOutputs().first {
      $0.properties["audiosession.session"] == session
    }
  }

  /// The name of the source a source output records from.
  package func sourceName(of output: PulseSourceOutput) async throws -> String? {
    try await client.source(at: output.sourceIndex)?.name
  }
}

extension Optional {
  /// `map` with an async, throwing transform.
  fileprivate func asyncMap<Result>(
    _ transform: (Wrapped) async throws -> Result
  ) async rethrows -> Result? {
    guard let value = self else { return nil }
    return try await transform(value)
  }
}
