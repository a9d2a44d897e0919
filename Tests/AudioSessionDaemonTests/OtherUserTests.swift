import AudioSession
import AudioSessionDaemon
import AudioSessionDaemonTestSupport
import AudioSessionHost
import AudioSessionSystem
import AudioSessionTestSupport
import AudioSessionWire
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A process of another user is refused with a reason (docs/protocol.md "The
/// socket", "Errors"): one `notPermitted` error reply naming the rule, then the connection
/// closes; `sessionctl` prints that reason.
///
/// The daemon runs in this process; the other user is uid 65534 (nobody), reached with
/// util-linux's `setpriv`, which needs the tests to run as root (as `make test` does in CI). The
/// socket's folder and the socket are widened (0755, 0666) so that the refusal comes from the
/// daemon's peer-credential check, not from file modes.
@Suite struct OtherUserTests {
  static let setpriv = ["--reuid=65534", "--regid=65534", "--clear-groups"]

  /// Starts a daemon whose socket another user can reach.
  static func widenedDaemon() async throws -> DaemonHarness {
    #expect(getuid() == 0, "these tests switch to another user with setpriv, which needs root")
    let daemon = try await DaemonHarness.start()
    for folder in [daemon.folder, daemon.folder + "/d"] { chmod(folder, 0o755) }
    chmod(daemon.socketPath, 0o666)
    return daemon
  }

  static func message(daemonUID: uid_t) -> String {
    """
    this daemon serves only its own user (uid \(daemonUID)) and root; this process runs as uid \
    65534. Start your own daemon ('sessionctl daemon', or let a live command start it) on your \
    own socket, $XDG_RUNTIME_DIR/audiosession/daemon.sock by default
    """
  }

  @Test(
    "another user's raw connection gets one notPermitted error reply naming the rule, then the end (docs/protocol.md The socket)"
  )
  func otherUser_rawConnection_getsOneRefusalThenClose() async throws {
    let daemon = try await Self.widenedDaemon()
    // A client that connects and prints every line until the daemon closes the connection.
    let reader = """
      $s = IO::Socket::UNIX->new(Peer => $ARGV[0]) or die "cannot connect: $!\\n";
      print while <$s>;
      """
    let run = try SessionctlProcess.run(
      Self.setpriv + ["/usr/bin/perl", "-MIO::Socket::UNIX", "-e", reader, daemon.socketPath],
      program: "/usr/bin/setpriv")
    #expect(run.status == 0, "\(run.error)")
    let refusal: JSONObject = [
      "v": 1, "id": .null, "result": "error",
      "error": ["code": "notPermitted", "message": .string(Self.message(daemonUID: getuid()))],
    ]
    #expect(run.lines == [refusal.serialized])
    // The daemon goes on serving its own user.
    let own = try daemon.connect()
    #expect(try own.request(.hello(client: "tests")).error == nil)
    await daemon.stop()
  }

  @Test(
    "sessionctl run by another user prints why the daemon refused it, not that it closed the connection (docs/protocol.md The socket)"
  )
  func otherUser_sessionctl_printsTheRefusal() async throws {
    let daemon = try await Self.widenedDaemon()
    let run = try SessionctlProcess.run(
      Self.setpriv + [SessionctlProcess.executable, "status", "--socket", daemon.socketPath],
      program: "/usr/bin/setpriv")
    #expect(run.status == 1)
    #expect(
      run.error
        == """
        Error: the audio session daemon on '\(daemon.socketPath)' refused this connection: \
        notPermitted: \(Self.message(daemonUID: getuid()))

        """)
    #expect(await daemon.server.core.status().sessions.isEmpty)
    await daemon.stop()
  }
}
