import AudioSession
import AudioSessionSystem
import AudioSessionTestSupport
import AudioSessionWire
import PropertyBased
import Testing

/// Requests on the wire (docs/protocol.md; docs/contract.md "Bad input": malformed, unknown or
/// oversized messages get an error reply that says what is valid).
@Suite struct DaemonRequestTests {
  static func request(_ text: String) -> Result<DaemonRequest, DaemonError> {
    do throws(DaemonError) {
      return .success(try DaemonRequest(message: Array(text.utf8)))
    } catch {
      return .failure(error)
    }
  }

  static func error(_ text: String) -> DaemonError? {
    if case .failure(let error) = request(text) { return error }
    return nil
  }

  @Test("every operation survives encoding and reading back (docs/protocol.md Operations)")
  func json_anyOperation_readsBackEqual() async {
    let ids = Gen<Int>.int(in: -3...50).map { $0 < 0 ? nil : $0 * 997 }
    await propertyCheck(count: 500, input: Gen.operation, ids) { operation, id in
      let request = DaemonRequest(id: id, operation)
      let text = request.json.serialized
      #expect(Self.request(text) == .success(request), "\(text)")
    }
  }

  @Test("the documented example requests read as the commands they name (docs/protocol.md)")
  func init_documentedExamples_readAsCommands() {
    #expect(
      Self.request(
        #"{"v":1,"id":7,"op":"set","session":"music","category":"playback","mode":"moviePlayback","options":["mixWithOthers"]}"#
      )
        == .success(
          DaemonRequest(
            id: 7,
            .command(
              .input(
                .setCategory(
                  session: "music", category: .playback, mode: .moviePlayback,
                  options: .mixWithOthers))))))
    #expect(
      Self.request(#"{"v":1,"op":"simulate","action":"call","state":"begin"}"#)
        == .success(DaemonRequest(.command(.simulate(.call(active: true))))))
    #expect(
      Self.request(#"{"v":1,"op":"deactivate","session":"nav","notifyOthers":true}"#)
        == .success(
          DaemonRequest(
            .command(
              .input(
                .setActive(session: "nav", active: false, options: .notifyOthersOnDeactivation))))))
    #expect(
      Self.request(#"{"v":1,"op":"set","session":"m","category":"playback"}"#)
        == .success(
          DaemonRequest(
            .command(
              .input(.setCategory(session: "m", category: .playback, mode: nil, options: []))))))
  }

  @Test("an unknown op is refused with the list of valid ops (docs/protocol.md Errors)")
  func init_unknownOp_listsOps() {
    #expect(
      Self.error(#"{"v":1,"op":"dance"}"#)
        == .protocolError(
          ProtocolError(
            .unknownOperation,
            "unknown op 'dance'; valid ops are: hello, open, follow, set, setMode, activate, deactivate, "
              + "play, stop, override, setPreferredInput, remove, appState, nowPlaying, prefer, "
              + "inputGain, dataSource, polarPattern, outputMuted, inputMuted, status, route, "
              + "devices, session, simulate, watch, explain, record"))
    )
  }

  @Test(
    "an engine input that is none of an app's calls has no op: it goes out as 'input', which the daemon refuses with the valid ops (docs/protocol.md Operations)"
  )
  func json_systemInput_isRefusedAsUnknownOp() {
    let inputs: [EngineInput] = [
      .createSession("x"), .observed(session: "x"), .ownCall(session: "x"), .call(active: true),
      .deviceDisconnected(uid: "headphones-1"), .siri(active: true), .mediaServicesReset,
      .deviceChosen(uid: "speaker", direction: .output, session: "x"),
    ]
    for input in inputs {
      #expect(!input.isAppCall)
      let text = DaemonRequest(.command(.input(input))).json.serialized
      guard case .protocolError(let error)? = Self.error(text) else {
        Issue.record("\(input) was read back: \(text)")
        continue
      }
      #expect(error.code == .unknownOperation && error.message.hasPrefix("unknown op 'input'"))
    }
  }

  @Test("the version is required and must be 1 (docs/protocol.md Framing)")
  func init_missingOrWrongVersion_isUnsupported() {
    #expect(Self.error(#"{"op":"status"}"#)?.code == "unsupportedVersion")
    #expect(Self.error(#"{"v":2,"op":"status"}"#)?.code == "unsupportedVersion")
    #expect(Self.error(#"{"v":"1","op":"status"}"#)?.code == "unsupportedVersion")
  }

  @Test("structure problems are invalidMessage and name the member (docs/protocol.md Errors)")
  func init_badMembers_areInvalidMessage() {
    #expect(
      Self.error(#"{"v":1,"op":"status","extra":1}"#)
        == .protocolError(
          ProtocolError(
            .invalidMessage,
            #"unknown member "extra" for this op; it takes "v", "deadline", "id", "op""#)))
    #expect(
      Self.error(#"{"v":1,"op":"activate"}"#)
        == .protocolError(
          ProtocolError(.invalidMessage, #"the message needs "session", a string"#)))
    #expect(
      Self.error(#"{"v":1,"op":"deactivate","session":"a","notifyOthers":"yes"}"#)
        == .protocolError(ProtocolError(.invalidMessage, #""notifyOthers" must be true or false"#)))
    #expect(Self.error(#"{"v":1,"id":"seven","op":"status"}"#)?.code == "invalidMessage")
  }

  @Test("not JSON, or not an object, is malformed (docs/protocol.md Errors)")
  func init_notAnObject_isMalformed() {
    #expect(Self.error("status")?.code == "malformed")
    #expect(Self.error("[1,2]")?.code == "malformed")
    #expect(Self.error(#"{"v":1,"op":"status""#)?.code == "malformed")
  }

  @Test(
    "a session name is at most 64 bytes: a longer one is badParam, named by its start and its length (docs/protocol.md Operations)"
  )
  func init_longSessionName_isBadParam() {
    let longest = String(repeating: "a", count: 64)
    #expect(Self.error(#"{"v":1,"op":"activate","session":"\#(longest)"}"#) == nil)
    let long = String(repeating: "x", count: 60_000)
    #expect(
      Self.error(#"{"v":1,"op":"activate","session":"\#(long)"}"#)
        == .session(
          SessionError(
            .badParam,
            "session name '\(String(repeating: "x", count: 24))…' is 60000 bytes long; session "
              + "names are at most 64 bytes")))
  }

  @Test(
    "a wrong name is badParam and lists the valid names, as on the command line (docs/avaudiosession.md §1.1)"
  )
  func init_unknownNames_areBadParamWithValidNames() {
    #expect(
      Self.error(#"{"v":1,"op":"set","session":"m","category":"loud"}"#)
        == .session(
          SessionError(
            .badParam,
            "unknown category 'loud'; valid categories are: ambient, soloAmbient, playback, "
              + "record, playAndRecord, audioProcessing, multiRoute")))
    #expect(
      Self.error(#"{"v":1,"op":"set","session":"m","category":"playback","options":["x"]}"#)?
        .code == "badParam")
    #expect(
      Self.error(#"{"v":1,"op":"activate","session":"call"}"#)
        == .session(
          SessionError(
            .badParam,
            "'call' cannot name a session: transcripts use it for interruptions by a phone call")))
    #expect(
      Self.error(#"{"v":1,"op":"simulate","action":"call","state":"on"}"#)
        == .session(
          SessionError(.badParam, "'call' takes state 'ring', 'begin' or 'end', not 'on'")))
    #expect(
      Self.error(#"{"v":1,"op":"appState","session":"m","state":"asleep"}"#)
        == .session(
          SessionError(
            .badParam,
            "unknown app state 'asleep'; valid app states are: foreground, background, suspended")))
    #expect(
      Self.error(#"{"v":1,"op":"prefer","session":"m","key":"volume","value":"on"}"#)
        == .session(
          SessionError(
            .badParam,
            "unknown preference 'volume'; valid keys are: input, sampleRate, ioBufferDuration, "
              + "inputNumberOfChannels, outputNumberOfChannels, noInterruptionsFromSystemAlerts, "
              + "interruptionOnRouteDisconnect, aggregatedIO, echoCancelledInput")))
    #expect(
      Self.error(#"{"v":1,"op":"set","session":"m","category":"playback","policy":"short"}"#)
        == .session(
          SessionError(
            .badParam,
            "unknown route-sharing policy 'short'; valid route-sharing policies are: default, "
              + "longFormAudio, independent, longFormVideo")))
  }
}
