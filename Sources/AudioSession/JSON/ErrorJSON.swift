// Errors: `{"code":"badParam","rawValue":-50,"message":…}` in a transcript's result line and a
// daemon's reply (docs/contract.md "The transcript"; docs/protocol.md "Errors"). The wire's own
// codes (`ProtocolError`) share the shape without `rawValue`: AudioSessionWire writes and reads
// them with these members.

extension JSONKey {
  /// The members of an error.
  package enum Error {
    package static let code = "code", rawValue = "rawValue", message = "message"
  }
}

extension TranscriptJSON {
  /// `{"code":"badParam","rawValue":-50,"message":…}`.
  public static func error(_ error: SessionError) -> JSONObject {
    [
      JSONKey.Error.code: .string(error.code.name),
      JSONKey.Error.rawValue: .int(error.code.rawValue),
      JSONKey.Error.message: .string(error.message),
    ]
  }
}

extension WireDecoding {
  /// An error's code name and message (``TranscriptJSON/error(_:)``; `rawValue` follows from the
  /// name and is not read): AVAudioSession's code, or one of the wire's.
  package static func errorMembers(
    _ object: JSONObject
  ) throws(WireDecodingError) -> (code: String, message: String) {
    let reader = WireReader(object: object, path: "error")
    return (try reader.string(JSONKey.Error.code), try reader.string(JSONKey.Error.message))
  }
}
