/// Why a private PulseAudio server could not be started, or a module argument not be written.
import AudioSession

public struct PulseServerError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What went wrong.
  public enum Code: Sendable, Hashable {
    /// The `pulseaudio` binary is not installed (or not executable).
    case binaryMissing
    /// The scratch runtime directory could not be made.
    case runtimeDirectory
    /// The daemon exited with an error, or did not report ready in time.
    case startFailed
    /// A module argument cannot be written in PulseAudio's argument syntax.
    case invalidModuleArgument
  }

  public var code: Code
  /// A sentence that says what was attempted and what to do; for start failures, it ends with
  /// the daemon's log.
  public var message: String

  public init(_ code: Code, _ message: String) {
    self.code = code
    self.message = message
  }

  public var description: String { message }
}
