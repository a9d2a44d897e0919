import ArgumentParser
import AudioSession
import AudioSessionHost
import AudioSessionScenario
import AudioSessionSystem
import AudioSessionWire

#if canImport(Glibc)
  import Glibc
#endif

extension Sessionctl {
  /// `sessionctl record FILE [--force] [--json]` (docs/contract.md "Recording what the daemon
  /// saw").
  struct Record: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "record",
      abstract: "Writes what the running daemon saw since it started as a scenario file.",
      discussion: """
        The daemon keeps what it was told since it started: other programs' streams and \
        players, the user's commands to them, devices, the audio server lost and back, the \
        sessions' commands. FILE gets them as the steps of a scenario (simulate program, \
        simulate user, simulate plug, simulate wait, the sessions' commands), each followed by \
        what the daemon decided then, as comments, so that 'sessionctl scenario run FILE \
        --explain' replays it anywhere, with no device, and says why. The header says which \
        daemon recorded it, when, and what the steps could not act out; what the daemon found \
        when it started is set up first, with the daemon stopped. At most \
        \(DesktopRecorder.defaultLimit) steps are kept: older ones are cut, and the file says \
        so. A daemon must be running: this command starts none. FILE is not overwritten \
        unless --force; - writes to standard output (docs/contract.md "Recording what the \
        daemon saw").
        """)

    @Argument(
      help: ArgumentHelp(
        "The scenario file to write (YAML), or - for standard output.", valueName: "file"),
      completion: .file(extensions: ["yaml"]))
    var file: String

    @Flag(help: "Overwrite FILE if it exists.")
    var force = false

    @Flag(help: "Print a summary of what was written as one JSON object.")
    var json = false

    @OptionGroup var connection: LiveConnectionOptions

    func validate() throws {
      guard file != "-" else {
        if force { throw ValidationError("--force overwrites FILE; '-' is standard output") }
        if json {
          throw ValidationError(
            "--json prints a summary on standard output, where '-' writes the scenario; name a "
              + "file")
        }
        return
      }
      guard !file.isEmpty else { throw ValidationError("FILE is empty: name a file, or - ") }
      var info = stat()
      if lstat(file, &info) == 0 {
        if (info.st_mode & S_IFMT) == S_IFDIR {
          throw ValidationError("cannot write '\(file)': it is a folder; name a file in it")
        }
        if !force {
          throw ValidationError(
            "'\(file)' exists; pass --force to overwrite it, or name another file")
        }
      }
      let folder = PathText.normalized(file + "/..")
      guard access(folder, W_OK) == 0 else {
        throw ValidationError(
          "cannot write '\(file)': its folder '\(folder)' does not exist or is not writable")
      }
    }

    func run() async throws {
      let client = try LiveClient.connectToRunning(connection)
      defer { client.close() }
      let reply = try LiveClient.request(.record, on: client, socketPath: connection.socketPath)
      if let error = reply.error { throw LiveCommandError(error: error) }
      let recording: DesktopRecording
      do throws(WireDecodingError) {
        guard case .object(let object)? = reply["record"] else {
          throw WireDecodingError("the reply has no \"record\" object")
        }
        recording = try DesktopRecording(json: object)
      } catch {
        throw ValidationError(
          "the daemon on '\(connection.socketPath)' answered 'record' with no record this "
            + "sessionctl reads (\(error.message)): is it another version? Nothing was written.")
      }
      let yaml = ScenarioWriter.yaml(recording) { StepParser.sessionNameProblem($0) == nil }
      if file == "-" {
        StandardStreams.writeOutput(yaml)
      } else if let reason = StandardStreams.writeFile(yaml, atPath: file, creating: !force) {
        if reason == StandardStreams.fileExists {
          throw ValidationError(
            "'\(file)' exists; pass --force to overwrite it, or name another file")
        }
        throw ValidationError("cannot write '\(file)': \(reason)")
      }
      if json {
        print(Self.summary(recording, file: file).serialized)
      } else if file != "-" {
        print(Self.sentence(recording, file: file))
      }
    }

    /// `{"file":…,"steps":N,"setupSteps":N,"facts":N,"cut":N,"exact":true,"notes":[…]}`.
    static func summary(_ recording: DesktopRecording, file: String) -> JSONObject {
      [
        "file": .string(file), "steps": .int(recording.stepCount),
        "setupSteps": .int(recording.setupSteps), "facts": .int(recording.facts),
        "cut": .int(recording.cut), "exact": .bool(recording.isExact),
        "notes": .array(recording.notes.map(JSONValue.string)),
      ]
    }

    /// `wrote 12 steps to x.yaml (…); replay it with 'sessionctl scenario run x.yaml --explain'`.
    static func sentence(_ recording: DesktopRecording, file: String) -> String {
      let steps = recording.stepCount
      var text =
        "wrote \(steps) step\(steps == 1 ? "" : "s") to \(file), from \(recording.facts) "
        + "fact\(recording.facts == 1 ? "" : "s") the daemon saw since it started"
      if recording.cut > 0 { text += " (the first \(recording.cut) steps cut)" }
      text += "; replay it with 'sessionctl scenario run \(file) --explain'"
      if !recording.notes.isEmpty {
        let count = recording.notes.count
        text +=
          "\n\(count) thing\(count == 1 ? "" : "s") it saw cannot be replayed (the file's "
          + "header lists them): the replay may decide otherwise after "
          + (count == 1 ? "it" : "them")
      }
      return text
    }
  }
}
