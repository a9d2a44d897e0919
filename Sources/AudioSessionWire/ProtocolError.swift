public import AudioSession

/// A request the daemon refused before it reached the engine: the message was not understood,
/// or it asked for something the connection may not do. AVAudioSession's own errors are
/// ``SessionError``s.
public struct ProtocolError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The protocol's error codes (docs/protocol.md "Errors").
  public enum Code: String, Sendable, Hashable, CaseIterable {
    /// Not JSON, not UTF-8, or not a JSON object.
    case malformed
    /// `"v"` is missing or is not a version the daemon speaks.
    case unsupportedVersion
    /// A member is missing, unknown, or of the wrong type.
    case invalidMessage
    /// `"op"` names no operation.
    case unknownOperation
    /// The line is longer than ``WireProtocol/maxMessageBytes``.
    case messageTooLarge
    /// The session belongs to another client.
    case notOwner
    /// The connecting process is another user's: the daemon serves only its own user (and
    /// root). It is the one reply on such a connection, which the daemon then closes.
    case notPermitted
    /// `open` named a session that already exists.
    case sessionExists
    /// The daemon serves as many connections as it takes (`--max-connections`): the one reply
    /// on a connection over the limit, which the daemon then closes.
    case tooManyConnections
    /// The request reached the daemon after the deadline its client sent with it (the client
    /// had given up waiting): it was not run.
    case deadlineExceeded
    /// The reply is larger than the daemon's room for messages waiting for their clients holds
    /// beside what already waits (other clients' large replies): it was not sent, and the
    /// request may be asked again once those have gone out (docs/protocol.md "Limits"). The
    /// request itself was run.
    case busy

    /// The code as the wire spells it.
    public var name: String { rawValue }
  }

  public var code: Code
  public var message: String

  public init(_ code: Code, _ message: String) {
    self.code = code
    self.message = message
  }

  public var description: String { message }
}

/// Why a request failed: an AVAudioSession error from the engine, or a protocol error.
public enum DaemonError: Error, Sendable, Hashable, CustomStringConvertible {
  case session(SessionError)
  case protocolError(ProtocolError)

  public var description: String {
    switch self {
    case .session(let error): "\(error.code.name) (\(error.code.rawValue)): \(error.message)"
    case .protocolError(let error): "\(error.code.name): \(error.message)"
    }
  }

  /// `{"code":…,"rawValue":…,"message":…}`; protocol errors have no `rawValue`.
  public var json: JSONObject {
    switch self {
    case .session(let error): TranscriptJSON.error(error)
    case .protocolError(let error):
      [JSONKey.Error.code: .string(error.code.name), JSONKey.Error.message: .string(error.message)]
    }
  }

  /// ``json`` read back: a ``SessionError`` when the code is AVAudioSession's, else a
  /// ``ProtocolError``.
  public init(json object: JSONObject) throws(WireDecodingError) {
    let (code, message) = try WireDecoding.errorMembers(object)
    if let sessionCode = SessionErrorCode(name: code) {
      self = .session(SessionError(sessionCode, message))
    } else if let protocolCode = ProtocolError.Code(rawValue: code) {
      self = .protocolError(ProtocolError(protocolCode, message))
    } else {
      throw WireDecodingError("error: unknown code '\(code)'")
    }
  }
}
