import AudioSession
package import AudioSessionWire

extension DaemonError {
  /// The wire's code name.
  package var code: String {
    switch self {
    case .session(let error): error.code.name
    case .protocolError(let error): error.code.name
    }
  }
}
