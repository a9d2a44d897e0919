import AudioSession
import AudioSessionPulse
import AudioSessionSystem
import Foundation
import Testing

extension PulseAudioTests {
  /// Starting and stopping private servers (docs/pulseaudio.md §1.1).
  @Suite struct PulsePrivateServerTests {
    // docs/pulseaudio.md §1.1
    @Test("start: private 0700 runtime dir, socket, pid file; stop: daemon gone, dir removed")
    func startThenStop_privateServer_runsInOwnRuntimeDirectoryAndCleansUp() async throws {
      // Given a started server
      let server = try PulsePrivateServer.start()
      defer { server.stop() }

      // Then it lives in its own mode-0700 runtime directory with a socket and a pid file
      let attributes = try FileManager.default.attributesOfItem(atPath: server.runtimeDirectory)
      #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o700)
      #expect(server.socketPath == server.runtimeDirectory + "/pulse/native")
      #expect(server.serverString == "unix:" + server.socketPath)
      #expect(FileManager.default.fileExists(atPath: server.socketPath))
      #expect(FileManager.default.fileExists(atPath: server.cookiePath))
      let pidFile = try String(
        contentsOfFile: server.runtimeDirectory + "/pulse/pid", encoding: .utf8)
      #expect(Int32(pidFile.trimmingCharacters(in: .whitespacesAndNewlines)) == server.pid)
      #expect(server.isRunning)
      // and it accepts clients and modules
      let module = try await server.loadModule(
        "module-null-sink", arguments: "sink_name=extra")
      let client = try PulseContext(name: "audiosession-tests")
      defer { client.disconnect() }
      try await client.connect(to: server.serverString, cookieFile: server.cookiePath)
      let sinks = try await client.sinks()
      #expect(sinks.map(\.name) == ["extra"])
      #expect(sinks.first?.ownerModule == module)

      // When it is stopped
      server.stop()

      // Then the daemon is gone and so is its directory
      #expect(!server.isRunning)
      #expect(!FileManager.default.fileExists(atPath: server.runtimeDirectory))
    }

    // docs/pulseaudio.md §1.1, §5 (a killed server leaves a stale socket and pid file)
    @Test("kill ends the daemon with SIGKILL and leaves the stale directory until stop")
    func kill_runningServer_endsDaemonAndStopRemovesDirectory() throws {
      let server = try PulsePrivateServer.start()
      defer { server.stop() }

      server.kill()

      #expect(!server.isRunning)
      #expect(FileManager.default.fileExists(atPath: server.runtimeDirectory + "/pulse/pid"))
      server.stop()
      #expect(!FileManager.default.fileExists(atPath: server.runtimeDirectory))
    }

    // docs/pulseaudio.md §1.1
    @Test("a missing pulseaudio binary fails with an install hint")
    func start_missingBinary_throwsBinaryMissingWithInstallHint() throws {
      let error = try #require(throws: PulseServerError.self) {
        _ = try PulsePrivateServer.start(binary: "audiosession-no-such-pulseaudio")
      }
      #expect(error.code == .binaryMissing)
      #expect(error.message.contains("'audiosession-no-such-pulseaudio' was not found in PATH"))
      #expect(error.message.hasSuffix("install pulseaudio: apt-get install pulseaudio"))
    }

    // docs/pulseaudio.md §1.1 (rc≠0 on failure)
    @Test("a daemon that exits with an error status fails the start with its status")
    func start_binaryExitsWithError_throwsStartFailedWithStatus() throws {
      let error = try #require(throws: PulseServerError.self) {
        _ = try PulsePrivateServer.start(binary: "/bin/false")
      }
      #expect(error.code == .startFailed)
      #expect(
        error.message.hasPrefix("the private PulseAudio server exited with status 1 (/bin/false"))
      #expect(error.message.hasSuffix("its log:\n(empty)"))
    }

    // docs/pulseaudio.md §1.1
    @Test(
      "a module that fails to load fails the start with the daemon's log, and leaves no directory")
    func start_unknownModule_throwsStartFailedWithLog() throws {
      let error = try #require(throws: PulseServerError.self) {
        _ = try PulsePrivateServer.start(modules: [.init("module-audiosession-does-not-exist")])
      }
      #expect(error.code == .startFailed)
      #expect(
        error.message.hasPrefix("the private PulseAudio server reported errors while starting"))
      // the daemon's own log names the module it could not load
      #expect(error.message.contains("module-audiosession-does-not-exist"))
      #expect(error.message.contains("its log:\n"))
      // and the scratch directory named in the command line was removed
      let logTarget = try #require(
        error.message.split(separator: " ").first { $0.hasPrefix("--log-target=file:") })
      let directory = logTarget.dropFirst("--log-target=file:".count)
        .replacingOccurrences(of: "/pulse.log", with: "")
      #expect(directory.hasPrefix("/tmp/audiosession-pulse-"))
      #expect(!FileManager.default.fileExists(atPath: directory))
    }
  }
}
