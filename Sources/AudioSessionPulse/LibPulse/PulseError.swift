import AudioSession
import CPulse

/// An error code from libpulse (`PA_ERR_*`), stored as the positive code.
///
/// libpulse reports failures as negative return values (`-PA_ERR_INVALID`) or through
/// `pa_context_errno`; the wrapping site normalises both to the positive code, so a code can be
/// matched with `catch PulseError.connectionRefused` or `case .noSuchEntity`.
/// ``description`` is libpulse's own text, from `pa_strerror`.
package struct PulseError: Error, RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  /// The positive `PA_ERR_*` code.
  package let rawValue: Int32

  /// Wraps a code; a negative value (as libpulse functions return it) is normalised to positive.
  package init(rawValue: Int32) {
    self.rawValue = rawValue < 0 ? -rawValue : rawValue
  }

  init(_ code: pa_error_code) {
    self.init(rawValue: Int32(code.rawValue))
  }

  /// libpulse's message for the code. The corresponding C function is `pa_strerror`.
  package var description: String {
    guard let text = pa_strerror(rawValue) else { return "PulseAudio error \(rawValue)" }
    return String(cString: text)
  }

  /// Matches a caught error against a code: `case PulseError.noSuchEntity`.
  package static func ~= (code: PulseError, error: any Error) -> Bool {
    (error as? PulseError) == code
  }

  /// Access failure (`PA_ERR_ACCESS`).
  package static let accessDenied = PulseError(PA_ERR_ACCESS)
  /// Unknown command (`PA_ERR_COMMAND`).
  package static let unknownCommand = PulseError(PA_ERR_COMMAND)
  /// Invalid argument (`PA_ERR_INVALID`).
  package static let invalidArgument = PulseError(PA_ERR_INVALID)
  /// Entity exists (`PA_ERR_EXIST`).
  package static let entityExists = PulseError(PA_ERR_EXIST)
  /// No such entity (`PA_ERR_NOENTITY`): e.g. an index that names no sink.
  package static let noSuchEntity = PulseError(PA_ERR_NOENTITY)
  /// Connection refused (`PA_ERR_CONNECTIONREFUSED`): no server listens on the address.
  package static let connectionRefused = PulseError(PA_ERR_CONNECTIONREFUSED)
  /// Protocol error (`PA_ERR_PROTOCOL`).
  package static let protocolError = PulseError(PA_ERR_PROTOCOL)
  /// Timeout (`PA_ERR_TIMEOUT`).
  package static let timeout = PulseError(PA_ERR_TIMEOUT)
  /// No authentication key (`PA_ERR_AUTHKEY`).
  package static let noAuthenticationKey = PulseError(PA_ERR_AUTHKEY)
  /// Internal error (`PA_ERR_INTERNAL`).
  package static let internalError = PulseError(PA_ERR_INTERNAL)
  /// Connection terminated (`PA_ERR_CONNECTIONTERMINATED`): the server went away.
  package static let connectionTerminated = PulseError(PA_ERR_CONNECTIONTERMINATED)
  /// Entity killed (`PA_ERR_KILLED`).
  package static let killed = PulseError(PA_ERR_KILLED)
  /// Invalid server (`PA_ERR_INVALIDSERVER`).
  package static let invalidServer = PulseError(PA_ERR_INVALIDSERVER)
  /// Module initialization failed (`PA_ERR_MODINITFAILED`): bad module name or arguments.
  package static let moduleInitFailed = PulseError(PA_ERR_MODINITFAILED)
  /// Bad state (`PA_ERR_BADSTATE`): e.g. a request on a context that is not ready.
  package static let badState = PulseError(PA_ERR_BADSTATE)
  /// No data (`PA_ERR_NODATA`).
  package static let noData = PulseError(PA_ERR_NODATA)
  /// Incompatible protocol version (`PA_ERR_VERSION`).
  package static let versionMismatch = PulseError(PA_ERR_VERSION)
  /// Data too large (`PA_ERR_TOOLARGE`).
  package static let tooLarge = PulseError(PA_ERR_TOOLARGE)
  /// Operation not supported (`PA_ERR_NOTSUPPORTED`).
  package static let notSupported = PulseError(PA_ERR_NOTSUPPORTED)
  /// The error code was unknown to the client (`PA_ERR_UNKNOWN`).
  package static let unknown = PulseError(PA_ERR_UNKNOWN)
  /// Extension does not exist (`PA_ERR_NOEXTENSION`).
  package static let noExtension = PulseError(PA_ERR_NOEXTENSION)
  /// Obsolete functionality (`PA_ERR_OBSOLETE`).
  package static let obsolete = PulseError(PA_ERR_OBSOLETE)
  /// Missing implementation (`PA_ERR_NOTIMPLEMENTED`).
  package static let notImplemented = PulseError(PA_ERR_NOTIMPLEMENTED)
  /// The caller forked and reused the context (`PA_ERR_FORKED`).
  package static let forked = PulseError(PA_ERR_FORKED)
  /// An I/O error happened (`PA_ERR_IO`).
  package static let ioError = PulseError(PA_ERR_IO)
  /// Device or resource busy (`PA_ERR_BUSY`).
  package static let busy = PulseError(PA_ERR_BUSY)
}
