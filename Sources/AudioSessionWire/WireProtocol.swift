import AudioSessionCore

/// The daemon's wire protocol: newline-delimited JSON objects on a Unix stream socket, each with
/// the protocol version `"v":1` (docs/protocol.md).
public enum WireProtocol {
  /// The version every message carries in `"v"`.
  public static let version = 1

  /// The largest message accepted, newline excluded (64 KiB). A longer line gets a
  /// `messageTooLarge` error reply and is discarded up to its newline.
  public static let maxMessageBytes = 64 * 1024

  /// The environment variable that overrides the default socket path (docs/contract.md "Commands").
  public static let socketEnvironmentVariable = "AUDIOSESSION_SOCKET"

  /// The environment variable of the default socket's folder.
  public static let runtimeDirectoryVariable = "XDG_RUNTIME_DIR"

  /// The default socket path: `$XDG_RUNTIME_DIR/audiosession/daemon.sock`, or
  /// `/tmp/audiosession-<uid>/daemon.sock` when `XDG_RUNTIME_DIR` is unset.
  public static func defaultSocketPath(
    environment: [String: String], userID: UInt32
  ) -> String {
    if let runtime = environment[runtimeDirectoryVariable], !runtime.isEmpty {
      return runtime + "/audiosession/daemon.sock"
    }
    return "/tmp/audiosession-\(userID)/daemon.sock"
  }

  /// The socket path to use: an explicit one (`--socket`), else `AUDIOSESSION_SOCKET`, else the
  /// default.
  public static func socketPath(
    explicit: String?, environment: [String: String], userID: UInt32
  ) -> String {
    if let explicit, !explicit.isEmpty { return explicit }
    if let variable = environment[socketEnvironmentVariable], !variable.isEmpty { return variable }
    return defaultSocketPath(environment: environment, userID: userID)
  }

  /// Where a daemon on the PulseAudio backend keeps what it changed on other programs' streams
  /// (muted, ducked), for the next daemon to undo if it is killed: `<socket
  /// folder>/other-streams.json`.
  public static func defaultChangesPath(socketPath: String) -> String {
    folder(of: socketPath) + "/other-streams.json"
  }

  /// The state file kept beside a socket: `<socket folder>/sessions.json`.
  public static func defaultStatePath(socketPath: String) -> String {
    folder(of: socketPath) + "/sessions.json"
  }

  private static func folder(of socketPath: String) -> String {
    let folder = socketPath.split(separator: "/", omittingEmptySubsequences: false).dropLast()
      .joined(separator: "/")
    return folder.isEmpty ? "." : folder
  }
}
