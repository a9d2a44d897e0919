import AudioSession
import AudioSessionArbiter
import AudioSessionHost
import AudioSessionHostTestSupport
import AudioSessionTestSupport
import AudioSessionWire
import Testing

/// The daemon's core answers `record` with what it saw since it started (docs/protocol.md
/// "Operations", docs/contract.md "Recording what the daemon saw").
@Suite struct RecordOperationTests {
  @Test(
    "the record operation answers with the daemon's header and steps, which read back as they were sent (docs/protocol.md Operations)"
  )
  func operation_answersTheRecord() async throws {
    let core = try await DaemonCore(
      policy: TestPolicies.policy(), backend: InMemoryAudioBackend(), stateFile: nil,
      identity: DaemonCore.Identity(pid: 4242, profile: "default"))
    let id = await core.connect(RecordingPeer())
    _ = await core.perform(
      DaemonRequest(
        id: 1, .command(.input(.setActive(session: "music", active: true, options: [])))),
      from: id)
    let message = DaemonRequest(id: 2, .record).json.serialized
    #expect(message == #"{"v":1,"id":2,"op":"record"}"#)
    let request = try DaemonRequest(message: Array(message.utf8))
    let reply = await core.perform(request, from: id)
    #expect(reply.error == nil)
    guard case .object(let object)? = reply["record"] else {
      Issue.record("no record in \(reply.json.serialized)")
      return
    }
    let recording = try DesktopRecording(json: object)
    #expect(recording.daemon?.pid == 4242)
    #expect(recording.daemon?.backend == "simulated")
    #expect(recording.daemon?.version == PackageVersion.current)
    #expect(recording.steps.map(\.words) == [["activate"]])
    #expect(recording.steps.first?.session == "music")
    #expect(try DesktopRecording(json: recording.json) == recording)
  }
}
