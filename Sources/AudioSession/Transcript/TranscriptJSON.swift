/// The JSON shapes of the transcript (docs/contract.md "The transcript"), with a fixed key order.
///
/// Names are the model's Swift case names; option lists are in raw-bit order. Each shape's
/// encoder sits beside its decoder (``WireDecoding``) in the file of its family
/// (`Sources/AudioSession/JSON/`: routes, errors, notifications, sessions, status), with its
/// member names written once (docs/modules.md "The JSON codec"); this file holds what only the
/// transcript writes.
public enum TranscriptJSON {
  /// `{"step":N,"command":…,"result":"ok"|"error",…}`: `error` on failure, `warnings` when there
  /// are any, then `status`, `route` or `devices` for the commands that answer them.
  public static func result(_ entry: TranscriptEntry) -> JSONObject {
    var object: JSONObject = [
      JSONKey.Transcript.step: .int(entry.step), JSONKey.Transcript.command: .string(entry.command),
    ]
    let result = entry.result
    appendResult(error: result.error.map(error), warnings: result.warnings, to: &object)
    if result.error != nil, let because = result.errorBecause {
      object.append(JSONKey.Transcript.because, .object(self.because(because)))
    }
    if let reply = result.reply { object.append(reply: reply) }
    return object
  }

  /// `"result":"ok"`, or `"result":"error","error":{…}`, then `"warnings"` when there are any:
  /// how a transcript's result line and a daemon's reply begin (docs/protocol.md "Requests and
  /// replies").
  package static func appendResult(
    error: JSONObject?, warnings: [String], to object: inout JSONObject
  ) {
    if let error {
      object.append(JSONKey.Result.result, .string(JSONKey.Result.error))
      object.append(JSONKey.Result.error, .object(error))
    } else {
      object.append(JSONKey.Result.result, .string(JSONKey.Result.ok))
    }
    if !warnings.isEmpty { object.append(JSONKey.Result.warnings, .strings(warnings)) }
  }

  /// `{"policy":"interactions.json","path":"rules[3]","profile":"default","switch":null,
  /// "trigger":"nav activate"}`, with `"spec"` (a section of docs/avaudiosession.md) when no
  /// policy table decided (docs/contract.md "Seeing why").
  public static func because(_ because: Because) -> JSONObject {
    let source = because.source
    var object: JSONObject = [
      "policy": source.policy.map(JSONValue.string) ?? .null,
      "path": source.path.map(JSONValue.string) ?? .null,
      "profile": .string(because.profile),
      "switch": source.switchName.map(JSONValue.string) ?? .null,
      "trigger": .string(because.trigger),
    ]
    if let spec = source.specReference { object.append("spec", .string(spec)) }
    return object
  }
}

extension JSONKey {
  /// The members every line of a transcript may have.
  package enum Transcript {
    package static let step = "step", command = "command", because = "because"
  }

  /// The members and values that say how a command went, in a transcript's result line and a
  /// daemon's reply alike.
  package enum Result {
    package static let result = "result", ok = "ok", error = "error", warnings = "warnings"
  }
}

extension JSONObject {
  /// What a command answered, as the member that carries it: `status`, `route` or `devices`
  /// (a transcript's result line, a daemon's reply).
  package mutating func append(reply: CommandReply) {
    switch reply {
    case .status(let status): append(JSONKey.Reply.status, .object(TranscriptJSON.status(status)))
    case .route(_, let route): append(JSONKey.Reply.route, .object(TranscriptJSON.route(route)))
    case .devices(let devices):
      append(JSONKey.Reply.devices, .array(devices.map { .object(TranscriptJSON.device($0)) }))
    }
  }
}

extension JSONKey {
  /// The members that carry what a command answered.
  package enum Reply {
    package static let status = "status", route = "route", devices = "devices"
  }
}
