import AudioSession
import AudioSessionDaemon
import AudioSessionHost
import AudioSessionSystem
import AudioSessionTestSupport
import AudioSessionWire
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// docs/protocol.md "The socket": a socket path is at most 107 bytes, and a longer one gets the
/// same clear error from the client library, the daemon and `sessionctl`, and changes nothing.
@Suite struct UnixSocketAddressTests {
  /// A path of `length` bytes in a fresh folder (the folder itself is not created below it).
  static func path(in folder: String, length: Int) -> String {
    let prefix = folder + "/d/"
    return prefix + String(repeating: "s", count: length - prefix.utf8.count)
  }

  @Test("a 108-byte socket path is refused, naming the path and the 107-byte limit")
  func address_tooLong_isRefusedWithTheLimit() throws {
    let long = Self.path(in: "/tmp", length: 108)
    #expect(throws: UnixSocketAddress.PathTooLong(path: long)) {
      _ = try UnixSocketAddress(path: long)
    }
    let message = UnixSocketAddress.PathTooLong(path: long).description
    #expect(message.contains("'\(long)'") && message.contains("108 bytes"))
    #expect(message.contains("at most 107 bytes"))
    #expect(try UnixSocketAddress(path: Self.path(in: "/tmp", length: 107)).path.utf8.count == 107)
  }

  @Test("the client and the daemon refuse a too-long socket path with the same error")
  func clientAndDaemon_tooLongPath_sameError() async throws {
    let folder = try TemporaryFolder.make()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let long = Self.path(in: folder, length: 120)
    let expected = UnixSocketAddress.PathTooLong(path: long).description

    var clientError: ConnectionFailure?
    do {
      _ = try DaemonConnection(socketPath: long)
    } catch {
      clientError = error
    }
    #expect(clientError?.description == expected)

    let core = try await DaemonCore(
      policy: TestPolicies.policy(), backend: InMemoryAudioBackend(), stateFile: nil,
      identity: DaemonCore.Identity(pid: getpid(), profile: "default"))
    var daemonError: DaemonServerError?
    do {
      _ = try await DaemonServer.start(core: core, socketPath: long)
    } catch {
      daemonError = error
    }
    #expect(daemonError?.description == expected)
    await core.shutdown()
    // Nothing was created: neither the socket's folder nor its lock file.
    #expect(!FileManager.default.fileExists(atPath: folder + "/d"))
  }

  @Test("sessionctl status and sessionctl daemon print the same error for a too-long --socket")
  func sessionctl_tooLongSocket_sameError() throws {
    let folder = try TemporaryFolder.make()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let long = Self.path(in: folder, length: 120)
    let expected = "Error: \(UnixSocketAddress.PathTooLong(path: long).description)"
    // With autostart on: the command says what is wrong instead of starting a daemon.
    let status = try SessionctlProcess.run(
      ["status", "--socket", long], environment: ["AUDIOSESSION_AUTOSTART": "1"])
    #expect(status.status != 0)
    #expect(status.error.split(separator: "\n").first.map(String.init) == expected)
    let daemon = try SessionctlProcess.run(["daemon", "--socket", long])
    #expect(daemon.status != 0)
    #expect(daemon.error.split(separator: "\n").first.map(String.init) == expected)
    #expect(!FileManager.default.fileExists(atPath: folder + "/d"))
  }

  @Test("a too-long path never reaches the socket its first 107 bytes name")
  func answers_tooLongPath_isNotCutShort() throws {
    let folder = try TemporaryFolder.make()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try FileManager.default.createDirectory(
      atPath: folder + "/d", withIntermediateDirectories: false)
    let path = Self.path(in: folder, length: 107)
    let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(listener) }
    #expect(try UnixSocketAddress(path: path).bind(listener) == 0)
    #expect(listen(listener, 4) == 0)
    #expect(UnixSocketAddress.answers(path))
    #expect(!UnixSocketAddress.answers(path + "x"))
  }
}
