import AudioSession
import AudioSessionPulse
import AudioSessionScenario
import AudioSessionSystem
import AudioSessionTestSupport
import AudioSessionWire
import Foundation
import Testing

/// This target's suites of the PulseAudio backend, nested as the backend's own are in
/// `AudioSessionPulseTests`, so that `swift test --filter PulseAudio` selects them with those.
@Suite enum PulseAudioTests {}

extension PulseAudioTests {
  /// Every scenario in examples/ gives, on a real PulseAudio server, the transcript it gives on
  /// the simulated backend, apart from device names and UIDs (docs/contract.md "Scenario files").
  @Suite struct PulseExamplesTests {
    /// The examples but the desktop ones, which act out other programs on the simulated backend
    /// only (docs/contract.md "Desktop steps"; examples/README.md).
    static var names: [String] {
      let files = (try? FileManager.default.contentsOfDirectory(atPath: CLIFixtures.examples)) ?? []
      return files.filter { $0.hasSuffix(".yaml") && !$0.hasPrefix("desktop-") }
        .map { String($0.dropLast(5)) }.sorted()
    }

    // docs/contract.md "Scenario files": "the transcript must be the same as the simulated one,
    // apart from device names and UIDs"
    @Test(
      "scenario run --backend pulse --spawn-server matches the simulated transcript",
      arguments: names)
    func run_examplePrivatePulseAudio_matchesSimulated(name: String) async throws {
      let file = "\(CLIFixtures.examples)/\(name).yaml"
      let simulated = await CLIFixtures.scenarioRun([
        file, "--policies", CLIFixtures.policies, "--json",
      ])
      // As a person types it: its own process, whose threads no other test's blocking wait
      // holds (in the test process, a server restart's reconnection waited on them for 30 s).
      let pulse = try PulseTranscripts.sessionctl(
        [
          "scenario", "run", file, "--policies", CLIFixtures.policies, "--json", "--backend",
          "pulse", "--spawn-server",
        ], environment: PulseTranscripts.environmentWithoutServer)
      #expect(pulse.status == 0, "\(pulse.errors)")
      #expect(simulated.error == nil)
      let got = try PulseTranscripts.normalized(pulse.lines)
      let want = try PulseTranscripts.normalized(simulated.lines)
      #expect(got == want, "\(PulseTranscripts.difference(got, want))")
    }

    // The backend uses the server from PULSE_SERVER/XDG_RUNTIME_DIR (docs/pulseaudio-layer.md
    // "Configuration"). The environment is
    // the process's, so sessionctl runs as a child process, pointed at a private server.
    @Test(
      "scenario run --backend pulse uses the server PULSE_SERVER names and matches the simulated transcript"
    )
    func run_examplesOnServerFromEnvironment_matchSimulated() async throws {
      let server = try PulsePrivateServer.start(modules: [
        .init("module-role-cork", arguments: "trigger_roles=phone cork_roles=music,video")
      ])
      defer { server.stop() }
      var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("PULSE_") }
      environment["PULSE_SERVER"] = server.serverString
      environment["PULSE_COOKIE"] = server.cookiePath
      // server-restart needs a server sessionctl started; the others run on any server.
      for name in Self.names where name != "media-services-reset" {
        let file = "\(CLIFixtures.examples)/\(name).yaml"
        let simulated = await CLIFixtures.scenarioRun([
          file, "--policies", CLIFixtures.policies, "--json",
        ])
        let run = try PulseTranscripts.sessionctl(
          [
            "scenario", "run", file, "--policies", CLIFixtures.policies, "--json", "--backend",
            "pulse",
          ],
          environment: environment)
        #expect(run.status == 0, "\(name): \(run.errors)")
        let got = try PulseTranscripts.normalized(run.lines)
        let want = try PulseTranscripts.normalized(simulated.lines)
        #expect(got == want, "\(name): \(PulseTranscripts.difference(got, want))")
      }
      // and it leaves the user's server as it found it: no module of ours stays loaded
      let client = try PulseContext(name: "audiosession-tests")
      defer { client.disconnect() }
      try await client.connect(to: server.serverString, cookieFile: server.cookiePath)
      #expect(
        try await client.devices().filter { $0.properties["audiosession.device"] != nil } == [])
    }

    // docs/pulseaudio.md §2.1: pipewire-pulse has no role-cork, no stream events and another event
    // order; the backend applies interruptions itself. Each case starts its own private
    // dbus-daemon, pipewire, wireplumber and pipewire-pulse; one at a time, to spare the CPU.
    @Test(
      "scenario run --backend pulse on a private pipewire-pulse matches the simulated transcript",
      .serialized, arguments: names)
    func run_examplePrivatePipeWire_matchesSimulated(name: String) async throws {
      let file = "\(CLIFixtures.examples)/\(name).yaml"
      let simulated = await CLIFixtures.scenarioRun([
        file, "--policies", CLIFixtures.policies, "--json",
      ])
      let pipewire = try PulseTranscripts.sessionctl(
        [
          "scenario", "run", file, "--policies", CLIFixtures.policies, "--json", "--backend",
          "pulse", "--spawn-server", "--server-kind", "pipewire",
        ], environment: PulseTranscripts.environmentWithoutServer)
      #expect(pipewire.status == 0, "\(pipewire.errors)")
      let got = try PulseTranscripts.normalized(pipewire.lines)
      let want = try PulseTranscripts.normalized(simulated.lines)
      #expect(got == want, "\(PulseTranscripts.difference(got, want))")
    }
  }
}

