import AudioSessionWire
import PropertyBased
import Testing

@testable import AudioSession

/// Every wire type, written as JSON text and read back as the daemon and the client read it, is
/// the value written: each shape's encoder and decoder agree on every case and every optional
/// member (docs/protocol.md "Requests and replies"; docs/modules.md "The JSON codec").
@Suite struct WireCodecPropertyTests {
  /// The object a message's text reads as (the wire dialect, docs/protocol.md "Framing").
  static func reread(_ object: JSONObject) throws -> JSONObject {
    guard case .object(let read) = try JSONParser.parse(object.serialized) else {
      throw WireDecodingError("not an object: \(object.serialized)")
    }
    return read
  }

  @Test(
    "a notification reads back as itself, pushed or as a transcript line (docs/protocol.md Notifications)"
  )
  func notification_anyEvent_readsBackEqual() async throws {
    await propertyCheck(count: 500, input: WireGen.notification) { notification in
      let pushed = try Self.reread(WireNotification.message(notification))
      #expect(try WireNotification.decode(pushed) == notification, "\(pushed.serialized)")
      let line = try Self.reread(TranscriptJSON.notification(notification, step: 7))
      #expect(try WireDecoding.notification(line) == notification, "\(line.serialized)")
    }
  }

  @Test(
    "a port, a route and a device read back as themselves (docs/contract.md The transcript)")
  func routeAndDevice_any_readBackEqual() async throws {
    await propertyCheck(input: WireGen.route, WireGen.device) { route, device in
      let routeJSON = try Self.reread(TranscriptJSON.route(route))
      #expect(try WireDecoding.route(routeJSON) == route, "\(routeJSON.serialized)")
      let deviceJSON = try Self.reread(TranscriptJSON.device(device))
      #expect(try WireDecoding.device(deviceJSON) == device, "\(deviceJSON.serialized)")
    }
  }

  @Test(
    "a session of status reads back as itself, owner and hardware included (docs/contract.md More of AVAudioSession)"
  )
  func statusSession_any_readsBackEqual() async throws {
    await propertyCheck(count: 300, input: WireGen.statusSession) { session in
      let object = try Self.reread(TranscriptJSON.session(session))
      #expect(
        try WireDecoding.session(object, name: session.name) == session, "\(object.serialized)")
    }
  }

  @Test(
    "the session reply reads back as the session, its inputs and its data sources (docs/protocol.md Operations)"
  )
  func sessionReply_any_readsBackEqual() async throws {
    await propertyCheck(count: 300, input: WireGen.replySession) { session in
      let object = try Self.reread(WireSession.json(session))
      let read = try WireSession.decode(object)
      #expect(read.status == session, "\(object.serialized)")
      #expect(read.availableInputs == session.availableInputs)
      #expect(read.dataSources == session.inputDataSourceDetails)
    }
  }

  @Test(
    "status reads back as itself, with its server and state file (docs/protocol.md The server in `status`, The state file)"
  )
  func status_any_readsBackEqual() async throws {
    await propertyCheck(count: 300, input: WireGen.status) { status in
      let object = try Self.reread(TranscriptJSON.status(status))
      #expect(try WireDecoding.status(object) == status, "\(object.serialized)")
    }
  }

  @Test(
    "an error reads back as itself, AVAudioSession's or the protocol's (docs/protocol.md Errors)")
  func error_any_readsBackEqual() async throws {
    await propertyCheck(input: WireGen.error) { error in
      let object = try Self.reread(error.json)
      #expect(try DaemonError(json: object) == error, "\(object.serialized)")
    }
  }

  @Test(
    "a request reads back as itself, every op and simulate action (docs/protocol.md Operations)")
  func request_any_readsBackEqual() async throws {
    await propertyCheck(count: 1000, input: WireGen.request) { request in
      let text = request.json.serialized
      let read = try DaemonRequest(message: Array(text.utf8))
      #expect(read == request, "\(text)")
    }
  }

  @Test(
    "a reply reads back as itself: error, warnings, body and notifications (docs/protocol.md Requests and replies)"
  )
  func reply_any_readsBackEqual() async throws {
    await propertyCheck(count: 300, input: WireGen.reply) { reply in
      let object = try Self.reread(reply.json)
      #expect(try DaemonReply(object: object) == reply, "\(object.serialized)")
    }
  }

  @Test(
    "the generators reach every event, op, simulate action and error code (docs/protocol.md Operations, Notifications, Errors)"
  )
  func generators_manyDraws_coverEveryName() async {
    var events: Set<String> = []
    await propertyCheck(count: 2000, input: WireGen.event) {
      _ = events.insert(TranscriptJSON.eventName($0))
    }
    #expect(events == Set(EventName.allCases.map(\.rawValue)))
    var ops: Set<String> = []
    var actions: Set<String> = []
    await propertyCheck(count: 2000, input: WireGen.request) { request in
      let object = request.json
      if case .string(let op)? = object["op"] { ops.insert(op) }
      if case .string(let action)? = object["action"] { actions.insert(action) }
    }
    #expect(ops == Set(DaemonRequest.operationNames))
    #expect(actions == Set(DaemonRequest.simulateActions))
    var codes: Set<String> = []
    await propertyCheck(count: 2000, input: WireGen.error) { error in
      if case .string(let code)? = error.json["code"] { codes.insert(code) }
    }
    #expect(
      codes
        == Set(SessionErrorCode.allCases.map(\.name) + ProtocolError.Code.allCases.map(\.name)))
  }
}
