import AudioSession

/// The daemon's wire protocol: newline-delimited JSON objects on a Unix stream socket, each with
/// the protocol version `"v":1` (docs/protocol.md).
public enum WireProtocol {
  /// The version every message carries in `"v"`.
  public static let version = 1

  /// The member that carries ``version``, first in every message.
  package static let versionKey = "v"

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
  /// (muted, ducked), for the next daemon to undo if it is killed: beside the socket, named
  /// after it (``fileBeside(socketPath:name:)``): `other-streams.json` for `daemon.sock`,
  /// `pw.other-streams.json` for `pw.sock`.
  public static func defaultChangesPath(socketPath: String) -> String {
    fileBeside(socketPath: socketPath, name: "other-streams.json")
  }

  /// The state file kept beside a socket, named after it (``fileBeside(socketPath:name:)``):
  /// `sessions.json` for `daemon.sock`, `pw.sessions.json` for `pw.sock`, so that daemons
  /// whose sockets share a folder keep their sessions apart (docs/protocol.md "The socket").
  public static func defaultStatePath(socketPath: String) -> String {
    fileBeside(socketPath: socketPath, name: "sessions.json")
  }

  /// `<socket folder>/<name>` for the default socket name `daemon.sock`, else `<socket
  /// folder>/<socket name less .sock>.<name>`.
  static func fileBeside(socketPath: String, name: String) -> String {
    let socketName =
      socketPath.split(separator: "/", omittingEmptySubsequences: false).last
      .map(String.init) ?? ""
    let stem = socketName.hasSuffix(".sock") ? String(socketName.dropLast(5)) : socketName
    let file = stem == "daemon" || stem.isEmpty ? name : "\(stem).\(name)"
    return folder(of: socketPath) + "/" + file
  }

  private static func folder(of socketPath: String) -> String {
    let folder = socketPath.split(separator: "/", omittingEmptySubsequences: false).dropLast()
      .joined(separator: "/")
    return folder.isEmpty ? "." : folder
  }
}