/// Comparing transcripts apart from device names and UIDs.
enum PulseTranscripts {
  /// The keys whose values name or identify a device or port.
  static let deviceKeys: Set<String> = ["uid", "name", "portName"]
  /// The keys whose values the real sink and source report on a server, and the simulated
  /// hardware elsewhere (docs/pulseaudio-layer.md "Hardware values"): compared as present, not
  /// by value.
  static let hardwareKeys: Set<String> = [
    "sampleRate", "ioBufferDuration", "inputNumberOfChannels", "outputNumberOfChannels",
    "inputLatency", "outputLatency",
  ]

  /// Each line re-encoded with sorted keys, every device name and UID replaced by its order of
  /// first appearance (`uid#1`) and every hardware value by `hardware`, so two transcripts
  /// compare equal when they use the same devices in the same places, whatever those are called
  /// and whatever the real devices report.
  static func normalized(_ lines: [String]) throws -> [String] {
    var aliases: [String: [String: String]] = [:]
    return try lines.map { line in
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
      let renamed = rename(object, &aliases)
      let data = try JSONSerialization.data(withJSONObject: renamed, options: [.sortedKeys])
      return String(decoding: data, as: UTF8.self)
    }
  }

  /// Runs the built `sessionctl` (next to the test bundle) as a child process.
  /// The test's environment without a server of the user's (`PULSE_SERVER`, `PULSE_COOKIE`):
  /// for a run that starts its own (`--spawn-server`).
  static var environmentWithoutServer: [String: String] {
    ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("PULSE_") }
  }

  static func sessionctl(
    _ arguments: [String], environment: [String: String]
  ) throws -> (status: Int32, lines: [String], errors: String) {
    let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    let process = Process()
    process.executableURL = directory.appendingPathComponent("sessionctl")
    process.arguments = arguments
    process.environment = environment
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let printed = output.fileHandleForReading.readDataToEndOfFile()
    let complaints = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let lines = String(decoding: printed, as: UTF8.self).split(separator: "\n").map(String.init)
    return (process.terminationStatus, lines, String(decoding: complaints, as: UTF8.self))
  }

  /// The first lines that differ, for a failure message.
  static func difference(_ got: [String], _ want: [String]) -> String {
    var report: [String] = []
    for index in 0..<max(got.count, want.count) {
      let left = index < got.count ? got[index] : "(none)"
      let right = index < want.count ? want[index] : "(none)"
      if left != right { report.append("line \(index + 1):\n  got  \(left)\n  want \(right)") }
      if report.count == 3 { break }
    }
    return report.joined(separator: "\n")
  }

  private static func rename(_ value: Any, _ aliases: inout [String: [String: String]]) -> Any {
    if let object = value as? [String: Any] {
      var result: [String: Any] = [:]
      // Sorted, so aliases are given in the same order whatever the dictionary's order.
      for key in object.keys.sorted() {
        guard let member = object[key] else { continue }
        if hardwareKeys.contains(key), member is NSNumber || member is NSNull {
          result[key] = "hardware"
        } else if deviceKeys.contains(key), let text = member as? String {
          let known = aliases[key, default: [:]]
          let alias = known[text] ?? "\(key)#\(known.count + 1)"
          aliases[key, default: [:]][text] = alias
          result[key] = alias
        } else {
          result[key] = rename(member, &aliases)
        }
      }
      return result
    }
    if let array = value as? [Any] { return array.map { rename($0, &aliases) } }
    return value
  }
}
