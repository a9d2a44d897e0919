import ArgumentParser
import AudioSession
import AudioSessionArbiter
import AudioSessionDaemonTestSupport
import AudioSessionHost
import AudioSessionTestSupport
import AudioSessionWire
import Foundation
import Testing

@testable import SessionctlCommands

/// `sessionctl record FILE` (docs/contract.md "Recording what the daemon saw", docs/protocol.md
/// "Operations"): its help, its refusals before it does anything, and what it writes from a
/// running daemon, which `scenario run` replays.
@Suite struct RecordCommandTests {
  @Test(
    "record's help says what the file holds, that a daemon must run and that FILE is not overwritten without --force (docs/contract.md Recording what the daemon saw)"
  )
  func help_isExact() {
    #expect(
      Sessionctl.helpMessage(for: Sessionctl.Record.self, columns: 80) == """
        OVERVIEW: Writes what the running daemon saw since it started as a scenario
        file.

        The daemon keeps what it was told since it started: other programs' streams and
        players, the user's commands to them, devices, the audio server lost and back,
        the sessions' commands. FILE gets them as the steps of a scenario (simulate
        program, simulate user, simulate plug, simulate wait, the sessions' commands),
        each followed by what the daemon decided then, as comments, so that 'sessionctl
        scenario run FILE --explain' replays it anywhere, with no device, and says why.
        The header says which daemon recorded it, when, and what the steps could not
        act out; what the daemon found when it started is set up first, with the daemon
        stopped. At most 10000 steps are kept: older ones are cut, and the file says
        so. A daemon must be running: this command starts none. FILE is not overwritten
        unless --force; - writes to standard output (docs/contract.md "Recording what
        the daemon saw").

        USAGE: sessionctl record <file> [--force] [--json] [--socket <path>] [--timeout <seconds>]

        ARGUMENTS:
          <file>                  The scenario file to write (YAML), or - for standard
                                  output.

        OPTIONS:
          --force                 Overwrite FILE if it exists.
          --json                  Print a summary of what was written as one JSON
                                  object.
          --socket <path>         The daemon's socket.
                Default: $AUDIOSESSION_SOCKET, else
                $XDG_RUNTIME_DIR/audiosession/daemon.sock.
          --timeout <seconds>     How long to wait for the daemon's answer, in seconds.
                Default: $AUDIOSESSION_TIMEOUT, else 5.
          --version               Show the version.
          -h, --help              Show help information.

        """)
  }

  /// The message ArgumentParser prints for a command line it refuses, and its exit code.
  static func refusal(_ arguments: [String]) -> (message: String, code: Int32)? {
    do {
      _ = try Sessionctl.parseAsRoot(arguments)
      return nil
    } catch {
      return (Sessionctl.message(for: error), Sessionctl.exitCode(for: error).rawValue)
    }
  }

  @Test(
    "record refuses, before it asks the daemon anything, a file that exists without --force, a folder, a folder it cannot write to, and --force or --json with standard output (docs/contract.md Recording what the daemon saw, Bad input)"
  )
  func refusals_areClear() throws {
    let folder = try TemporaryFolder.make()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let existing = folder + "/x.yaml"
    #expect(FileManager.default.createFile(atPath: existing, contents: Data("kept".utf8)))
    for (arguments, message) in [
      (
        ["record", existing],
        "'\(existing)' exists; pass --force to overwrite it, or name another file"
      ),
      (["record", folder], "cannot write '\(folder)': it is a folder; name a file in it"),
      (
        ["record", folder + "/none/x.yaml"],
        "cannot write '\(folder)/none/x.yaml': its folder '\(folder)/none' does not exist or is "
          + "not writable"
      ),
      (["record", "-", "--force"], "--force overwrites FILE; '-' is standard output"),
      (
        ["record", "-", "--json"],
        "--json prints a summary on standard output, where '-' writes the scenario; name a file"
      ),
    ] {
      let refused = try #require(Self.refusal(arguments), "\(arguments)")
      #expect(refused.message == message)
      #expect(refused.code == ExitCode.validationFailure.rawValue)
    }
    #expect(Self.refusal(["record", existing, "--force"]) == nil)
    #expect(try String(contentsOfFile: existing, encoding: .utf8) == "kept")
  }

  @Test(
    "with no daemon running, record says there is nothing to record, starts none, writes nothing, and exits 1 (docs/contract.md Recording what the daemon saw)"
  )
  func noDaemon_writesNothing() throws {
    let folder = try TemporaryFolder.make()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let socket = folder + "/none.sock"
    let run = try SessionctlProcess.run(["record", folder + "/x.yaml", "--socket", socket])
    #expect(run.status == 1)
    #expect(run.error.hasPrefix("Error: there is nothing to record: "), "\(run.error)")
    #expect(run.error.contains("Nothing was written."))
    #expect(!FileManager.default.fileExists(atPath: folder + "/x.yaml"))
    #expect(!FileManager.default.fileExists(atPath: socket))
  }

  @Test(
    "record writes what a running daemon saw, the command line's commands and devices among it, with a header, a summary in JSON, never over a file without --force, and scenario run replays it with the same notifications (docs/contract.md Recording what the daemon saw, docs/protocol.md Operations)"
  )
  func running_writesAReplayableScenario() async throws {
    let daemon = try await DaemonHarness.start()
    defer { Task { await daemon.stop() } }
    let socket = ["--socket", daemon.socketPath]
    let watcher = try SessionctlProcess.launch(["watch", "all", "--json"] + socket)
    defer {
      watcher.process.terminate()
      watcher.process.waitUntilExit()
    }
    #expect(SessionctlProcess.readLine(watcher.error)?.contains("watching all") == true)
    for command in [
      ["set", "playback", "--session", "music"], ["activate", "--session", "music"],
      ["set", "playback", "--options", "duckOthers", "--session", "nav"],
      ["activate", "--session", "nav"], ["simulate", "plug", "headphones"],
      ["simulate", "unplug", "headphones"], ["deactivate", "--notify-others", "--session", "nav"],
      // Refused, and changing nothing: the file says so, and does not replay it.
      ["set", "ambient", "--options", "defaultToSpeaker", "--session", "ghost"],
    ] {
      _ = try SessionctlProcess.run(command + socket)
    }
    var live: [String] = []
    while let line = SessionctlProcess.readLine(watcher.output, timeout: 2) { live.append(line) }
    #expect(live.contains { $0.contains(#""event":"duck""#) }, "\(live)")
    let file = daemon.folder + "/recorded.yaml"
    let recorded = try SessionctlProcess.run(["record", file, "--json"] + socket)
    #expect(recorded.status == 0, "\(recorded.error)")
    #expect(
      recorded.output.hasPrefix(#"{"file":"\#(file)","steps":7,"setupSteps":0,"facts":"#),
      "\(recorded.output)")
    #expect(recorded.output.hasSuffix(#""cut":0,"exact":true,"notes":[]}"# + "\n"))
    let yaml = try String(contentsOfFile: file, encoding: .utf8)
    #expect(yaml.contains("# daemon: audiosessiond \(PackageVersion.current), pid "), "\(yaml)")
    #expect(yaml.contains("\n  - music set playback\n"), "\(yaml)")
    #expect(yaml.contains("\n  - simulate unplug headphones-1\n"), "\(yaml)")
    #expect(yaml.contains("  # refused: ghost set ambient --options defaultToSpeaker: "), "\(yaml)")
    #expect(yaml.contains("    # the daemon: music duck (by: nav)\n"), "\(yaml)")
    // Not over the file, unless --force.
    let again = try SessionctlProcess.run(["record", file] + socket)
    #expect(again.status == ExitCode.validationFailure.rawValue)
    #expect(try SessionctlProcess.run(["record", file, "--force"] + socket).status == 0)
    // Standard output is the same file.
    let printed = try SessionctlProcess.run(["record", "-"] + socket)
    #expect(printed.output.contains("\n  - simulate plug headphones\n"))

    let replay = try SessionctlProcess.run(["scenario", "run", file, "--json"])
    #expect(replay.status == 0, "\(replay.error)")
    let replayed = replay.lines.filter { $0.contains(#""event":"#) }.map {
      $0.replacing(/"step":\d+,/, with: "")
    }
    #expect(replayed == live, "\(yaml)")
  }
}
