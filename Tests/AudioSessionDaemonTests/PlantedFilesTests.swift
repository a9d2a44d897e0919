import AudioSession
import AudioSessionSystem
import AudioSessionTestSupport
import AudioSessionWire
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// docs/protocol.md "The socket", as an attacker would try it: a socket folder another user made
/// (0777, the `/tmp/audiosession-<uid>` fallback included) is refused with the reason, the daemon's
/// own default folder left open is made 0700 again, and a client does not believe a process of
/// another user that listens where the daemon should (docs/protocol.md "The socket").
///
/// The other user is uid 65534 (nobody): a folder chowned to it, and a listener run through
/// util-linux's `setpriv`; both need root, as `make test` runs in CI.
@Suite struct PlantedFilesTests {
  static let nobody = OtherUser.nobody

  static func mode(_ path: String) -> UInt32 { OtherUser.mode(path) }

  @Test(
    "a socket folder another user made 0777 is refused with the reason, and nothing is made in it")
  func otherUsersFolder_daemonRefuses() throws {
    try #require(getuid() == 0, "chowning a folder to another user needs root")
    let base = try TemporaryFolder.make()
    defer { try? FileManager.default.removeItem(atPath: base) }
    let planted = base + "/planted"
    mkdir(planted, 0o777)
    chmod(planted, 0o777)
    chown(planted, Self.nobody, Self.nobody)
    let run = try SessionctlProcess.run(["daemon", "--socket", planted + "/daemon.sock"])
    #expect(run.status != 0)
    #expect(
      run.error.contains(
        "the socket's folder '\(planted)' is not safe: it belongs to uid 65534, not to this user (uid 0)"
      ), "\(run.error)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: planted).isEmpty)
    #expect(Self.mode(planted) == 0o777)
  }

  @Test("with XDG_RUNTIME_DIR unset, a /tmp/audiosession-<uid> another user planted is refused")
  func plantedFallbackFolder_daemonRefuses() throws {
    try #require(getuid() == 0, "chowning a folder to another user needs root")
    let fallback = "/tmp/audiosession-\(getuid())"
    var info = stat()
    guard lstat(fallback, &info) != 0 else {
      // A daemon of this machine's root may use it: leave it alone.
      Issue.record("\(fallback) exists; this test needs it absent")
      return
    }
    mkdir(fallback, 0o777)
    chmod(fallback, 0o777)
    chown(fallback, Self.nobody, Self.nobody)
    defer { try? FileManager.default.removeItem(atPath: fallback) }
    let run = try SessionctlProcess.run(["daemon"], unset: ["XDG_RUNTIME_DIR"])
    #expect(run.status != 0)
    #expect(
      run.error.contains("the socket's folder '\(fallback)' is not safe: it belongs to uid 65534"),
      "\(run.error)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: fallback).isEmpty)
  }

  @Test(
    "the daemon's own default folder left open to others (0777) is made 0700 again, and it says so")
  func ownDefaultFolderOpen_isFixed() throws {
    let runtime = try TemporaryFolder.make()
    defer { try? FileManager.default.removeItem(atPath: runtime) }
    let folder = runtime + "/audiosession"
    mkdir(folder, 0o700)
    chmod(folder, 0o777)
    let launched = try SessionctlProcess.launch(
      ["daemon"], environment: ["XDG_RUNTIME_DIR": runtime])
    defer {
      launched.process.terminate()
      launched.process.waitUntilExit()
    }
    var lines: [String] = []
    while let line = SessionctlProcess.readLine(launched.error) {
      lines.append(line)
      if line.contains("listening on") { break }
    }
    #expect(
      lines.first
        == "audiosessiond: warning: the socket's folder '\(folder)' was open to other users (mode 777); it is the daemon's own, and is now 0700"
    )
    #expect(Self.mode(folder) == 0o700)
    // A folder the user named is theirs to decide: refused, not changed.
    let named = runtime + "/named"
    mkdir(named, 0o700)
    chmod(named, 0o777)
    let run = try SessionctlProcess.run(["daemon", "--socket", named + "/daemon.sock"])
    #expect(run.status != 0)
    #expect(run.error.contains("other users may write to it (mode 0777)"), "\(run.error)")
    #expect(Self.mode(named) == 0o777)
  }

  @Test(
    "a client does not believe a process of another user listening on the socket, and starts no daemon there"
  )
  func otherUsersListener_notBelieved() throws {
    try #require(getuid() == 0, "running a listener as another user needs root")
    let base = try TemporaryFolder.make()
    defer { try? FileManager.default.removeItem(atPath: base) }
    chmod(base, 0o755)
    let planted = base + "/planted"
    mkdir(planted, 0o755)
    chown(planted, Self.nobody, Self.nobody)
    let socket = planted + "/daemon.sock"
    // Answers every connection with a reply that would print a session.
    let listener = """
      use Socket;
      $s = IO::Socket::UNIX->new(Type => SOCK_STREAM(), Local => $ARGV[0], Listen => 5) or die "$!\\n";
      $SIG{PIPE} = "IGNORE"; $| = 1; print "ready\\n";
      while ($c = $s->accept) { print $c "{\\"v\\":1,\\"id\\":1,\\"result\\":\\"ok\\"}\\n"; close $c }
      """
    let launched = try SessionctlProcess.launch(
      OtherUserTests.setpriv + ["/usr/bin/perl", "-MIO::Socket::UNIX", "-e", listener, socket],
      program: "/usr/bin/setpriv")
    defer {
      // SIGKILL: the listener inherits the test runner's blocked SIGTERM.
      kill(launched.process.processIdentifier, SIGKILL)
      launched.process.waitUntilExit()
    }
    try #require(SessionctlProcess.readLine(launched.output) == "ready")
    let expected = """
      the process listening on '\(socket)' runs as uid 65534, not as this user (uid 0) or root: \
      it is not your audio session daemon, and nothing it says is believed. Remove that socket if \
      its folder is yours, or use your own folder (--socket, $AUDIOSESSION_SOCKET, or \
      $XDG_RUNTIME_DIR)
      """
    // The library
    let error = #expect(throws: ConnectionFailure.self) {
      try DaemonConnection(socketPath: socket)
    }
    #expect(error?.description == expected)
    #expect(error?.isUntrusted == true)
    // and sessionctl, even when it may start a daemon
    let run = try SessionctlProcess.run(
      ["status", "--socket", socket], environment: ["AUDIOSESSION_AUTOSTART": "1"])
    #expect(run.status == 1)
    #expect(run.output.isEmpty)
    #expect(run.error == "Error: \(expected)\n")
  }
}
